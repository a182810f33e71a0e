import { describe, expect, it } from 'vitest';
import { fixture, parseFailure as failure } from './fixtures/load';
import { parseAndChunk } from './ingest';
import { detectFormat, parse } from './parse';

describe('parse dispatch', () => {
  it.each([
    ['three-pages.pdf', 'application/pdf', 'pdf', 'Harbour guide', 'Page two says the ferry leaves at noon.'],
    [
      'handbook.docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'docx',
      'Staff handbook',
      'Every employee has twenty-five days of paid leave a year.',
    ],
    ['article.html', 'text/html; charset=utf-8', 'html', 'Support hours', 'Urgent outages are handled'],
    ['guide.md', 'text/markdown', 'markdown', 'Installation guide', 'Network access to the model provider'],
    ['products.csv', 'text/csv', 'csv', 'products', 'name: Kettle'],
    ['notes.txt', 'text/plain', 'text', 'notes', 'Returns are free for thirty days.'],
  ])('reads %s as %s', async (name, contentType, format, title, sentence) => {
    const document = await parse(fixture(name), { contentType, filename: name });
    expect(document.format).toBe(format);
    expect(document.title).toBe(title);
    expect(document.blocks.some((b) => b.text.includes(sentence))).toBe(true);
  });

  it('trusts the bytes over a generic or missing content type, and the extension for text', () => {
    expect(detectFormat(fixture('three-pages.pdf'), { contentType: 'application/octet-stream' })).toBe('pdf');
    expect(detectFormat(fixture('handbook.docx'), { filename: 'upload.bin' })).toBe('docx');
    expect(
      detectFormat(fixture('guide.md'), { filename: 'guide.md', contentType: 'application/octet-stream' }),
    ).toBe('markdown');
    expect(detectFormat(fixture('article.html'), {})).toBe('html');
    expect(detectFormat(fixture('notes.txt'), {})).toBe('text');
  });

  it('cleans NUL bytes, soft hyphens and line breaks out of the text', async () => {
    const document = await parse(fixture('notes.txt'), { filename: 'notes.txt' });
    expect(document.blocks.map((b) => b.text)).toEqual([
      'Delivery notes',
      'Parcels ship from the warehouse within two days. Tracking links arrive by email.',
      'Returns are free for thirty days.',
    ]);
    expect(fixture('notes.txt').includes(0)).toBe(true);
    expect(document.blocks.some((b) => b.text.includes('\u0000'))).toBe(false);
  });

  it('reads UTF-16 with a byte-order mark and Windows-1252 text', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Grüße aus Köln', 'utf16le')]);
    expect((await parse(utf16, { filename: 'a.txt' })).blocks[0]?.text).toBe('Grüße aus Köln');
    const cp1252 = Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x35]);
    expect((await parse(cp1252, { filename: 'b.txt' })).blocks[0]?.text).toBe('Café €5');
  });

  it('fails an image with parse/unsupported-type', async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(64),
    ]);
    const error = await failure(parse(png, { contentType: 'image/png', filename: 'photo.png' }));
    expect(error.code).toBe('parse/unsupported-type');
    expect(error.statusCode).toBe(415);
    expect(error.message).toMatch(/Upload PDF, Word/);
  });

  it('fails a declared type it cannot read, and an old Office file, with parse/unsupported-type', async () => {
    expect((await failure(parse(Buffer.from('hello'), { contentType: 'image/gif' }))).code).toBe(
      'parse/unsupported-type',
    );
    const ole = Buffer.concat([
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      Buffer.alloc(512),
    ]);
    expect((await failure(parse(ole, { filename: 'old.doc' }))).code).toBe('parse/unsupported-type');
    // Word stores a password-protected .docx in that container.
    expect((await failure(parse(ole, { filename: 'locked.docx' }))).code).toBe('parse/encrypted');
  });

  it('fails corrupt and encrypted PDFs with their codes through the dispatcher', async () => {
    expect((await failure(parse(fixture('corrupt.pdf'), { filename: 'corrupt.pdf' }))).code).toBe(
      'parse/corrupt',
    );
    expect((await failure(parse(fixture('encrypted.pdf'), { filename: 'locked.pdf' }))).code).toBe(
      'parse/encrypted',
    );
    expect(
      (
        await failure(
          parse(Buffer.from('just some text'), { contentType: 'application/pdf', filename: 'x.pdf' }),
        )
      ).code,
    ).toBe('parse/corrupt');
  });

  it('fails empty input with parse/empty and oversized input with parse/too-large', async () => {
    expect((await failure(parse(Buffer.alloc(0), { filename: 'a.txt' }))).code).toBe('parse/empty');
    expect((await failure(parse(Buffer.from(' \n\n \u00ad\n'), { filename: 'a.txt' }))).code).toBe(
      'parse/empty',
    );
    expect((await failure(parse(Buffer.from('sku,name\n'), { filename: 'a.csv' }))).code).toBe('parse/empty');
    const error = await failure(parse(Buffer.alloc(2 * 1024 * 1024, 0x61), { maxBytes: 1024 * 1024 }));
    expect(error.code).toBe('parse/too-large');
    expect(error.statusCode).toBe(413);
    expect(error.message).toBe('The file is larger than 1 MB; split it into smaller files.');
  });

  it('parses and chunks in one call with timings for throughput measurement', async () => {
    const result = await parseAndChunk(fixture('guide.md'), { filename: 'guide.md' }, { targetWords: 40 });
    expect(result.chunks.length).toBeGreaterThan(1);
    expect(result.stats).toMatchObject({
      bytes: fixture('guide.md').byteLength,
      chunks: result.chunks.length,
    });
    expect(result.stats.blocks).toBe(result.document.blocks.length);
    expect(result.stats.parseMs).toBeGreaterThanOrEqual(0);
    expect(result.stats.chunkMs).toBeGreaterThanOrEqual(0);
  });
});
