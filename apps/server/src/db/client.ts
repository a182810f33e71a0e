import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
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
  /** PGlite only: the data directory as a tar archive, to open copies of this database from. */
  dump?: () => Promise<Blob>;
  /**
   * LISTENs on `channel` (a plain lower-case name): `onNotify` gets each payload, `onLost` is called once when the
   * listening connection fails or ends (never after the returned unlisten). Rejects when it cannot listen.
   */
  listen: (
    channel: string,
    onNotify: (payload: string) => void,
    onLost: () => void,
  ) => Promise<() => Promise<void>>;
  close: () => Promise<void>;
  readonly closed: boolean;
}

/** A PGlite `snapshot` is a data directory PGlite dumped (`dumpDataDir`), for an in-memory database to start from. */
export type DatabaseTarget =
  { kind: 'pglite'; dataDir: string | null; snapshot?: Blob } | { kind: 'postgres'; url: string };

/** Opens PGlite (embedded, with pgvector) or PostgreSQL, then applies the committed migrations. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  const opened =
    target.kind === 'pglite' ? await openPglite(target.dataDir, target.snapshot) : openPostgres(target.url);
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

async function openPglite(dataDir: string | null, snapshot?: Blob): Promise<Database> {
  if (dataDir) mkdirSync(path.resolve(dataDir), { recursive: true });
  const client = new PGlite({
    ...(dataDir ? { dataDir: path.resolve(dataDir) } : {}),
    ...(snapshot ? { loadDataDir: snapshot } : {}),
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
    dump: () => client.dumpDataDir('none'),
    async listen(channel, onNotify) {
      // PGlite runs in this process: its listener cannot be lost while it is open.
      const unlisten = await client.listen(listenChannel(channel), onNotify);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
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
    listen: (channel, onNotify, onLost) => listenPostgres(url, listenChannel(channel), onNotify, onLost),
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

function listenChannel(channel: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid channel name: ${channel}`);
  return channel;
}

/** A dedicated connection (outside the pool, which hands connections out per query) holding one LISTEN. */
async function listenPostgres(
  url: string,
  channel: string,
  onNotify: (payload: string) => void,
  onLost: () => void,
): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  let done = false;
  const lose = () => {
    if (done) return;
    done = true;
    client.end().catch(() => undefined);
    onLost();
  };
  // A connection error before LISTEN succeeded rejects below instead.
  client.on('error', () => undefined);
  // Heard from before LISTEN is answered: a notification read in the same packet as that answer is emitted before
  // the code after `await` runs, and would be lost to a handler added only then.
  client.on('notification', (message) => {
    if (!done && message.channel === channel) onNotify(message.payload ?? '');
  });
  try {
    await client.connect();
    await client.query(`listen ${channel}`);
  } catch (error) {
    done = true;
    await client.end().catch(() => undefined);
    throw error;
  }
  client.on('error', lose);
  client.on('end', lose);
  return async () => {
    if (done) return;
    done = true;
    await client.end().catch(() => undefined);
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

const preparedByDb = new WeakMap<Db, Map<string, unknown>>();

/**
 * A query built once per database and kept prepared under `name` (values given as `sql.placeholder`s at each
 * run): a hot query skips drizzle's query building, and on PostgreSQL each connection parses it once. Only the
 * query text is kept, never a result. `name` must be unique to the query.
 */
export function preparedQuery<T>(db: Db, name: string, build: (db: Db, name: string) => T): T {
  let queries = preparedByDb.get(db);
  if (!queries) {
    queries = new Map();
    preparedByDb.set(db, queries);
  }
  if (!queries.has(name)) queries.set(name, build(db, name));
  return queries.get(name) as T;
}

const dialect = new PgDialect();
const MAX_STATEMENT_NAMES = 200;
const statementNames = new Map<string, string>();

/**
 * Runs a raw statement as a named prepared statement (named by `prefix` and its text's hash), so PostgreSQL
 * parses it once per connection instead of at every run; its values stay parameters. A statement whose text
 * varies more than a few ways should use `db.execute`: past MAX_STATEMENT_NAMES texts they run unnamed.
 */
export async function executePrepared<T>(db: Db, prefix: string, query: SQL): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  let name = statementNames.get(built.sql);
  if (name === undefined && statementNames.size < MAX_STATEMENT_NAMES) {
    name = `${prefix}_${createHash('sha1').update(built.sql).digest('hex').slice(0, 16)}`;
    statementNames.set(built.sql, name);
  }
  const result: unknown = await db._.session.prepareQuery(built, undefined, name, false).execute();
  return rowsOf<T>(result);
}
