import { getResolvedPDFJS } from 'unpdf';
import { BlockSink } from './blocks';
import { normaliseInline } from './normalise';
import { ParseError } from './parse-error';
import type { ParsedDocument } from './types';

export interface PdfOptions {
  /** The whole parse (open, every page, metadata) must finish within this many milliseconds. */
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

interface PositionedText {
  str: string;
  hasEOL: boolean;
  transform: number[];
  height: number;
}

function isText(item: object): item is PositionedText {
  return 'str' in item;
}

/** Groups a page's text items into lines (by end-of-line marks and baseline changes). */
function linesOf(items: object[]): Line[] {
  const lines: Line[] = [];
  let current: Line | null = null;
  for (const item of items) {
    if (!isText(item)) continue;
    const y = item.transform[5] ?? 0;
    const height = item.height || Math.abs(item.transform[3] ?? 0) || 10;
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
function paragraphsOf(lines: Line[]): string[] {
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
    if (!blank) buffer.push(line.text);
    previous = blank ? previous : line;
  }
  if (buffer.length) paragraphs.push(buffer.join(' '));
  return paragraphs;
}

async function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(
        new ParseError(
          'parse/corrupt',
          'The PDF took too long to read; it may be damaged or unusually complex. Export it again or split it into smaller files.',
        ),
      );
    }, ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** PDFs: text per page (page numbers kept), paragraphs from line spacing; headings are not detected. */
export async function parsePdf(bytes: Uint8Array, options: PdfOptions = {}): Promise<ParsedDocument> {
  const { getDocument } = await getResolvedPDFJS();
  // pdf.js may take ownership of the buffer it gets, so it gets a copy.
  const task = getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    useSystemFonts: true,
    disableFontFace: true,
    verbosity: 0,
  });
  const read = async () => {
    let pdf;
    try {
      pdf = await task.promise;
    } catch (error) {
      if (error instanceof Error && error.name === 'PasswordException') {
        throw new ParseError(
          'parse/encrypted',
          'The PDF is password-protected; upload a copy without a password.',
        );
      }
      throw corrupt();
    }
    try {
      const sink = new BlockSink();
      for (let page = 1; page <= pdf.numPages; page++) {
        const content = await (await pdf.getPage(page)).getTextContent();
        for (const paragraph of paragraphsOf(linesOf(content.items))) sink.add('paragraph', paragraph, { page });
      }
      const meta = await pdf.getMetadata().catch(() => null);
      const info = meta?.info as { Title?: unknown } | undefined;
      const title = typeof info?.Title === 'string' ? normaliseInline(info.Title) || null : null;
      return { format: 'pdf', title, blocks: sink.blocks, pageCount: pdf.numPages } satisfies ParsedDocument;
    } catch (error) {
      if (error instanceof ParseError) throw error;
      throw corrupt();
    }
  };
  try {
    return await withTimeout(read(), options.timeoutMs ?? DEFAULT_TIMEOUT_MS, () => void task.destroy());
  } finally {
    await task.destroy();
  }
}
