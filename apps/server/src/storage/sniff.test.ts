import { describe, expect, it } from 'vitest';
import { SNIFF_BYTES, sniffContentType } from './sniff';

const bin = (...values: number[]) => Buffer.from(values);
const withTail = (head: Buffer, size = 64) => Buffer.concat([head, Buffer.alloc(size, 0x11)]);

describe('sniffContentType', () => {
  it.each([
    ['png', withTail(bin(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)), 'image/png'],
    ['jpeg', withTail(bin(0xff, 0xd8, 0xff, 0xe0)), 'image/jpeg'],
    ['gif', withTail(Buffer.from('GIF89a')), 'image/gif'],
    ['webp', withTail(Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ', 'latin1')), 'image/webp'],
    ['wav', withTail(Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1')), 'audio/wav'],
    ['pdf', Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), 'application/pdf'],
    ['mp3 with ID3', withTail(Buffer.from('ID3\x04\x00', 'latin1')), 'audio/mpeg'],
    ['mp3 frame', withTail(bin(0xff, 0xfb, 0x90, 0x64)), 'audio/mpeg'],
    ['zip', withTail(bin(0x50, 0x4b, 0x03, 0x04)), 'application/zip'],
  ])('recognises %s', (_label, head, type) => {
    expect(sniffContentType(head)).toBe(type);
  });

  it('recognises bmp only with a real DIB header', () => {
    const bmp = Buffer.alloc(64);
    bmp.write('BM', 0, 'latin1');
    bmp.writeUInt32LE(40, 14);
    expect(sniffContentType(bmp)).toBe('image/bmp');
    expect(sniffContentType(Buffer.from('BM is a text file that starts with BM'))).toBe('text/plain');
  });

  it('tells docx and xlsx from a plain zip by their parts', () => {
    const docx = Buffer.concat([
      bin(0x50, 0x4b, 0x03, 0x04),
      Buffer.from('....[Content_Types].xml....word/document.xml'),
    ]);
    const xlsx = Buffer.concat([
      bin(0x50, 0x4b, 0x03, 0x04),
      Buffer.from('....[Content_Types].xml....xl/workbook.xml'),
    ]);
    expect(sniffContentType(docx)).toContain('wordprocessingml');
    expect(sniffContentType(xlsx)).toContain('spreadsheetml');
  });

  it('finds SVG, HTML and XML in text, whatever the name says', () => {
    expect(sniffContentType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'a.png')).toBe(
      'image/svg+xml',
    );
    expect(sniffContentType(Buffer.from('<?xml version="1.0"?>\n<svg onload="alert(1)"/>'))).toBe(
      'image/svg+xml',
    );
    expect(sniffContentType(Buffer.from('  <!DOCTYPE html><html></html>'), 'cat.jpg')).toBe('text/html');
    expect(sniffContentType(Buffer.from('<script>alert(1)</script>'), 'x.txt')).toBe('text/html');
    expect(sniffContentType(Buffer.from('<?xml version="1.0"?><feed/>'))).toBe('application/xml');
  });

  it('answers plain text (refined by a csv, json or md name) or octet-stream for binary', () => {
    expect(sniffContentType(Buffer.from('hello, world\n'))).toBe('text/plain');
    expect(sniffContentType(Buffer.from('\ufeffmit BOM'))).toBe('text/plain');
    expect(sniffContentType(Buffer.from('a,b\n1,2\n'), 'data.csv')).toBe('text/csv');
    expect(sniffContentType(Buffer.from('{"a":1}'), 'x.json')).toBe('application/json');
    expect(sniffContentType(Buffer.from('# Title'), 'README.md')).toBe('text/markdown');
    expect(sniffContentType(bin(0x00, 0x01, 0x02, 0x03))).toBe('application/octet-stream');
    expect(sniffContentType(bin(0xc3, 0x28, 0x41))).toBe('application/octet-stream');
    expect(sniffContentType(Buffer.alloc(0))).toBe('text/plain');
  });

  it('accepts UTF-8 text whose last character is cut by the sniffing window', () => {
    // One ASCII byte, then two-byte characters: the window ends in the middle of one.
    const head = Buffer.from(`a${'é'.repeat(SNIFF_BYTES)}`).subarray(0, SNIFF_BYTES);
    expect(head.at(-1)).toBe(0xc3);
    expect(sniffContentType(head)).toBe('text/plain');
    expect(sniffContentType(head.subarray(0, SNIFF_BYTES - 2))).toBe('application/octet-stream');
  });
});
