// The build step that writes the brotli and gzip copies the server sends in place of each built file.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompress, PRECOMPRESS_MIN_BYTES } from './precompress.mjs';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const bundle = Array.from({ length: 300 }, (_, n) => `export const value${n} = ${n} * 2;\n`).join('');

describe('precompress', () => {
  it('writes a brotli and a gzip copy of each compressible file that decode to it, and nothing else', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'omnibot-precompress-'));
    mkdirSync(path.join(dir, 'assets'));
    const files = {
      script: path.join(dir, 'assets', 'index-1a2b.js'),
      style: path.join(dir, 'assets', 'index-1a2b.css'),
      small: path.join(dir, 'assets', 'tiny.js'),
      page: path.join(dir, 'index.html'),
      image: path.join(dir, 'assets', 'photo.png'),
      random: path.join(dir, 'assets', 'noise.svg'),
    };
    writeFileSync(files.script, bundle);
    writeFileSync(files.style, `.a { color: red; }\n`.repeat(200));
    writeFileSync(files.small, 'x'.repeat(PRECOMPRESS_MIN_BYTES - 1));
    writeFileSync(files.page, `<p>page</p>\n`.repeat(200));
    writeFileSync(files.image, Buffer.alloc(4096, 7));
    // Bytes that do not compress: an encoded copy would be larger than the file.
    writeFileSync(files.random, randomBytes(4096));

    const written = await precompress(dir);

    for (const file of [files.script, files.style]) {
      const content = readFileSync(file);
      expect(brotliDecompressSync(readFileSync(`${file}.br`))).toEqual(content);
      expect(gunzipSync(readFileSync(`${file}.gz`))).toEqual(content);
      expect(readFileSync(`${file}.br`).length).toBeLessThan(content.length / 4);
    }
    for (const file of [files.small, files.page, files.image, files.random]) {
      expect(existsSync(`${file}.br`)).toBe(false);
      expect(existsSync(`${file}.gz`)).toBe(false);
    }
    expect(written.map((item) => [item.file, item.br !== null, item.gzip !== null])).toEqual([
      [path.join('assets', 'index-1a2b.css'), true, true],
      [path.join('assets', 'index-1a2b.js'), true, true],
      [path.join('assets', 'noise.svg'), false, false],
    ]);
  });
});
