import { normaliseInline } from './normalise';
import { ParseError } from './parse-error';
import { parseCsv } from './parse-csv';
import { parseDocx } from './parse-docx';
import { parseHtml } from './parse-html';
import { parseMarkdown } from './parse-markdown';
import { parsePdf } from './parse-pdf';
import { parseText } from './parse-text';
import type { DocumentFormat, ParsedDocument } from './types';

export interface ParseOptions {
  /** The declared MIME type (parameters such as charset are ignored). */
  contentType?: string | null;
  filename?: string | null;
  /** Larger inputs fail with parse/too-large; default 50 MB. */
  maxBytes?: number;
  /** Time limit for reading a PDF; default 30 s. */
  pdfTimeoutMs?: number;
}

const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;

const BY_CONTENT_TYPE: Record<string, DocumentFormat> = {
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/tab-separated-values': 'csv',
  'text/plain': 'text',
  'application/json': 'text',
  'application/xml': 'text',
  'text/xml': 'text',
};

const BY_EXTENSION: Record<string, DocumentFormat> = {
  pdf: 'pdf',
  docx: 'docx',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  md: 'markdown',
  markdown: 'markdown',
  mdx: 'markdown',
  csv: 'csv',
  tsv: 'csv',
  txt: 'text',
  text: 'text',
  log: 'text',
  json: 'text',
  xml: 'text',
};

// Declared types that carry no information about the content.
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown']);

const SUPPORTED = 'PDF, Word (.docx), HTML, Markdown, CSV or plain text';

const unsupported = (what: string) =>
  new ParseError('parse/unsupported-type', `${what} cannot be read. Upload ${SUPPORTED}.`);

function startsWith(bytes: Uint8Array, signature: number[], at = 0): boolean {
  return signature.every((b, i) => bytes[at + i] === b);
}

function includesAscii(bytes: Uint8Array, text: string): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(text, 0, 'latin1');
}

function extensionOf(filename: string | null | undefined): string {
  const match = /\.([a-z0-9]+)$/i.exec(filename ?? '');
  return match?.[1]?.toLowerCase() ?? '';
}

function titleFromFilename(filename: string | null | undefined): string | null {
  const base = (filename ?? '').split(/[\\/]/).pop() ?? '';
  return normaliseInline(base.replace(/\.[a-z0-9]+$/i, '').replace(/[_]+/g, ' ')) || null;
}

/** Binary when NUL bytes are frequent (a stray NUL in a text file is tolerated and cleaned away later). */
function looksBinary(bytes: Uint8Array): boolean {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return false;
  const sample = bytes.subarray(0, 8192);
  let nul = 0;
  for (const b of sample) if (b === 0) nul++;
  return nul > Math.max(2, sample.length / 100);
}

// Windows-1252 characters for bytes 0x80-0x9F (Node's TextDecoder reads that label as ISO-8859-1); unassigned bytes stay controls and are cleaned away.
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

function decodeWindows1252(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes)
    text += b >= 0x80 && b <= 0x9f ? (CP1252_HIGH[b - 0x80] ?? '') : String.fromCharCode(b);
  return text;
}

/** Text in UTF-8 (the default), UTF-16 with a byte-order mark, or Windows-1252 when it is not valid UTF-8. */
function decodeText(bytes: Uint8Array): string {
  if (startsWith(bytes, [0xff, 0xfe])) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (startsWith(bytes, [0xfe, 0xff])) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const body = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return decodeWindows1252(body);
  }
}

/** Decides the format from the bytes first, then the declared type, then the file name's extension. */
export function detectFormat(bytes: Uint8Array, options: ParseOptions = {}): DocumentFormat {
  const declared = (options.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const extension = extensionOf(options.filename);
  const claimed = BY_CONTENT_TYPE[declared] ?? BY_EXTENSION[extension];

  if (includesAscii(bytes.subarray(0, 1024), '%PDF-')) return 'pdf';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    if (includesAscii(bytes, 'word/document.xml')) return 'docx';
    throw unsupported(claimed === 'docx' ? 'This Word file has no document part and' : 'This archive');
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    // Word keeps password-protected .docx files in this older container format.
    if (claimed === 'docx') {
      throw new ParseError(
        'parse/encrypted',
        'The Word document is password-protected; upload a copy without a password.',
      );
    }
    throw unsupported('This older Office format (.doc, .xls, .ppt) — save it as .docx or PDF —');
  }
  if (claimed === 'pdf' || claimed === 'docx') {
    throw new ParseError(
      'parse/corrupt',
      `The file is marked as ${claimed === 'pdf' ? 'a PDF' : 'a Word document'} but its contents are not; it may be damaged. Export it again and upload the new copy.`,
    );
  }
  if (looksBinary(bytes)) throw unsupported('This file type');
  if (claimed) return claimed;
  if (!GENERIC_TYPES.has(declared) && !declared.startsWith('text/'))
    throw unsupported(`A file of type ${declared}`);
  if (extension && !GENERIC_TYPES.has(declared)) return 'text';
  const head = decodeText(bytes.subarray(0, 1024)).trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') ? 'html' : 'text';
}

const EMPTY_REASON: Record<DocumentFormat, string> = {
  pdf: 'The PDF has no selectable text; it may be scanned pages. Run text recognition (OCR) on it and upload the result.',
  docx: 'The Word document has no text.',
  html: 'The page has no readable text.',
  markdown: 'The Markdown file has no text.',
  csv: 'The CSV file has no rows below its header.',
  text: 'The file is empty.',
};

/** Turns a file into ordered blocks of normalised text, or fails with a ParseError that says why in plain words. */
export async function parse(bytes: Uint8Array, options: ParseOptions = {}): Promise<ParsedDocument> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (bytes.byteLength > maxBytes) {
    throw new ParseError(
      'parse/too-large',
      `The file is larger than ${Math.floor(maxBytes / (1024 * 1024))} MB; split it into smaller files.`,
    );
  }
  if (bytes.byteLength === 0) throw new ParseError('parse/empty', EMPTY_REASON.text);
  const format = detectFormat(bytes, options);
  let document: ParsedDocument;
  switch (format) {
    case 'pdf':
      document = await parsePdf(bytes, { timeoutMs: options.pdfTimeoutMs });
      break;
    case 'docx':
      document = await parseDocx(bytes);
      break;
    case 'html':
      document = parseHtml(decodeText(bytes));
      break;
    case 'markdown':
      document = parseMarkdown(decodeText(bytes));
      break;
    case 'csv':
      document = parseCsv(decodeText(bytes));
      break;
    case 'text':
      document = parseText(decodeText(bytes));
      break;
  }
  if (document.blocks.length === 0) throw new ParseError('parse/empty', EMPTY_REASON[format]);
  return { ...document, title: document.title ?? titleFromFilename(options.filename) };
}
