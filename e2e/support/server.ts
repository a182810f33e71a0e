// Starts the real built server (apps/server/dist/main.js) for a Playwright worker: a free port, a
// fresh DATA_DIR (embedded PGlite), its log captured so tests can read what it prints.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { test as base, expect } from '@playwright/test';
import { startMailbox, type Mailbox } from './smtp';
import { defined } from '../../apps/console/src/test/defined';

export { expect };

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SERVER_MAIN = path.join(REPO_ROOT, 'apps/server/dist/main.js');

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;
/** Configuration a developer's shell may hold that must not leak into a test server. */
const ISOLATED_VARIABLES = ['DATABASE_URL', 'DATA_DIR', 'PORT', 'HOST', 'PUBLIC_URL', 'SMTP_URL', 'NODE_ENV'];

export interface ServerHandle {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  port: number;
  dataDir: string;
  /** Every line the server printed so far (stdout and stderr; pino JSON lines), oldest first. */
  logs(): string[];
  /**
   * Resolves with the match of the first log line (from index `after`, default 0) matching `pattern`,
   * waiting for it when needed. Pass `after: server.logs().length` to only see lines logged from now on.
   */
  waitForLog(pattern: RegExp, options?: { after?: number; timeoutMs?: number }): Promise<RegExpExecArray>;
}

export interface StartServerOptions {
  /** Extra environment for the server, e.g. `{ SMTP_URL: mailbox.url }`. */
  env?: Record<string, string>;
  /** Print the server's log lines as they come (also on with E2E_SERVER_LOGS=1). */
  echo?: boolean;
}

export interface RunningServer extends ServerHandle {
  /** Sends SIGTERM, waits for the exit and removes the data directory; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const tail = (lines: string[], count = 60) => lines.slice(-count).join('\n');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<number | null | 'timeout'> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('timeout'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Starts the built server and resolves once `/readyz` answers 200; throws with its log otherwise. */
export async function startServer({
  env = {},
  echo = false,
}: StartServerOptions = {}): Promise<RunningServer> {
  if (!existsSync(SERVER_MAIN)) {
    throw new Error(`${SERVER_MAIN} is missing: run \`npm run build\` first (npm run test:e2e does).`);
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'omnibot-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const inherited = { ...process.env };
  for (const name of ISOLATED_VARIABLES) delete inherited[name];

  const lines: string[] = [];
  const listeners = new Set<() => void>();
  const child = spawn(process.execPath, [SERVER_MAIN], {
    cwd: REPO_ROOT,
    env: {
      ...inherited,
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      // The browser's origin: mailed links and session cookies must point where the tests browse.
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const shouldEcho = echo || process.env.E2E_SERVER_LOGS === '1';
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      if (shouldEcho) console.log(`[server:${port}] ${line}`);
      for (const listener of listeners) listener();
    });
  }

  const removeDataDir = () => rm(dataDir, { recursive: true, force: true, maxRetries: 3 });

  const handle: RunningServer = {
    url,
    port,
    dataDir,
    logs: () => [...lines],
    // As long as an expectation may wait (playwright.config.ts): a busy machine slows the server, not the rule.
    waitForLog(pattern, { after = 0, timeoutMs = 30_000 } = {}) {
      const find = () => {
        for (let index = after; index < lines.length; index++) {
          pattern.lastIndex = 0;
          const match = pattern.exec(defined(lines[index]));
          if (match) return match;
        }
        return null;
      };
      const found = find();
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const listener = () => {
          const match = find();
          if (!match) return;
          clearTimeout(timer);
          listeners.delete(listener);
          resolve(match);
        };
        const timer = setTimeout(() => {
          listeners.delete(listener);
          reject(
            new Error(
              `No server log line matched ${String(pattern)} within ${timeoutMs} ms. Log:\n${tail(lines)}`,
            ),
          );
        }, timeoutMs);
        listeners.add(listener);
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const code = await waitForExit(child, STOP_TIMEOUT_MS);
      if (code === 'timeout') {
        child.kill('SIGKILL');
        await waitForExit(child, 5_000);
        await removeDataDir();
        throw new Error(
          `The server did not exit within ${STOP_TIMEOUT_MS} ms of SIGTERM. Log:\n${tail(lines)}`,
        );
      }
      await removeDataDir();
      return code;
    },
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await removeDataDir();
      throw new Error(
        `The server exited (${child.exitCode ?? child.signalCode}) before it was ready. Log:\n${tail(lines)}`,
      );
    }
    try {
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) return handle;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await waitForExit(child, 5_000);
      await removeDataDir();
      throw new Error(`The server was not ready within ${READY_TIMEOUT_MS} ms. Log:\n${tail(lines)}`);
    }
    await sleep(200);
  }
}

/** Runs one server for the worker and checks that it shuts down cleanly (exit code 0) afterwards. */
async function serveForWorker(env: Record<string, string>, use: (server: ServerHandle) => Promise<void>) {
  const server = await startServer({ env });
  let code: number | null = null;
  try {
    await use(server);
  } finally {
    code = await server.stop();
  }
  expect(code, `server exit code after SIGTERM; log:\n${tail(server.logs())}`).toBe(0);
}

interface WorkerFixtures {
  /** Extra server environment for this worker; set with `test.use({ serverEnv: { ... } })`. */
  serverEnv: Record<string, string>;
  server: ServerHandle;
  /** An SMTP receiver (started only when a test or fixture asks for it). */
  mailbox: Mailbox;
}

const SERVER_FIXTURE_TIMEOUT_MS = READY_TIMEOUT_MS + STOP_TIMEOUT_MS + 10_000;

/**
 * Playwright's `test` with a real server per worker; `baseURL` points at it, so `page.goto('/')` and
 * `request.get('/v1/...')` reach it.
 */
export const test = base.extend<object, WorkerFixtures>({
  serverEnv: [{}, { scope: 'worker', option: true }],
  mailbox: [
    // Playwright reads a fixture's dependencies from its first parameter, which must be a pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const mailbox = await startMailbox();
      await use(mailbox);
      await mailbox.close();
    },
    { scope: 'worker' },
  ],
  server: [
    async ({ serverEnv }, use) => serveForWorker(serverEnv, use),
    { scope: 'worker', timeout: SERVER_FIXTURE_TIMEOUT_MS },
  ],
  baseURL: async ({ server }, use) => use(server.url),
});

/** Like `test`, with the worker's server sending its mail to `mailbox` (SMTP_URL set). */
export const testWithMail = test.extend<object, Pick<WorkerFixtures, 'server'>>({
  server: [
    async ({ serverEnv, mailbox }, use) => serveForWorker({ SMTP_URL: mailbox.url, ...serverEnv }, use),
    { scope: 'worker', timeout: SERVER_FIXTURE_TIMEOUT_MS },
  ],
});
