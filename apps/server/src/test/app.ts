import { Writable } from 'node:stream';
import pg from 'pg';
import { buildApp, type App } from '../app';
import { openDatabase, type Database } from '../db/client';
import { seedPlatform } from '../db/seed';
import { loadEnv, type Env } from '../env';
import { shortId } from '../lib/ids';

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
  /** Skip `app.ready()` so a test can add its own routes first. */
  skipReady?: boolean;
}

/** A throwaway database: in-memory PGlite, or a fresh PostgreSQL database when the suite runs on PG. */
export async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (process.env.OMNIBOT_TEST_DB !== 'postgres') {
    const database = await openDatabase({ kind: 'pglite', dataDir: null });
    return { database, drop: () => database.close() };
  }
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('OMNIBOT_TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `omnibot_t_${shortId(10)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
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

export function testEnv(overrides: Record<string, string> = {}): Env {
  return loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: '3000', ...overrides });
}

/** Builds the real app on a throwaway database, seeded like a first start. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const env = testEnv(options.env);
  const { database, drop } = await openTestDatabase();
  const logs: Array<Record<string, unknown>> = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  const app = await buildApp({ env, database, consoleDir: options.consoleDir ?? null, logStream });
  await seedPlatform(database.db, 'Platform');
  if (!options.skipReady) await app.ready();
  return {
    app,
    database,
    env,
    logs,
    async close() {
      await app.close();
      await drop();
    },
  };
}
