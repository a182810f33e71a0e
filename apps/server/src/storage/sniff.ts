import { extensionOf } from '@omnibot/contracts';

/** How many leading bytes sniffContentType wants (zip-based formats name their parts in the first entries). */
export const SNIFF_BYTES = 64 * 1024;

const ascii = (head: Buffer, offset: number, text: string) =>
  head.length >= offset + text.length && head.toString('latin1', offset, offset + text.length) === text;

const bytes = (head: Buffer, offset: number, values: number[]) =>
  head.length >= offset + values.length && values.every((value, i) => head[offset + i] === value);

// BITMAPINFOHEADER and its relatives: a bare "BM" at the start of a text file is not an image.
const BMP_DIB_SIZES = new Set([12, 40, 52, 56, 64, 108, 124]);

/** Binary formats by magic number, most specific first. */
const MAGIC: Array<[type: string, test: (head: Buffer) => boolean]> = [
  ['image/png', (h) => bytes(h, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ['image/jpeg', (h) => bytes(h, 0, [0xff, 0xd8, 0xff])],
  ['image/gif', (h) => ascii(h, 0, 'GIF87a') || ascii(h, 0, 'GIF89a')],
  ['image/webp', (h) => ascii(h, 0, 'RIFF') && ascii(h, 8, 'WEBP')],
  ['audio/wav', (h) => ascii(h, 0, 'RIFF') && ascii(h, 8, 'WAVE')],
  ['image/bmp', (h) => ascii(h, 0, 'BM') && h.length >= 18 && BMP_DIB_SIZES.has(h.readUInt32LE(14))],
  ['application/pdf', (h) => ascii(h, 0, '%PDF-')],
  ['audio/mpeg', (h) => ascii(h, 0, 'ID3') || (h[0] === 0xff && ((h[1] ?? 0) & 0xe6) === 0xe2)],
  ['application/x-ole-storage', (h) => bytes(h, 0, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])],
  ['application/zip', (h) => bytes(h, 0, [0x50, 0x4b, 0x03, 0x04]) || bytes(h, 0, [0x50, 0x4b, 0x05, 0x06])],
];

const OOXML: Array<[marker: string, type: string]> = [
  ['word/', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['xl/', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ['ppt/', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
];

// The tags browsers treat as HTML when they sniff (WHATWG MIME Sniffing, "text/html" patterns).
const HTML_START =
  /^(?:<!doctype\s+html|<html|<head|<script|<iframe|<h1|<div|<font|<table|<a|<style|<title|<b|<body|<br|<p|<!--)[\s>]/iu;

// Plain-text types a name may refine; none of them is ever shown inline.
const TEXT_BY_EXTENSION: Record<string, string> = {
  csv: 'text/csv',
  json: 'application/json',
  md: 'text/markdown',
  markdown: 'text/markdown',
};

/**
 * The content type of a file from its first bytes (see SNIFF_BYTES), never from what the client claims: png,
 * jpeg, gif, webp, bmp, pdf, mp3, wav, zip (docx/xlsx/pptx), OLE, then text (svg, html, xml, plain). The name
 * only refines plain text (csv, json, markdown). Anything else is application/octet-stream.
 */
export function sniffContentType(head: Buffer, name = ''): string {
  for (const [type, test] of MAGIC) {
    if (!test(head)) continue;
    if (type !== 'application/zip') return type;
    const listing = head.toString('latin1');
    if (listing.includes('[Content_Types].xml')) {
      for (const [marker, ooxml] of OOXML) if (listing.includes(marker)) return ooxml;
    }
    return type;
  }
  const text = decodeText(head);
  if (text === null) return 'application/octet-stream';
  const start = text.trimStart().slice(0, 1024).toLowerCase();
  if (start.startsWith('<svg') || (start.startsWith('<?xml') && /<svg[\s>]/u.test(text.slice(0, 4096)))) {
    return 'image/svg+xml';
  }
  if (HTML_START.test(start)) return 'text/html';
  if (start.startsWith('<?xml')) return 'application/xml';
  return TEXT_BY_EXTENSION[extensionOf(name).toLowerCase()] ?? 'text/plain';
}

/** UTF-8 text without NUL bytes, or null for binary data; a sequence cut at the end of `head` is allowed. */
function decodeText(head: Buffer): string | null {
  if (head.includes(0)) return null;
  const body = bytes(head, 0, [0xef, 0xbb, 0xbf]) ? head.subarray(3) : head;
  for (let cut = 0; cut <= 3 && cut <= body.length; cut += 1) {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(body.subarray(0, body.length - cut));
    } catch {
      // The whole file is here: invalid UTF-8 is binary.
      if (head.length < SNIFF_BYTES) return null;
    }
  }
  return null;
}
