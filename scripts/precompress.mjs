// Writes a brotli (.br) and a gzip (.gz) copy beside every compressible file of a build folder, so that the server
// sends compressed assets without compressing them per request. Run after a Vite build:
//   node scripts/precompress.mjs <folder>...
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** Smaller files gain too little for the cost of a second file and of decoding. */
export const PRECOMPRESS_MIN_BYTES = 1024;

// HTML is left out: the server rewrites its pages (the console's configuration) before sending them.
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|xml|map|wasm)$/u;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function filesUnder(folder) {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/**
 * Compresses the compressible files of `folder` (at least PRECOMPRESS_MIN_BYTES long) at the highest levels,
 * keeping an encoded copy only where it is smaller than the file; returns what it wrote.
 */
export async function precompress(folder) {
  const written = [];
  for (const file of await filesUnder(folder)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const content = await readFile(file);
    if (content.length < PRECOMPRESS_MIN_BYTES) continue;
    const [br, gz] = await Promise.all([
      brotli(content, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
      gzipAsync(content, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    const sizes = { file: path.relative(folder, file), identity: content.length, br: null, gzip: null };
    if (br.length < content.length) {
      await writeFile(`${file}.br`, br);
      sizes.br = br.length;
    }
    if (gz.length < content.length) {
      await writeFile(`${file}.gz`, gz);
      sizes.gzip = gz.length;
    }
    written.push(sizes);
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const folders = process.argv.slice(2);
  if (folders.length === 0) {
    console.error('usage: node scripts/precompress.mjs <folder>...');
    process.exit(2);
  }
  for (const folder of folders) {
    const written = await precompress(folder);
    const total = (key) => written.reduce((sum, item) => sum + (item[key] ?? item.identity), 0);
    console.log(
      `precompressed ${written.length} files in ${folder}: ${total('identity')} bytes -> br ${total('br')}, gzip ${total('gzip')}`,
    );
  }
}
