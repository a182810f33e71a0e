// The built server for the benchmarks: a free loopback port, the server started from apps/server/dist/main.js
// on a data directory and ready on /readyz, the platform admin's sign-in and a tus upload to /v1/files/upload.
// Plain JavaScript without TypeScript imports, so scripts run with `node` alone can use it.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { ROOT } from '../../scripts/lib/build.mjs';

export const SERVER_MAIN = path.join(ROOT, 'apps/server/dist/main.js');
const READY_TIMEOUT_MS = 120_000;

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built server on a free loopback port and waits for /readyz 200. The server sees the caller's
 * environment without DATABASE_URL and PUBLIC_URL, then PORT, HOST, DATA_DIR, LOG_LEVEL=warn, PUBLIC_URL (its own
 * address, unless `publicUrl` is false), DATABASE_URL (when `databaseUrl` is given: PostgreSQL, else embedded
 * PGlite), ADMIN_EMAIL and ADMIN_PASSWORD (from `admin`), then `env` over all of these.
 * `readyMs` is the time from spawn to the first /readyz 200, polled every `pollMs`.
 * `stop()` sends SIGTERM and resolves with the exit code and the time the server took to exit.
 */
export async function startBuiltServer({
  dataDir,
  databaseUrl = null,
  admin = null,
  env = {},
  nodeArgs = [],
  publicUrl = true,
  pollMs = 50,
}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const childEnv = { ...process.env };
  delete childEnv.DATABASE_URL;
  delete childEnv.PUBLIC_URL;
  Object.assign(childEnv, { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  if (publicUrl) childEnv.PUBLIC_URL = url;
  if (databaseUrl) childEnv.DATABASE_URL = databaseUrl;
  if (admin) Object.assign(childEnv, { ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
  Object.assign(childEnv, env);
  const log = [];
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, SERVER_MAIN], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => log.push(chunk));
  }
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${log.join('')}`);
    if (performance.now() - started > READY_TIMEOUT_MS) {
      child.kill('SIGKILL');
      throw new Error(`server not ready within ${READY_TIMEOUT_MS} ms:\n${log.join('')}`);
    }
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  const readyMs = performance.now() - started;
  return {
    pid: child.pid,
    url,
    log,
    readyMs,
    async stop() {
      const stopping = performance.now();
      child.kill('SIGTERM');
      const exitCode = await exited;
      return { exitCode, stopMs: performance.now() - stopping };
    },
  };
}

/** Signs in with email and password; the session cookies as one Cookie header value. */
export async function signIn(url, { email, password }) {
  const response = await fetch(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/**
 * Uploads `body` (bytes or a readable stream of `size` bytes) with tus in `chunkSize` PATCHes, without retries,
 * as `folder/name`; resolves with the milliseconds from the start until the server confirmed the upload.
 */
export function tusUpload(url, cookie, { body, size, chunkSize, name, folder = 'bench' }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    new tus.Upload(body, {
      endpoint: `${url}/v1/files/upload`,
      uploadSize: size,
      chunkSize,
      retryDelays: [],
      headers: { cookie },
      metadata: { filename: name, folder },
      onSuccess: () => resolve(performance.now() - started),
      onError: reject,
    }).start();
  });
}
