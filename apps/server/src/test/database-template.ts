import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding a migrated PGlite data directory that each test database starts from. */
    pgliteSnapshot: string | null;
    /** A migrated PostgreSQL database that each test database is created from. */
    postgresTemplate: string | null;
  }
}

/*
 * Migrates one database per run and lets every test file copy it, instead of each test app applying every
 * migration again (on PGlite that took seconds per app). Test databases still start empty of rows.
 */
export default async function setup(project: TestProject) {
  project.provide('pgliteSnapshot', null);
  project.provide('postgresTemplate', null);
  if (project.name === 'postgres') {
    const baseUrl = process.env.TEST_DATABASE_URL;
    if (!baseUrl) throw new Error('OMNIBOT_TEST_DB=postgres needs TEST_DATABASE_URL');
    const name = `omnibot_template_${randomBytes(5).toString('hex')}`;
    const admin = async (statement: string) => {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    };
    await admin(`create database ${name}`);
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ kind: 'postgres', url: url.toString() });
    await database.close();
    project.provide('postgresTemplate', name);
    return () => admin(`drop database if exists ${name} with (force)`);
  }
  if (project.name !== 'pglite') return undefined;
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  const dump = database.dump;
  if (!dump) throw new Error('PGlite cannot dump its data directory');
  const archive = Buffer.from(await (await dump()).arrayBuffer());
  await database.close();
  const folder = mkdtempSync(path.join(tmpdir(), 'omnibot-pglite-'));
  const file = path.join(folder, 'migrated.tar');
  writeFileSync(file, archive);
  project.provide('pgliteSnapshot', file);
  return () => rmSync(folder, { recursive: true, force: true });
}
