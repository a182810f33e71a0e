import { BlockSink } from './blocks';
import type { ParsedDocument } from './types';

/** Plain text: paragraphs are separated by blank lines; single line breaks are treated as spaces. */
export function parseText(text: string): ParsedDocument {
  const sink = new BlockSink();
  for (const paragraph of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) sink.add('paragraph', paragraph);
  return { format: 'text', title: null, blocks: sink.blocks };
}
