// Upload throughput: a 200 MB file through tus (tus-js-client -> the built server on loopback, local storage)
// against `cp` of the same bytes on the same file system, printed as MB/s (1 MB = 10^6 bytes) and as a ratio.
// The tus time is end to end: every PATCH, then the server's sha256 + content sniffing + move into place.
// Prints figures; never part of `npm test`.
//   node bench/upload.mjs [--size-mb 200] [--runs 3] [--chunk-mb 1,32] [--no-build]
import { spawnSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ROOT } from '../scripts/lib/build.mjs';
import { signIn, startBuiltServer, tusUpload } from './lib/server.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const SIZE_MB = Number(arg('size-mb', '200'));
const RUNS = Number(arg('runs', '3'));
const CHUNKS_MB = arg('chunk-mb', '1,32').split(',').map(Number);
const SIZE = SIZE_MB * 1_000_000;
const MiB = 1024 * 1024;
const ADMIN = { email: 'bench@example.com', password: 'Bench-Upload-Passw0rd-2026' };

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mbps = (bytes, ms) => bytes / 1e6 / (ms / 1000);

async function writeSource(file) {
  const handle = await open(file, 'w');
  for (let written = 0; written < SIZE; written += 4 * MiB) {
    await handle.write(randomBytes(Math.min(4 * MiB, SIZE - written)));
  }
  await handle.close();
}

function timeCp(source, target) {
  const started = performance.now();
  const result = spawnSync('cp', [source, target]);
  if (result.status !== 0) throw new Error(`cp failed: ${result.stderr}`);
  return performance.now() - started;
}

if (!process.argv.includes('--no-build')) {
  const built = spawnSync(process.execPath, ['build.mjs'], {
    cwd: path.join(ROOT, 'apps/server'),
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const work = await mkdtemp(path.join(tmpdir(), 'omnibot-bench-upload-'));
const source = path.join(work, 'source.bin');
try {
  await writeSource(source);
  const server = await startBuiltServer({
    dataDir: path.join(work, 'data'),
    admin: ADMIN,
    env: { FILE_MAX_BYTES: String(SIZE * 2), TENANT_QUOTA_BYTES: String(SIZE * 10) },
  });
  try {
    const cookie = await signIn(server.url, ADMIN);
    const cpTimes = [];
    for (let run = 0; run < RUNS; run += 1) {
      const target = path.join(work, `copy-${run}.bin`);
      cpTimes.push(timeCp(source, target));
      await rm(target);
    }
    const cpMs = median(cpTimes);
    console.log(
      `file: ${SIZE_MB} MB (${SIZE} bytes), ${RUNS} runs each, medians; loopback, local storage under ${work}`,
    );
    console.log(
      `cp:                       ${cpMs.toFixed(0).padStart(6)} ms  ${mbps(SIZE, cpMs).toFixed(1).padStart(7)} MB/s`,
    );
    for (const chunkMb of CHUNKS_MB) {
      const times = [];
      for (let run = 0; run < RUNS; run += 1) {
        const name = `upload-${chunkMb}-${run}.bin`;
        const chunkSize = chunkMb * MiB;
        const body = createReadStream(source, { highWaterMark: Math.min(chunkSize, 4 * MiB) });
        times.push(await tusUpload(server.url, cookie, { body, size: SIZE, chunkSize, name }));
        const stored = await stat(path.join(work, 'data/files/tenants')).catch(() => null);
        if (!stored) throw new Error('nothing was stored');
        const removed = await fetch(`${server.url}/v1/files?path=bench/${encodeURIComponent(name)}`, {
          method: 'DELETE',
          headers: { cookie },
        });
        if (removed.status !== 204) throw new Error(`delete failed: ${removed.status}`);
      }
      const ms = median(times);
      const ratio = mbps(SIZE, ms) / mbps(SIZE, cpMs);
      console.log(
        `tus, ${String(chunkMb).padStart(2)} MiB chunks:      ${ms.toFixed(0).padStart(6)} ms  ${mbps(
          SIZE,
          ms,
        )
          .toFixed(1)
          .padStart(
            7,
          )} MB/s  ratio tus/cp ${ratio.toFixed(3)} (runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms)`,
      );
    }
  } finally {
    await server.stop();
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
