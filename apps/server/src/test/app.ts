import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type App, type AppDeps } from '../app';
import { openDatabase, rowsOf, type Database } from '../db/client';
import { bootstrap } from '../bootstrap';
import { loadEnv, type Env } from '../env';
import { shortId } from '../lib/ids';

export const TEST_ADMIN_PASSWORD = 'Master-Test-Passw0rd-2026';
export const TEST_ORIGIN = 'http://localhost:3000';

export interface TestApp {
  app: App;
  database: Database;
  env: Env;
  /** Log lines the app wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  consoleDir?: string | null;
  /** Folder of a built widget; none by default. */
  widgetDir?: string | null;
  /** Skip `app.ready()` so a test can add its own routes first. */
  skipReady?: boolean;
  /** Start the background job runner (slow: only for tests of jobs). */
  jobs?: AppDeps['jobs'];
  /** The contact-centre providers of the live-agent relay, and its lease timings. */
  liveAgentProviders?: AppDeps['liveAgentProviders'];
  liveRelay?: AppDeps['liveRelay'];
}

let pgliteSnapshot: Blob | undefined;

/**
 * A throwaway database: in-memory PGlite, or a fresh PostgreSQL database when the suite runs on PG. Both start
 * as a copy of the database the global set-up migrated (test/database-template.ts), when there is one.
 */
export async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (process.env.OMNIBOT_TEST_DB !== 'postgres') {
    const snapshotFile = inject('pgliteSnapshot');
    if (snapshotFile && !pgliteSnapshot) pgliteSnapshot = new Blob([readFileSync(snapshotFile)]);
    const database = await openDatabase({ kind: 'pglite', dataDir: null, snapshot: pgliteSnapshot });
    return { database, drop: () => database.close() };
  }
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('OMNIBOT_TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `omnibot_t_${shortId(10)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  const template = inject('postgresTemplate');
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.toString() });
  return {
    database,
    async drop() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: baseUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** A log stream whose lines land, parsed, in `logs`. */
export function captureLogs() {
  const logs: Array<Record<string, unknown>> = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { logs, logStream };
}

export function testEnv(overrides: Record<string, string> = {}): Env {
  return loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    PORT: '3000',
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    ALLOWED_EMAIL_DOMAINS: 'example.com',
    ...overrides,
  });
}

/** Builds the real app on a throwaway database, seeded like a first start. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const env = testEnv(options.env);
  const { database, drop } = await openTestDatabase();
  const { logs, logStream } = captureLogs();
  const app = await buildApp({
    env,
    database,
    consoleDir: options.consoleDir ?? null,
    widgetDir: options.widgetDir ?? null,
    logStream,
    jobs: options.jobs ?? false,
    ...(options.liveAgentProviders ? { liveAgentProviders: options.liveAgentProviders } : {}),
    ...(options.liveRelay === undefined ? {} : { liveRelay: options.liveRelay }),
  });
  await bootstrap({ db: database.db, env, auth: app.auth, logger: app.log });
  if (!options.skipReady) await app.ready();
  return {
    app,
    database,
    env,
    logs,
    async close() {
      // A test that listened may leave a client's spare connection open without a request; Node would keep it
      // until its headers timeout (over a minute), and nothing is in flight once a test file ends.
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      await drop();
    },
  };
}

export interface Mailed {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

/** Mails the app "sent" (without SMTP_URL each mail is logged with its links). */
export async function mailsTo(t: TestApp, to: string): Promise<Mailed[]> {
  await t.app.mailer.flush();
  return t.logs
    .map((line) => line.mail as Omit<Mailed, 'links'> | undefined)
    .filter((mail): mail is Omit<Mailed, 'links'> => mail !== undefined && mail.to === to.toLowerCase())
    .map((mail) => ({ ...mail, links: mail.text.match(/https?:\/\/\S+/g) ?? [] }));
}

export async function lastLinkTo(t: TestApp, to: string): Promise<string> {
  const mails = await mailsTo(t, to);
  const link = mails.at(-1)?.links[0];
  if (!link) throw new Error(`no mail with a link to ${to}`);
  return link;
}

/** Path and query of an absolute link, for app.inject. */
export const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

export async function signIn(t: TestApp, email: string, password: string, remoteAddress = '127.0.0.1') {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: TEST_ORIGIN },
    remoteAddress,
    payload: { email, password },
  });
}

/** Signs in and returns the session cookie header value. */
export async function sessionCookie(t: TestApp, email: string, password: string): Promise<string> {
  const response = await signIn(t, email, password);
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const cookies = response.headers['set-cookie'];
  const list = Array.isArray(cookies) ? cookies : [cookies ?? ''];
  return list.map((cookie) => cookie.split(';')[0]).join('; ');
}

export async function register(t: TestApp, email: string, password: string, name = 'Test Person') {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: { origin: TEST_ORIGIN },
    payload: { email, password, name, callbackURL: '/login?verified=1' },
  });
}

/** Registers and verifies a user through the real mail link; returns the password. */
export async function registerVerified(t: TestApp, email: string, name = 'Test Person'): Promise<string> {
  const password = STRONG_PASSWORD;
  const response = await register(t, email, password, name);
  if (response.statusCode !== 200) throw new Error(`register failed: ${response.body}`);
  const verify = await t.app.inject({ url: pathOf(await lastLinkTo(t, email)) });
  if (verify.statusCode !== 302) throw new Error(`verify failed: ${verify.statusCode}`);
  return password;
}

export const STRONG_PASSWORD = 'Velvet-Canyon-Harbor-42';

/** A digest of the rows of these tables: equal digests mean nothing in them changed. */
export async function tablesFingerprint(t: TestApp, tables: readonly string[]): Promise<string> {
  // Answers are written after their replies; the ones already given count as written.
  await t.app.ragAnswers.flush();
  const parts = tables
    .map(
      (table) =>
        `select '${table}' as name, count(*)::text as n, coalesce(md5(string_agg(x::text, '|' order by x::text)), '') as digest from ${table} x`,
    )
    .join(' union all ');
  const rows = rowsOf<{ name: string; n: string; digest: string }>(
    await t.database.db.execute(sql.raw(parts)),
  );
  return rows.map((row) => `${row.name}:${row.n}:${row.digest}`).join(',');
}

/** Who makes a request: a session cookie, an Authorization header (an API credential), both or neither. */
export interface Caller {
  cookie?: string;
  authorization?: string;
}

/** `app.inject` as `caller`, with an optional JSON payload. */
export const injectAs = (
  t: TestApp,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  caller: Caller,
  payload?: unknown,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method,
    url,
    headers: {
      ...headers,
      ...(caller.cookie ? { cookie: caller.cookie } : {}),
      ...(caller.authorization ? { authorization: caller.authorization } : {}),
    },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
