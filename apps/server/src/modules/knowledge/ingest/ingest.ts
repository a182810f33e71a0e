import { performance } from 'node:perf_hooks';
import { chunk, type Chunk, type ChunkOptions } from './chunk';
import { parse, type ParseOptions } from './parse';
import type { ParsedDocument } from './types';

export interface IngestResult {
  document: ParsedDocument;
  chunks: Chunk[];
  /** Timings and sizes, so parse and chunk throughput can be measured (bytes/s, chunks/s). */
  stats: { bytes: number; blocks: number; chunks: number; words: number; parseMs: number; chunkMs: number };
}

/** Parses a file and chunks it in one call, with timings: the entry point for ingestion jobs and benchmarks. */
export async function parseAndChunk(
  bytes: Uint8Array,
  options: ParseOptions = {},
  chunkOptions: ChunkOptions = {},
): Promise<IngestResult> {
  const started = performance.now();
  const document = await parse(bytes, options);
  const parsed = performance.now();
  const chunks = chunk(document, chunkOptions);
  const done = performance.now();
  return {
    document,
    chunks,
    stats: {
      bytes: bytes.byteLength,
      blocks: document.blocks.length,
      chunks: chunks.length,
      words: chunks.reduce((sum, c) => sum + c.wordCount, 0),
      parseMs: parsed - started,
      chunkMs: done - parsed,
    },
  };
}
