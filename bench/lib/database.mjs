// Databases for the benchmarks: a throwaway PostgreSQL database beside DATABASE_URL or TEST_DATABASE_URL,
// dropped after, and the product's database opened on it or on PGlite in a temporary directory.
// Imports the server's TypeScript: run the scripts with `node --import tsx`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../apps/server/src/db/client.ts';

/** Creates a new database on the server of `baseUrl`; its URL and a `drop()` that removes it. */
export async function throwawayPostgres(baseUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL) {
  if (!baseUrl) throw new Error('set DATABASE_URL or TEST_DATABASE_URL for the postgres run');
  const name = `omnibot_bench_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: baseUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/**
 * The product's database, migrated, on `driver` ('pglite': a new temporary directory named after `prefix`;
 * 'postgres': a throwaway database); `cleanup()` removes it once the database is closed.
 */
export async function openBenchDatabase(driver, prefix) {
  if (driver === 'pglite') {
    const dir = await mkdtemp(path.join(tmpdir(), prefix));
    const database = await openDatabase({ kind: 'pglite', dataDir: dir });
    return { database, cleanup: () => rm(dir, { recursive: true, force: true }) };
  }
  if (driver !== 'postgres') throw new Error(`unknown driver ${driver}; use pglite or postgres`);
  const target = await throwawayPostgres();
  try {
    const database = await openDatabase({ kind: 'postgres', url: target.url });
    return { database, cleanup: target.drop };
  } catch (error) {
    await target.drop();
    throw error;
  }
}
