import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../paths';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** True when pgvector is installed in this database. */
  vectorEnabled: boolean;
  ping: () => Promise<void>;
  poolStats: () => PoolStats;
  /** Raw SQL for libraries that bring their own (pg-boss); several statements in one text only without values. */
  executeSql: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;
  /** Connection string of the PostgreSQL database; null on PGlite. */
  url: string | null;
  close: () => Promise<void>;
  readonly closed: boolean;
}

export type DatabaseTarget = { kind: 'pglite'; dataDir: string | null } | { kind: 'postgres'; url: string };

/** Opens PGlite (embedded, with pgvector) or PostgreSQL, then applies the committed migrations. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  const opened = target.kind === 'pglite' ? await openPglite(target.dataDir) : openPostgres(target.url);
  try {
    opened.vectorEnabled = await enableVector(opened.db);
    if (opened.driver === 'pglite')
      await migratePglite(opened.db as never, { migrationsFolder: MIGRATIONS_DIR });
    else await migratePg(opened.db as never, { migrationsFolder: MIGRATIONS_DIR });
  } catch (error) {
    await opened.close();
    throw error;
  }
  return opened;
}

async function openPglite(dataDir: string | null): Promise<Database> {
  if (dataDir) mkdirSync(path.resolve(dataDir), { recursive: true });
  const client = new PGlite({
    ...(dataDir ? { dataDir: path.resolve(dataDir) } : {}),
    extensions: { vector },
  });
  await client.waitReady;
  let closed = false;
  return {
    db: drizzlePglite({ client, schema }) as unknown as Db,
    driver: 'pglite',
    vectorEnabled: false,
    async ping() {
      if (closed || client.closed) throw new Error('database is closed');
      await client.query('select 1');
    },
    poolStats: () => ({ total: 1, idle: closed ? 0 : 1, waiting: 0 }),
    async executeSql(text, values) {
      if (values?.length) return client.query(text, values);
      return (await client.exec(text)).at(-1) ?? { rows: [] };
    },
    url: null,
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
    get closed() {
      return closed;
    },
  };
}

function openPostgres(url: string): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  let closed = false;
  return {
    db: drizzlePg({ client: pool, schema }),
    driver: 'postgres',
    vectorEnabled: false,
    async ping() {
      if (closed) throw new Error('database is closed');
      await pool.query('select 1');
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    executeSql: (text, values) => pool.query(text, values),
    url,
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
    get closed() {
      return closed;
    },
  };
}

async function enableVector(db: Db): Promise<boolean> {
  const available = await db.execute<{ name: string }>(
    sql`select name from pg_available_extensions where name = 'vector'`,
  );
  if (rowsOf(available).length === 0) return false;
  await db.execute(sql`create extension if not exists vector`);
  return true;
}

/** Both drivers answer `execute` with an object holding `rows`; the shared type cannot say so. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
