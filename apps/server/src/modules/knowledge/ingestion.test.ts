import fs from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type KnowledgeChunk,
  KnowledgeChunkListSchema,
  KnowledgeSourceSchema,
  type KnowledgeSource,
} from '@omnibot/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { bootstrap } from '../../bootstrap';
import { rowsOf } from '../../db/client';
import { knowledgeBases, knowledgeChunks, knowledgeQa, knowledgeSources } from '../../db/schema';
import { createGuardedFetch } from '../../lib/guarded-http/guarded-fetch';
import { tenantObjectKey } from '../../storage/path';
import { createTestApp, openTestDatabase, testEnv, type TestApp } from '../../test/app';
import { makeSignedInUser, makeTenant, platformTenantId } from '../accounts/accounts.fixtures';
import { injectUpload } from '../files/files.test-support';
import { fixture } from './ingest/fixtures/load';
import { INGEST_JOB, INGEST_MAX_ATTEMPTS, INGEST_RETRY_LIMIT, runIngestion } from './ingestion';
import { searchKeyword } from './retrieval/retrieval';

const TENANT = 'ingest-a';
let t: TestApp;
let dataDir: string;
let cookie: string;
let kbId: string;
let server: Server;
let baseUrl: string;
const page = (title: string, text: string, links: string[] = []) => ({
  type: 'text/html; charset=utf-8',
  body:
    `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p>` +
    links.map((href) => `<a href="${href}">${href}</a>`).join('') +
    '</main></body></html>',
});
/** A small site for crawling: robots.txt shuts /site/private, /site/a links one level deeper. */
const SITE: Record<string, { type: string; body: string }> = {
  '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /site/private\n' },
  '/site/': page('Root page', 'The rootword page welcomes visitors.', [
    '/site/a',
    'b',
    '/site/private/x',
    '/site/skip/y',
    'http://example.com/elsewhere',
  ]),
  '/site/a': page('Page A', 'The alphaword page describes the warehouse.', ['/site/a/deep']),
  '/site/b': page('Page B', 'The bravoword page describes the office.'),
  '/site/a/deep': page('Deep page', 'The deepword page is two links away.'),
  '/site/private/x': page('Private', 'The privateword page is shut by robots.txt.'),
  '/site/skip/y': page('Skipped', 'The skipword page is excluded.'),
  '/sitemap.xml': {
    type: 'application/xml',
    body: '<?xml version="1.0"?><urlset><url><loc>BASE/site/a</loc></url><url><loc>BASE/site/b</loc></url><url><loc>http://example.com/x</loc></url></urlset>',
  },
};
/** Milliseconds the /slow page waits before answering. */
const SLOW_MS = 3_000;

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

async function addSource(body: object, kb = kbId): Promise<KnowledgeSource> {
  const response = await call('POST', `/v1/knowledge/${kb}/sources`, body);
  expect(response.statusCode, response.body).toBe(201);
  return KnowledgeSourceSchema.parse(response.json());
}

/** Polls the source until it is ready or failed. */
async function settled(id: string, kb = kbId): Promise<KnowledgeSource> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const response = await call('GET', `/v1/knowledge/${kb}/sources/${id}`);
    expect(response.statusCode, response.body).toBe(200);
    const source = KnowledgeSourceSchema.parse(response.json());
    if (source.state === 'ready' || source.state === 'failed') return source;
    if (Date.now() > deadline) throw new Error(`source ${id} still ${source.state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function chunksOf(id: string, kb = kbId): Promise<KnowledgeChunk[]> {
  const response = await call('GET', `/v1/knowledge/${kb}/sources/${id}/chunks?page_size=200`);
  expect(response.statusCode, response.body).toBe(200);
  return KnowledgeChunkListSchema.parse(response.json()).items;
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const site = SITE[request.url ?? ''];
    if (site) {
      response.setHeader('content-type', site.type);
      response.end(site.body);
      return;
    }
    if (request.url === '/slow') {
      setTimeout(() => response.end('<html><body><p>Finally here.</p></body></html>'), SLOW_MS);
      return;
    }
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(
      '<html><head><title>Opening hours</title></head><body><main><h1>Opening hours</h1>' +
        '<p>The bakery on Quayside opens at seven and sells sourdough until noon.</p></main></body></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  const sitemap = SITE['/sitemap.xml'];
  if (sitemap) sitemap.body = sitemap.body.replaceAll('BASE', baseUrl);
  dataDir = await fs.mkdtemp(path.join(tmpdir(), 'omnibot-ingest-'));
  t = await createTestApp({
    env: { DATA_DIR: dataDir, FETCH_ALLOW_ADDRESSES: `127.0.0.1:${port}` },
    jobs: { pollingIntervalSeconds: 0.5 },
  });
  await makeTenant(t, {
    tenantId: TENANT,
    parent: await platformTenantId(t),
    type: '3',
    domain: 'ingest.test',
  });
  cookie = (await makeSignedInUser(t, TENANT, 'ann@ingest.test', 'user')).cookie;
  const created = await call('POST', '/v1/knowledge', { name: 'Harbour', language: 'en' });
  expect(created.statusCode, created.body).toBe(201);
  kbId = created.json<{ id: string }>().id;
}, 120_000);

afterAll(async () => {
  await t.close();
  await new Promise((resolve) => server.close(resolve));
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('knowledge ingestion', () => {
  it('indexes a text source: ready with chunks, searchable, and a resync of unchanged text adds nothing', async () => {
    const source = await addSource({
      type: 'text',
      title: 'Ferry notes',
      text: 'The ferry to the island leaves every hour.\n\nTickets are sold at the kiosk beside the pier.',
    });
    expect(source.state).toBe('queued');
    const jobs = rowsOf<{ retry_limit: number; retry_backoff: boolean; expire_in: string }>(
      await t.database.db.execute(
        sql`select retry_limit, retry_backoff, expire_in::text from pgboss.job where name = ${INGEST_JOB} and data->>'sourceId' = ${source.id}`,
      ),
    );
    expect(jobs).toEqual([{ retry_limit: INGEST_RETRY_LIMIT, retry_backoff: true, expire_in: '00:06:00' }]);
    const ready = await settled(source.id);
    expect(ready.state).toBe('ready');
    expect(ready.chunk_count).toBeGreaterThan(0);
    expect(ready.content_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(ready.last_synced_at).not.toBeNull();
    const chunks = await chunksOf(source.id);
    expect(chunks.length).toBe(ready.chunk_count);
    expect(chunks.map((c) => c.text).join(' ')).toContain('kiosk beside the pier');

    const hits = await searchKeyword(t.database.db, {
      tenantId: TENANT,
      knowledgeBaseIds: [kbId],
      query: 'where are tickets sold?',
      topK: 3,
    });
    expect(hits[0]?.sourceId).toBe(source.id);

    const resync = await call('POST', `/v1/knowledge/${kbId}/sources/${source.id}/resync`);
    expect(resync.statusCode, resync.body).toBe(200);
    expect(KnowledgeSourceSchema.parse(resync.json()).state).toBe('queued');
    const again = await settled(source.id);
    expect(again.state).toBe('ready');
    expect(again.content_hash).toBe(ready.content_hash);
    expect((await chunksOf(source.id)).map((c) => c.id)).toEqual(chunks.map((c) => c.id));
    expect(Date.parse(again.last_synced_at ?? '')).toBeGreaterThan(Date.parse(ready.last_synced_at ?? ''));
  });

  it('queues the sources of a bulk request in one statement, each with the job options of one source, and reads them all', async () => {
    const notes = Array.from({ length: 40 }, (_, index) => ({
      type: 'text',
      title: `Berth ${index}`,
      text: `Berth ${index} holds the boat called berthname${index}.`,
    }));
    const response = await call('POST', `/v1/knowledge/${kbId}/sources/bulk`, { sources: notes });
    expect(response.statusCode, response.body).toBe(201);
    const items = response.json<{ items: KnowledgeSource[] }>().items;
    expect(items.map((item) => item.title)).toEqual(notes.map((note) => note.title));
    const jobs = rowsOf<{ source: string; created: string; retry_limit: number; expire_in: string }>(
      await t.database.db.execute(
        sql`select data->>'sourceId' as source, created_on::text as created, retry_limit, expire_in::text
          from pgboss.job where name = ${INGEST_JOB}
          and data->>'sourceId' in (select jsonb_array_elements_text(${JSON.stringify(items.map((i) => i.id))}::jsonb))`,
      ),
    );
    expect(jobs.map((job) => job.source).sort()).toEqual(items.map((item) => item.id).sort());
    // One statement shares one transaction time; one statement per job would give each its own.
    expect(new Set(jobs.map((job) => job.created)).size).toBe(1);
    expect(new Set(jobs.map((job) => `${job.retry_limit} ${job.expire_in}`))).toEqual(
      new Set([`${INGEST_RETRY_LIMIT} 00:06:00`]),
    );
    for (const item of items) expect((await settled(item.id)).state).toBe('ready');
    const hits = await searchKeyword(t.database.db, {
      tenantId: TENANT,
      knowledgeBaseIds: [kbId],
      query: 'berthname17',
      topK: 1,
    });
    expect(hits[0]?.sourceId).toBe(items[17]?.id);
  });

  it("searches a source's title with its text: a Contact us page is found for 'contact'", async () => {
    const source = await addSource({
      type: 'text',
      title: 'Contact us',
      text: 'Ring the harbour office on 0800 700 700, or write to office@harbour.test.',
    });
    expect((await settled(source.id)).state).toBe('ready');
    const hits = await searchKeyword(t.database.db, {
      tenantId: TENANT,
      knowledgeBaseIds: [kbId],
      query: 'contact',
      topK: 3,
    });
    expect(hits.map((hit) => hit.sourceId)).toEqual([source.id]);
  });

  it('indexes a Q&A pair', async () => {
    const source = await addSource({
      type: 'qa',
      question: 'Do you sell gift cards?',
      answer: 'Yes, at the till.',
    });
    const ready = await settled(source.id);
    expect(ready.state).toBe('ready');
    expect(ready.chunk_count).toBe(1);
    const pairs = await t.database.db.select().from(knowledgeQa).where(eq(knowledgeQa.sourceId, source.id));
    expect(pairs.map((p) => [p.question, p.answer])).toEqual([
      ['Do you sell gift cards?', 'Yes, at the till.'],
    ]);
  });

  it('indexes an uploaded PDF with page numbers, and deleting the source removes its chunks', async () => {
    // Chunks of at most 50 words put each page of the fixture in its own chunk.
    const small = await call('POST', '/v1/knowledge', {
      name: 'Small chunks',
      language: 'en',
      chunking: { target_words: 50, overlap: 0 },
    });
    expect(small.statusCode, small.body).toBe(201);
    const kb = small.json<{ id: string }>().id;
    const stored = await injectUpload(t, cookie, 'harbour.pdf', fixture('three-pages.pdf'));
    const source = await addSource({ type: 'file', path: stored }, kb);
    const ready = await settled(source.id, kb);
    expect(ready.state, JSON.stringify(ready.error)).toBe('ready');
    expect(ready.title).toBe('harbour.pdf');
    const chunks = await chunksOf(source.id, kb);
    // A chunk carries the page of its first text; a short last page may be folded into the chunk before it.
    const pageOf = (words: string) => chunks.find((c) => c.text.includes(words))?.page;
    expect(pageOf('the harbour opens at dawn')).toBe(1);
    expect(pageOf('the ferry leaves at noon')).toBe(2);
    expect(chunks.every((c) => c.page !== null && c.page >= 1 && c.page <= 3)).toBe(true);

    const removed = await call('DELETE', `/v1/knowledge/${kb}/sources/${source.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    const left = await t.database.db
      .select()
      .from(knowledgeChunks)
      .where(eq(knowledgeChunks.sourceId, source.id));
    expect(left).toEqual([]);
    expect((await call('GET', `/v1/knowledge/${kb}/sources/${source.id}`)).statusCode).toBe(404);
  });

  it('fails corrupt and password-protected PDFs with their reason', async () => {
    for (const [name, code] of [
      ['corrupt.pdf', 'parse/corrupt'],
      ['encrypted.pdf', 'parse/encrypted'],
    ] as const) {
      const stored = await injectUpload(t, cookie, name, fixture(name));
      const failed = await settled((await addSource({ type: 'file', path: stored })).id);
      expect(failed.state).toBe('failed');
      expect(failed.error?.code).toBe(code);
      expect(failed.error?.reason.length).toBeGreaterThan(10);
      expect(failed.chunk_count).toBe(0);
    }
  });

  it('indexes a web page served on 127.0.0.1 when the configuration allows that address', async () => {
    const source = await addSource({ type: 'url', url: `${baseUrl}/hours` });
    const ready = await settled(source.id);
    expect(ready.state, JSON.stringify(ready.error)).toBe('ready');
    expect(ready.title).toBe('Opening hours');
    expect((await chunksOf(source.id)).map((c) => c.text).join(' ')).toContain('sells sourdough until noon');
  });

  it('leaves an unexpected failure to a retry, and on the last attempt keeps the indexed content with the failure as the sync result', async () => {
    const stored = await injectUpload(
      t,
      cookie,
      'notes.txt',
      Buffer.from('The harbour master works on Sundays.'),
    );
    const source = await addSource({ type: 'file', path: stored });
    expect((await settled(source.id)).state).toBe('ready');
    // The stored bytes vanish while the file row stays: not a document or address problem, so worth a retry.
    await t.app.files.storage.driver.delete(tenantObjectKey(TENANT, stored));
    const deps = {
      db: t.database.db,
      env: t.env,
      storage: t.app.files.storage,
      fetch: createGuardedFetch(),
      log: t.app.log,
    };
    const job = { tenantId: TENANT, sourceId: source.id };
    const rowOf = async () =>
      (await t.database.db.select().from(knowledgeSources).where(eq(knowledgeSources.id, source.id)))[0];
    await t.database.db
      .update(knowledgeSources)
      .set({ state: 'queued', attempts: 0 })
      .where(eq(knowledgeSources.id, source.id));
    await expect(runIngestion(deps, job)).rejects.toThrow();
    expect(await rowOf()).toMatchObject({ state: 'queued', attempts: 1, errorCode: null });

    await t.database.db
      .update(knowledgeSources)
      .set({ attempts: INGEST_MAX_ATTEMPTS - 1 })
      .where(eq(knowledgeSources.id, source.id));
    await runIngestion(deps, job);
    const last = await rowOf();
    // The source was indexed before: its chunks stay searchable and the failure is its last sync's result.
    expect(last).toMatchObject({ state: 'ready', errorCode: null, lastSyncOutcome: 'failed' });
    expect(last?.lastSyncMessage).toContain(`after ${INGEST_MAX_ATTEMPTS} attempts`);
    expect((await chunksOf(source.id)).map((c) => c.text).join(' ')).toContain('harbour master');

    // A source never indexed fails on its last attempt.
    await t.database.db
      .update(knowledgeSources)
      .set({ state: 'queued', attempts: INGEST_MAX_ATTEMPTS - 1, lastSyncedAt: null })
      .where(eq(knowledgeSources.id, source.id));
    await runIngestion(deps, job);
    const never = await rowOf();
    expect(never).toMatchObject({
      state: 'failed',
      attempts: INGEST_MAX_ATTEMPTS,
      errorCode: 'ingest/failed',
      lastSyncOutcome: 'failed',
    });
    expect(never?.errorReason).toContain(`after ${INGEST_MAX_ATTEMPTS} attempts`);
  });

  describe('crawling a site served on 127.0.0.1', () => {
    const WORDS = ['rootword', 'alphaword', 'bravoword', 'deepword', 'privateword', 'skipword'];
    async function wordsOf(body: object): Promise<{ words: string[]; pages: number }> {
      const ready = await settled((await addSource(body)).id);
      expect(ready.state, JSON.stringify(ready.error)).toBe('ready');
      const chunks = await chunksOf(ready.id);
      const text = chunks.map((c) => c.text).join(' ');
      return {
        words: WORDS.filter((word) => text.includes(word)),
        pages: new Set(chunks.map((c) => c.heading_path[0])).size,
      };
    }

    it('follows same-site links to the depth, minding robots.txt and exclude', async () => {
      const crawled = await wordsOf({
        type: 'url',
        url: `${baseUrl}/site/`,
        crawl: { depth: 1, exclude: ['/site/skip'] },
      });
      expect(crawled.words).toEqual(['rootword', 'alphaword', 'bravoword']);
    });

    it('reads deeper links within include, and stops at the page cap', async () => {
      const included = await wordsOf({
        type: 'url',
        url: `${baseUrl}/site/`,
        crawl: { depth: 2, include: ['/site/a'] },
      });
      expect(included.words).toEqual(['rootword', 'alphaword', 'deepword']);
      const capped = await wordsOf({
        type: 'url',
        url: `${baseUrl}/site/`,
        crawl: { depth: 3, max_pages: 2 },
      });
      expect(capped.pages).toBe(2);
      expect(capped.words).toEqual(['rootword', 'alphaword']);
    });

    it('reads the same-site pages a sitemap lists', async () => {
      const listed = await wordsOf({ type: 'sitemap', url: `${baseUrl}/sitemap.xml` });
      expect(listed.words).toEqual(['alphaword', 'bravoword']);
      expect(listed.pages).toBe(2);
    });
  });

  it('fails a source that takes longer than the time limit', async () => {
    const source = await addSource({ type: 'url', url: `${baseUrl}/slow` });
    await settled(source.id);
    await t.database.db
      .update(knowledgeSources)
      .set({ state: 'queued', url: `${baseUrl}/slow`, lastSyncedAt: null })
      .where(eq(knowledgeSources.id, source.id));
    const deps = {
      db: t.database.db,
      env: t.env,
      storage: t.app.files.storage,
      fetch: createGuardedFetch({ allowAddresses: t.env.FETCH_ALLOW_ADDRESSES }),
      log: t.app.log,
      timeLimitMs: 300,
    };
    await runIngestion(deps, { tenantId: TENANT, sourceId: source.id });
    const [row] = await t.database.db
      .select()
      .from(knowledgeSources)
      .where(eq(knowledgeSources.id, source.id));
    expect(row?.state).toBe('failed');
    expect(row?.errorCode).toBe('ingest/timeout');
    expect(row?.errorReason).toContain('took longer than');
    // The abandoned read finishes later without overwriting the failure.
    await new Promise((resolve) => setTimeout(resolve, SLOW_MS + 500));
    const [later] = await t.database.db
      .select()
      .from(knowledgeSources)
      .where(eq(knowledgeSources.id, source.id));
    expect(later?.state).toBe('failed');
  }, 30_000);
});

describe('knowledge ingestion after a restart, with the default fetch configuration', () => {
  it('queues again a source a crash left indexing, fails one out of attempts, and refuses 127.0.0.1', async () => {
    const { database, drop } = await openTestDatabase();
    const env = testEnv({ DATA_DIR: dataDir });
    try {
      const first = await buildApp({ env, database, consoleDir: null, jobs: false });
      await bootstrap({ db: database.db, env, auth: first.auth, logger: first.log });
      await first.ready();
      const tenantRow = { tenantId: 'restart-a', parent: null, type: '3' as const, domain: 'restart.test' };
      const fake = { app: first, database, env, logs: [], close: () => Promise.resolve() };
      await makeTenant(fake, { ...tenantRow, parent: await platformTenantId(fake) });
      const [kb] = await database.db
        .insert(knowledgeBases)
        .values({ tenantId: 'restart-a', name: 'Restart', language: 'en', tsConfig: 'english' })
        .returning();
      const base = { tenantId: 'restart-a', knowledgeBaseId: kb?.id ?? '' };
      const inserted = await database.db
        .insert(knowledgeSources)
        .values([
          {
            ...base,
            type: 'text',
            title: 'Stuck',
            content: 'The crane lifts containers at night.',
            state: 'indexing',
            attempts: 1,
          },
          {
            ...base,
            type: 'text',
            title: 'Worn out',
            content: 'Nothing.',
            state: 'parsing',
            attempts: INGEST_MAX_ATTEMPTS,
          },
          { ...base, type: 'url', url: `${baseUrl}/hours`, state: 'fetching', attempts: 0 },
        ])
        .returning();
      await first.close();
      const [stuck, wornOut, blocked] = inserted.map((row) => row.id);

      const second = await buildApp({
        env,
        database,
        consoleDir: null,
        jobs: { pollingIntervalSeconds: 0.5 },
      });
      try {
        await second.ready();
        const stateOf = async (id: string | undefined) => {
          const deadline = Date.now() + 60_000;
          for (;;) {
            const [row] = await database.db
              .select()
              .from(knowledgeSources)
              .where(and(eq(knowledgeSources.tenantId, 'restart-a'), eq(knowledgeSources.id, id ?? '')));
            if (row && (row.state === 'ready' || row.state === 'failed')) return row;
            if (Date.now() > deadline) throw new Error(`source ${id} still ${row?.state}`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        };
        const recovered = await stateOf(stuck);
        expect(recovered.state).toBe('ready');
        expect(recovered.chunkCount).toBeGreaterThan(0);
        const exhausted = await stateOf(wornOut);
        expect(exhausted.state).toBe('failed');
        expect(exhausted.errorCode).toBe('ingest/interrupted');
        const refused = await stateOf(blocked);
        expect(refused.state).toBe('failed');
        expect(refused.errorCode).toBe('fetch/blocked-address');
        expect(refused.errorReason).toBeTruthy();
      } finally {
        await second.close();
      }
    } finally {
      await drop();
    }
  }, 120_000);
});
