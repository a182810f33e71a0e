import { describe, expect, it } from 'vitest';
import {
  DeleteFolderQuerySchema,
  extensionOf,
  FileNameSchema,
  FileListingSchema,
  FileListQuerySchema,
  isAudio,
  isDocument,
  isImage,
  STORAGE_ERRORS,
} from './files';

describe('extension filters', () => {
  it('reads the text after the last dot; a name without a dot has none', () => {
    expect(extensionOf('photo.png')).toBe('png');
    expect(extensionOf('archive.tar.gz')).toBe('gz');
    expect(extensionOf('README')).toBe('');
    expect(extensionOf('trailing.')).toBe('');
    expect(extensionOf('.env')).toBe('env');
    expect(extensionOf('folder.v2/README')).toBe('');
    expect(extensionOf('a/b/c.JPG')).toBe('JPG');
  });

  it('accepts exactly the seven image extensions, case-sensitively', () => {
    for (const name of ['a.jpg', 'a.jpeg', 'a.png', 'a.gif', 'a.bmp', 'a.svg', 'a.webp']) {
      expect(isImage(name), name).toBe(true);
    }
    for (const name of ['a.JPG', 'a.Png', 'a.SVG', 'a.tiff', 'a.ico', 'png', 'a.png.txt', 'a.mp3']) {
      expect(isImage(name), name).toBe(false);
    }
  });

  it('uses the last dot when a name has several', () => {
    expect(isImage('holiday.2024.final.jpeg')).toBe(true);
    expect(isImage('photo.jpg.exe')).toBe(false);
    expect(isAudio('song.wav.mp3')).toBe(true);
    expect(isDocument('notes.pdf.txt')).toBe(false);
    expect(isDocument('notes.txt.pdf')).toBe(true);
  });

  it('accepts mp3 and wav as audio, case-sensitively', () => {
    expect(isAudio('a.mp3')).toBe(true);
    expect(isAudio('a.wav')).toBe(true);
    expect(isAudio('a.MP3')).toBe(false);
    expect(isAudio('a.ogg')).toBe(false);
    expect(isAudio('mp3')).toBe(false);
  });

  it('keeps every document except txt and doc; upper-case and dot-less names stay', () => {
    expect(isDocument('a.txt')).toBe(false);
    expect(isDocument('a.doc')).toBe(false);
    expect(isDocument('a.TXT')).toBe(true);
    expect(isDocument('a.Doc')).toBe(true);
    expect(isDocument('a.docx')).toBe(true);
    expect(isDocument('a.pdf')).toBe(true);
    expect(isDocument('a.png')).toBe(true);
    expect(isDocument('Makefile')).toBe(true);
    expect(isDocument('txt')).toBe(true);
  });
});

describe('file contracts', () => {
  it('requires the fields of a listing item and drops any other key', () => {
    const listing = FileListingSchema.parse({
      items: [
        {
          name: 'a.png',
          url: 'https://x/a',
          type: 'png',
          size: 3,
          content_type: 'image/png',
          path: 'a.png',
          created_at: '2026-01-01T00:00:00.000Z',
          bucket: 'b',
        },
      ],
      prefixes: [{ name: 'docs', path: 'docs', isFolder: true }],
      next_cursor: null,
    });
    expect(listing.items[0]).not.toHaveProperty('bucket');
    expect(() =>
      FileListingSchema.parse({ items: [{ name: 'a' }], prefixes: [], next_cursor: null }),
    ).toThrow();
    expect(() =>
      FileListingSchema.parse({
        items: [],
        prefixes: [{ name: 'd', path: 'd', isFolder: false }],
        next_cursor: null,
      }),
    ).toThrow();
  });

  it('bounds the page size to 1..1000 and defaults the folder to the root', () => {
    expect(FileListQuerySchema.parse({})).toEqual({ path: '', page_size: 100 });
    expect(FileListQuerySchema.parse({ page_size: '1000' }).page_size).toBe(1000);
    expect(() => FileListQuerySchema.parse({ page_size: '0' })).toThrow();
    expect(() => FileListQuerySchema.parse({ page_size: '1001' })).toThrow();
  });

  it('deletes a folder recursively only when asked', () => {
    expect(DeleteFolderQuerySchema.parse({ path: 'a' }).recursive).toBe(false);
    expect(DeleteFolderQuerySchema.parse({ path: 'a', recursive: 'true' }).recursive).toBe(true);
    expect(() => DeleteFolderQuerySchema.parse({ path: 'a', recursive: 'yes' })).toThrow();
  });

  it('maps the storage codes to their statuses', () => {
    expect(STORAGE_ERRORS['storage/object-not-found'].status).toBe(404);
    expect(STORAGE_ERRORS['storage/unauthenticated'].status).toBe(401);
    expect(STORAGE_ERRORS['storage/unauthorized'].status).toBe(403);
    expect(STORAGE_ERRORS['storage/quota-exceeded'].status).toBe(402);
    expect(STORAGE_ERRORS['storage/invalid-argument'].status).toBe(400);
    expect(STORAGE_ERRORS['storage/unknown'].status).toBe(500);
    for (const code of [
      'unknown',
      'object-not-found',
      'bucket-not-found',
      'quota-exceeded',
      'unauthenticated',
      'unauthorized',
      'unauthorized-app',
      'retry-limit-exceeded',
      'canceled',
      'invalid-url',
      'invalid-argument',
      'no-download-url',
      'server-file-wrong-size',
    ]) {
      expect(STORAGE_ERRORS, code).toHaveProperty([`storage/${code}`]);
    }
  });
});

describe('FileNameSchema (a name the server accepts)', () => {
  it('accepts ordinary names, trimmed', () => {
    expect(FileNameSchema.parse('  report 2026.pdf ')).toBe('report 2026.pdf');
    expect(FileNameSchema.parse('Übersicht (1).png')).toBe('Übersicht (1).png');
    expect(FileNameSchema.parse('.env')).toBe('.env');
  });

  it.each([
    ['', 'Enter a name'],
    ['   ', 'Enter a name'],
    ['a/b', 'slash'],
    ['a\\b', 'slash'],
    ['a\uff0fb', 'slash'],
    ['.', '"." or ".."'],
    ['..', '"." or ".."'],
    ['\uff0e\uff0e', '"." or ".."'],
    ['a\u0000b', 'control'],
    ['evil\u202egnp.exe', 'control'],
    ['a%2fb', '"%" codes'],
    ['C:evil', 'drive letter'],
    ['é'.repeat(128), 'at most 255 bytes'],
  ])('rejects %j (%s)', (name, message) => {
    const result = FileNameSchema.safeParse(name);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(message);
  });
});
