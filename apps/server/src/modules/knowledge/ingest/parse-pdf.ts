import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { BlockSink } from './blocks';
import { normaliseInline } from './normalise';
import { ParseError } from './parse-error';
import type { ParsedDocument } from './types';

export interface PdfOptions {
  /** Reading the whole file (open, every page, metadata) must finish within this many milliseconds. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
// A gap between baselines above this multiple of the font height (normal leading is about 1.2) starts a new paragraph.
const PARAGRAPH_GAP = 1.75;

const corrupt = () =>
  new ParseError(
    'parse/corrupt',
    'The PDF could not be read; it may be damaged or incomplete. Export it again and upload the new copy.',
  );

interface Line {
  text: string;
  y: number;
  height: number;
}

/** A text run as the worker reports it: its string, baseline and font height. */
export interface TextRun {
  str: string;
  hasEOL: boolean;
  y: number;
  height: number;
}

type WorkerReply =
  { ok: true; pages: TextRun[][]; title: string | null } | { ok: false; name: string; message: string };

/** Groups a page's text items into lines (by end-of-line marks and baseline changes). */
export function linesOf(items: TextRun[]): Line[] {
  const lines: Line[] = [];
  let current: Line | null = null;
  for (const item of items) {
    const { y, height } = item;
    if (current && Math.abs(current.y - y) > height / 2) {
      lines.push(current);
      current = null;
    }
    current ??= { text: '', y, height };
    current.text += item.str;
    if (item.hasEOL) {
      lines.push(current);
      current = null;
    }
  }
  if (current) lines.push(current);
  return lines;
}

/** Joins lines into paragraphs, breaking at blank lines and at vertical gaps wider than a normal line step. */
export function paragraphsOf(lines: Line[]): string[] {
  const paragraphs: string[] = [];
  let buffer: string[] = [];
  let previous: Line | null = null;
  for (const line of lines) {
    const blank = !line.text.trim();
    const gap = previous ? Math.abs(previous.y - line.y) : 0;
    if (blank || (previous && gap > previous.height * PARAGRAPH_GAP)) {
      if (buffer.length) paragraphs.push(buffer.join(' '));
      buffer = [];
    }
    if (!blank) {
      const last = buffer.at(-1);
      // A word broken across lines ("ware-" / "house") is joined without a space; the hyphen stays.
      if (last !== undefined && /\p{L}-$/u.test(last) && /^\p{Ll}/u.test(line.text.trimStart())) {
        buffer[buffer.length - 1] = last + line.text.trimStart();
      } else {
        buffer.push(line.text);
      }
    }
    previous = blank ? previous : line;
  }
  if (buffer.length) paragraphs.push(buffer.join(' '));
  return paragraphs;
}

// Runs in a worker thread (plain CommonJS): pdf.js reads the file there, so a hang or a crash can be cut off.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  try {
    const { getResolvedPDFJS } = await import(workerData.unpdfUrl);
    const { getDocument } = await getResolvedPDFJS();
    const pdf = await getDocument({
      data: workerData.bytes, isEvalSupported: false, useSystemFonts: true, disableFontFace: true, verbosity: 0,
    }).promise;
    const pages = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      pages.push(content.items.filter((i) => typeof i.str === 'string').map((i) => ({
        str: i.str, hasEOL: Boolean(i.hasEOL), y: i.transform[5] || 0,
        height: i.height || Math.abs(i.transform[3] || 0) || 10,
      })));
    }
    const meta = await pdf.getMetadata().catch(() => null);
    const title = meta && meta.info && typeof meta.info.Title === 'string' ? meta.info.Title : null;
    parentPort.postMessage({ ok: true, pages, title });
  } catch (error) {
    parentPort.postMessage({ ok: false, name: String(error && error.name), message: String(error && error.message) });
  }
})();
`;

const unpdfUrl = () => pathToFileURL(createRequire(import.meta.url).resolve('unpdf')).href;

/** Extracts text runs per page in a worker thread that is terminated when it exceeds the time limit or crashes. */
function extractInWorker(bytes: Uint8Array, timeoutMs: number): Promise<WorkerReply> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { bytes, unpdfUrl: unpdfUrl() },
      resourceLimits: { maxOldGenerationSizeMb: 512 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new ParseError(
              'parse/corrupt',
              'The PDF took too long to read; it may be damaged or unusually complex. Export it again or split it into smaller files.',
            ),
          ),
        ),
      timeoutMs,
    );
    worker.once('message', (reply: WorkerReply) => finish(() => resolve(reply)));
    worker.once('error', () => finish(() => reject(corrupt())));
    worker.once('exit', () => finish(() => reject(corrupt())));
  });
}

/** PDFs: text per page (page numbers kept), paragraphs from line spacing; headings are not detected. */
export async function parsePdf(bytes: Uint8Array, options: PdfOptions = {}): Promise<ParsedDocument> {
  const reply = await extractInWorker(bytes, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  if (!reply.ok) {
    if (reply.name === 'PasswordException') {
      throw new ParseError(
        'parse/encrypted',
        'The PDF is password-protected; upload a copy without a password.',
      );
    }
    throw corrupt();
  }
  const sink = new BlockSink();
  reply.pages.forEach((runs, index) => {
    for (const paragraph of paragraphsOf(linesOf(runs)))
      sink.add('paragraph', paragraph, { page: index + 1 });
  });
  const title = reply.title ? normaliseInline(reply.title) || null : null;
  return { format: 'pdf', title, blocks: sink.blocks, pageCount: reply.pages.length };
}
