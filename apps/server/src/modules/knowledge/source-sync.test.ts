import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { IndexSchema, KnowledgeSourceSchema, type KnowledgeSource } from '@omnibot/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../../db/client';
import { chunkEmbeddings, knowledgeChunks, knowledgeSources, models } from '../../db/schema';
import { type Caller, createTestApp, injectAs, tablesFingerprint, type TestApp } from '../../test/app';
import { TEST_FETCH_ALLOW } from '../../test/loopback-fetch';
import {
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
} from '../../test/openai-compatible-server';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { searchKeyword } from './retrieval/retrieval';
import { claimDueSources, runSourceSyncSweep } from './source-sync';

/**
 * A web site that speaks HTTP/1.1 conditional requests (RFC 9110 section 13): every page has an entity tag and a
 * Last-Modified date (or only one of them), a GET whose If-None-Match matches the tag, or (without a tag) whose
 * If-Modified-Since is not older than the date, is answered 304 Not Modified with no body. It counts the requests
 * and the 304s of each path, and a path can be made to fail with a status.
 */
interface SitePage {
  body: string;
  type?: string;
  /** Sent as ETag unless false. */
  etag?: boolean;
  /** Sent as Last-Modified unless false. */
  lastModified?: boolean;
  modified: Date;
  failWith?: number;
}
const site = new Map<string, SitePage>();
const hits = new Map<string, { requests: number; notModified: number; conditional: number }>();
let siteServer: Server;
let siteUrl: string;

const tagOf = (page: SitePage) => `"${createHash('sha256').update(page.body).digest('hex').slice(0, 16)}"`;

function notModified(request: IncomingMessage, page: SitePage): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    return (
      page.etag !== false &&
      ifNoneMatch
        .split(',')
        .map((tag) => tag.trim())
        .includes(tagOf(page))
    );
  }
  const since = request.headers['if-modified-since'];
  if (since === undefined || page.lastModified === false) return false;
  // HTTP dates have whole seconds.
  return Math.floor(page.modified.getTime() / 1000) * 1000 <= Date.parse(since);
}

function serveSite(request: IncomingMessage, response: ServerResponse) {
  const path = request.url ?? '';
  const count = hits.get(path) ?? { requests: 0, notModified: 0, conditional: 0 };
  hits.set(path, count);
  count.requests += 1;
  if (request.headers['if-none-match'] || request.headers['if-modified-since']) count.conditional += 1;
  const page = site.get(path);
  if (!page) {
    response.writeHead(404).end('not found');
    return;
  }
  if (page.failWith) {
    response.writeHead(page.failWith).end('failing');
    return;
  }
  const headers: Record<string, string> = { 'content-type': page.type ?? 'text/html; charset=utf-8' };
  if (page.etag !== false) headers.etag = tagOf(page);
  if (page.lastModified !== false) headers['last-modified'] = page.modified.toUTCString();
  if (request.method === 'GET' && notModified(request, page)) {
    count.notModified += 1;
    response.writeHead(304, headers).end();
    return;
  }
  response.writeHead(200, headers).end(page.body);
}

const html = (title: string, text: string) =>
  `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p></main></body></html>`;

function putPage(path: string, title: string, text: string, extra: Partial<SitePage> = {}) {
  site.set(path, { body: html(title, text), modified: new Date(Date.now() - 60_000), ...extra });
}

function putSitemap(path: string, pages: string[]) {
  site.set(path, {
    type: 'application/xml',
    body: `<?xml version="1.0"?><urlset>${pages.map((p) => `<url><loc>${siteUrl}${p}</loc></url>`).join('')}</urlset>`,
    modified: new Date(Date.now() - 60_000),
  });
}

const countOf = (path: string) => hits.get(path) ?? { requests: 0, notModified: 0, conditional: 0 };

let t: TestApp;
let modelServer: OpenAICompatibleServer;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'sync-a', b: 'sync-b', noRag: 'sync-norag' };
let kb = '';
let indexId = '';

const call = (method: 'GET' | 'POST' | 'PUT', url: string, caller: Caller = who.alice, payload?: unknown) =>
  injectAs(t, method, url, caller, payload);

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function readSource(id: string): Promise<KnowledgeSource> {
  const response = await call('GET', `/v1/knowledge/${kb}/sources/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return KnowledgeSourceSchema.parse(response.json());
}

const settled = (id: string) =>
  until(
    `source ${id}`,
    () => readSource(id),
    (s) => s.state === 'ready' || s.state === 'failed',
  );

async function addSource(body: object): Promise<KnowledgeSource> {
  const response = await call('POST', `/v1/knowledge/${kb}/sources`, who.alice, body);
  expect(response.statusCode, response.body).toBe(201);
  return settled(KnowledgeSourceSchema.parse(response.json()).id);
}

/** Sync now, as the console's button does, and wait for it to finish. */
async function syncNow(id: string): Promise<KnowledgeSource> {
  const before = await readSource(id);
  const response = await call('POST', `/v1/knowledge/${kb}/sources/${id}/resync`);
  expect(response.statusCode, response.body).toBe(200);
  return until(
    `sync of ${id}`,
    () => readSource(id),
    (s) =>
      (s.state === 'ready' || s.state === 'failed') &&
      s.last_sync_result !== null &&
      s.last_sync_result.at !== before.last_sync_result?.at,
  );
}

async function chunksBySource(id: string) {
  return t.database.db
    .select({ id: knowledgeChunks.id, pageUrl: knowledgeChunks.pageUrl, ordinal: knowledgeChunks.ordinal })
    .from(knowledgeChunks)
    .where(and(eq(knowledgeChunks.tenantId, ids.a), eq(knowledgeChunks.sourceId, id)))
    .orderBy(knowledgeChunks.ordinal);
}

/** The texts the embedding model was asked to embed so far. */
const embeddedTexts = () =>
  modelServer.requests
    .filter((request) => request.path === '/embeddings')
    .flatMap((request) => {
      const input = (request.body as { input: unknown }).input;
      return Array.isArray(input) ? input.map(String) : [String(input)];
    });

/** Waits until every chunk of the knowledge base has its embedding, and the index has settled. */
async function embeddingsSettled() {
  await until(
    'embeddings',
    async () => {
      const [chunks] = await t.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(knowledgeChunks)
        .where(eq(knowledgeChunks.tenantId, ids.a));
      const [embedded] = await t.database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(chunkEmbeddings)
        .where(eq(chunkEmbeddings.tenantId, ids.a));
      const index = IndexSchema.parse((await call('GET', `/v1/indexes/${indexId}`)).json());
      return { chunks: chunks?.n, embedded: embedded?.n, state: index.embedding.state };
    },
    (value) => value.chunks === value.embedded && value.state === 'ready',
  );
}

beforeAll(async () => {
  siteServer = createServer(serveSite);
  await new Promise<void>((resolve) => siteServer.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(siteServer.address() as AddressInfo).port}`;
  modelServer = await startOpenAICompatibleServer();
  t = await createTestApp({
    env: { FETCH_ALLOW_ADDRESSES: TEST_FETCH_ALLOW },
    jobs: { pollingIntervalSeconds: 0.5 },
  });
  Object.assign(who, await makeOmniragTenants(t, ids));
  const created = await call('POST', '/v1/knowledge', who.alice, { name: 'Harbour', language: 'en' });
  expect(created.statusCode, created.body).toBe(201);
  kb = created.json<{ id: string }>().id;
  const [model] = await t.database.db
    .insert(models)
    .values({
      tenantId: ids.a,
      name: 'Embedder',
      kind: 'embedding',
      baseUrl: modelServer.baseUrl,
      modelName: 'hash-embed',
      dimensions: 64,
    })
    .returning({ id: models.id });
  const index = await call('POST', '/v1/indexes', who.alice, {
    name: 'Harbour vectors',
    knowledge_ids: [kb],
    mode: 'vector',
    embedding_model_id: model?.id,
  });
  expect(index.statusCode, index.body).toBe(201);
  indexId = index.json<{ id: string }>().id;
}, 120_000);

afterAll(async () => {
  await t.close();
  await modelServer.close();
  await new Promise((resolve) => siteServer.close(resolve));
});

describe('re-syncing a web page', () => {
  it('asks with If-None-Match, takes a 304 as unchanged without re-embedding, and re-indexes a changed page', async () => {
    putPage('/ferry', 'Ferry times', 'The ferry to the island leaves every hour from pier four.');
    const source = await addSource({ type: 'url', url: `${siteUrl}/ferry` });
    expect(source.state).toBe('ready');
    expect(source.last_sync_result).toMatchObject({ outcome: 'changed' });
    expect(countOf('/ferry')).toMatchObject({ requests: 1, conditional: 0 });
    await embeddingsSettled();
    const chunks = await chunksBySource(source.id);
    const embedded = embeddedTexts().length;

    const unchanged = await syncNow(source.id);
    expect(countOf('/ferry')).toMatchObject({ requests: 2, conditional: 1, notModified: 1 });
    expect(unchanged.state).toBe('ready');
    expect(unchanged.last_sync_result?.outcome).toBe('unchanged');
    expect(unchanged.last_sync_result?.message).toContain('304');
    expect(unchanged.content_hash).toBe(source.content_hash);
    expect(await chunksBySource(source.id)).toEqual(chunks);
    await embeddingsSettled();
    expect(embeddedTexts().length).toBe(embedded);

    putPage('/ferry', 'Ferry times', 'The ferry to the island now leaves every half hour from pier seven.');
    const changed = await syncNow(source.id);
    expect(countOf('/ferry')).toMatchObject({ requests: 3, conditional: 2, notModified: 1 });
    expect(changed.last_sync_result?.outcome).toBe('changed');
    expect(changed.content_hash).not.toBe(source.content_hash);
    const after = await chunksBySource(source.id);
    expect(after.some((chunk) => chunks.some((old) => old.id === chunk.id))).toBe(false);
    await embeddingsSettled();
    const newTexts = embeddedTexts().slice(embedded);
    expect(newTexts.length).toBe(after.length);
    expect(newTexts.join(' ')).toContain('half hour');
  });

  it('asks with If-Modified-Since when the site sends no ETag, and takes an equal hash as unchanged when it ignores validators', async () => {
    putPage('/hours', 'Opening hours', 'The harbour office opens at eight.', { etag: false });
    const dated = await addSource({ type: 'url', url: `${siteUrl}/hours` });
    const again = await syncNow(dated.id);
    expect(countOf('/hours')).toMatchObject({ requests: 2, conditional: 1, notModified: 1 });
    expect(again.last_sync_result?.outcome).toBe('unchanged');

    putPage('/plain', 'Prices', 'A day ticket costs twelve euros.', { etag: false, lastModified: false });
    const plain = await addSource({ type: 'url', url: `${siteUrl}/plain` });
    const chunks = await chunksBySource(plain.id);
    const resynced = await syncNow(plain.id);
    expect(countOf('/plain')).toMatchObject({ requests: 2, conditional: 0, notModified: 0 });
    expect(resynced.last_sync_result).toMatchObject({ outcome: 'unchanged' });
    expect(resynced.last_sync_result?.message).toContain('has not changed');
    expect(await chunksBySource(plain.id)).toEqual(chunks);
  });

  it('records a failed fetch, keeps the indexed content and tries again at the next sync', async () => {
    putPage('/tides', 'Tides', 'High tide at the harbour mouth is at noon.');
    const source = await addSource({ type: 'url', url: `${siteUrl}/tides` });
    const chunks = await chunksBySource(source.id);
    const page = site.get('/tides');
    if (page) page.failWith = 503;
    const failed = await syncNow(source.id);
    expect(failed.state).toBe('ready');
    expect(failed.error).toBeNull();
    expect(failed.last_sync_result?.outcome).toBe('failed');
    expect(failed.last_sync_result?.message).toContain('HTTP status 503');
    expect(failed.last_sync_result?.message).toContain('kept');
    expect(failed.last_synced_at).toBe(source.last_synced_at);
    expect(await chunksBySource(source.id)).toEqual(chunks);
    const found = await searchKeyword(t.database.db, {
      tenantId: ids.a,
      knowledgeBaseIds: [kb],
      query: 'high tide harbour mouth',
      topK: 1,
    });
    expect(found[0]?.sourceId).toBe(source.id);

    if (page) delete page.failWith;
    const recovered = await syncNow(source.id);
    expect(recovered.last_sync_result?.outcome).toBe('unchanged');
    expect(await chunksBySource(source.id)).toEqual(chunks);
  });
});

describe('re-syncing a sitemap', () => {
  it('checks each page: unchanged pages keep their chunks and embeddings, a changed and an added page are indexed, a vanished page is removed', async () => {
    putPage('/docs/a', 'Anchoring', 'Boats anchor in the outer basin alphaword.');
    putPage('/docs/b', 'Berths', 'Visitor berths are on the bravoword pontoon.');
    putPage('/docs/c', 'Cranes', 'The crane lifts boats on charlieword Mondays.');
    putSitemap('/docs/sitemap.xml', ['/docs/a', '/docs/b', '/docs/c']);
    const source = await addSource({ type: 'sitemap', url: `${siteUrl}/docs/sitemap.xml` });
    expect(source.state, JSON.stringify(source.error)).toBe('ready');
    expect(source.last_sync_result?.message).toBe('3 pages checked: 3 added.');
    await embeddingsSettled();
    const first = await chunksBySource(source.id);
    const pageOf = (url: string) => first.filter((chunk) => chunk.pageUrl === `${siteUrl}${url}`);
    expect(pageOf('/docs/a').length).toBeGreaterThan(0);
    const embedded = embeddedTexts().length;

    const unchanged = await syncNow(source.id);
    expect(unchanged.last_sync_result).toMatchObject({
      outcome: 'unchanged',
      message: '3 pages checked: none changed.',
    });
    expect(countOf('/docs/sitemap.xml').notModified).toBe(1);
    for (const path of ['/docs/a', '/docs/b', '/docs/c']) expect(countOf(path).notModified).toBe(1);
    expect(await chunksBySource(source.id)).toEqual(first);

    putPage('/docs/b', 'Berths', 'Visitor berths moved to the bravonew pontoon by the fuel dock.');
    putPage('/docs/d', 'Diesel', 'The fuel dock sells diesel deltaword until six.');
    putSitemap('/docs/sitemap.xml', ['/docs/d', '/docs/a', '/docs/b']);
    const changed = await syncNow(source.id);
    expect(changed.last_sync_result).toMatchObject({
      outcome: 'changed',
      message: '3 pages checked: 1 changed, 1 added, 1 removed.',
    });
    expect(countOf('/docs/a').notModified).toBe(2);
    const after = await chunksBySource(source.id);
    // Page a was not re-chunked: the same rows, now numbered after page d.
    expect(after.filter((chunk) => chunk.pageUrl === `${siteUrl}/docs/a`).map((c) => c.id)).toEqual(
      pageOf('/docs/a').map((c) => c.id),
    );
    expect(after.some((chunk) => pageOf('/docs/b').some((old) => old.id === chunk.id))).toBe(false);
    expect(after.some((chunk) => chunk.pageUrl === `${siteUrl}/docs/c`)).toBe(false);
    expect(after.map((chunk) => chunk.pageUrl)).toEqual([
      ...after.filter((c) => c.pageUrl === `${siteUrl}/docs/d`).map((c) => c.pageUrl),
      ...after.filter((c) => c.pageUrl === `${siteUrl}/docs/a`).map((c) => c.pageUrl),
      ...after.filter((c) => c.pageUrl === `${siteUrl}/docs/b`).map((c) => c.pageUrl),
    ]);
    expect(after.map((chunk) => chunk.ordinal)).toEqual(after.map((_, index) => index));
    expect(changed.chunk_count).toBe(after.length);

    await embeddingsSettled();
    const newTexts = embeddedTexts().slice(embedded);
    // Only the changed page b and the added page d were embedded.
    expect(newTexts.length).toBe(after.filter((c) => c.pageUrl !== `${siteUrl}/docs/a`).length);
    expect(newTexts.join(' ')).not.toContain('alphaword');
    const search = async (query: string) =>
      (await searchKeyword(t.database.db, { tenantId: ids.a, knowledgeBaseIds: [kb], query, topK: 3 }))
        .length;
    expect(await search('deltaword')).toBe(1);
    expect(await search('bravonew')).toBe(1);
    expect(await search('charlieword')).toBe(0);
    expect(await search('alphaword')).toBe(1);

    // A page that fails keeps its chunks; a sitemap that fails changes nothing.
    const pageA = site.get('/docs/a');
    if (pageA) pageA.failWith = 500;
    const partial = await syncNow(source.id);
    expect(partial.last_sync_result?.outcome).toBe('unchanged');
    expect(partial.last_sync_result?.message).toContain('1 page could not be read and was kept as before');
    expect(await chunksBySource(source.id)).toEqual(after);
    if (pageA) delete pageA.failWith;
    const map = site.get('/docs/sitemap.xml');
    if (map) map.failWith = 500;
    const failed = await syncNow(source.id);
    expect(failed.state).toBe('ready');
    expect(failed.last_sync_result?.outcome).toBe('failed');
    expect(await chunksBySource(source.id)).toEqual(after);
    if (map) delete map.failWith;
  });
});

describe('the re-sync schedule', () => {
  it('stores daily and weekly settings with their next run, and turns them off', async () => {
    putPage('/news', 'News', 'The regatta starts on Saturday.');
    const source = await addSource({ type: 'url', url: `${siteUrl}/news` });
    expect(source.sync).toEqual({ frequency: 'off' });
    expect(source.next_sync_at).toBeNull();

    const daily = await call('PUT', `/v1/knowledge/${kb}/sources/${source.id}/sync`, who.alice, {
      frequency: 'daily',
      time: '03:30',
      time_zone: 'europe/berlin',
    });
    expect(daily.statusCode, daily.body).toBe(200);
    const set = KnowledgeSourceSchema.parse(daily.json());
    expect(set.sync).toEqual({ frequency: 'daily', time: '03:30', time_zone: 'Europe/Berlin' });
    const next = Date.parse(set.next_sync_at ?? '');
    expect(next).toBeGreaterThan(Date.now());
    expect(next - Date.now()).toBeLessThanOrEqual(25 * 3_600_000);
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
    }).format(next);
    expect(local).toBe('03:30');

    const weekly = await call('PUT', `/v1/knowledge/${kb}/sources/${source.id}/sync`, who.alice, {
      frequency: 'weekly',
      weekday: 'wednesday',
      time: '22:15',
      time_zone: 'America/New_York',
    });
    expect(weekly.statusCode, weekly.body).toBe(200);
    const weeklyNext = new Date(KnowledgeSourceSchema.parse(weekly.json()).next_sync_at ?? '');
    expect(
      new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'long' }).format(weeklyNext),
    ).toBe('Wednesday');

    const off = await call('PUT', `/v1/knowledge/${kb}/sources/${source.id}/sync`, who.alice, {
      frequency: 'off',
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(KnowledgeSourceSchema.parse(off.json())).toMatchObject({
      sync: { frequency: 'off' },
      next_sync_at: null,
    });
  });

  it('refuses bad input with a 4xx that changes nothing', async () => {
    putPage('/rules', 'Rules', 'Speed in the harbour is limited to three knots.');
    const source = await addSource({ type: 'url', url: `${siteUrl}/rules` });
    const text = await call('POST', `/v1/knowledge/${kb}/sources`, who.alice, {
      type: 'text',
      title: 'Note',
      text: 'A note.',
    });
    const textId = text.json<{ id: string }>().id;
    await settled(textId);
    const before = await tablesFingerprint(t, ['knowledge_sources', 'audit_log']);
    const cases: Array<[string, unknown, number, string?]> = [
      [source.id, { frequency: 'daily', time: '03:30', time_zone: 'Mars/Olympus' }, 400],
      [source.id, { frequency: 'daily', time: '25:00', time_zone: 'UTC' }, 400],
      [source.id, { frequency: 'daily', time: '3:30', time_zone: 'UTC' }, 400],
      [source.id, { frequency: 'weekly', time: '03:30', time_zone: 'UTC' }, 400],
      [source.id, { frequency: 'weekly', weekday: 'someday', time: '03:30', time_zone: 'UTC' }, 400],
      [source.id, { frequency: 'hourly' }, 400],
      [source.id, { frequency: 'daily', time: '03:30', time_zone: 'UTC', extra: 1 }, 400],
      [source.id, 'daily', 415],
      [textId, { frequency: 'daily', time: '03:30', time_zone: 'UTC' }, 400, 'knowledge/sync-not-supported'],
      ['not-a-uuid', { frequency: 'off' }, 400],
      ['9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', { frequency: 'off' }, 404],
    ];
    for (const [id, body, status, code] of cases) {
      const response = await call('PUT', `/v1/knowledge/${kb}/sources/${id}/sync`, who.alice, body);
      expect(response.statusCode, `${JSON.stringify(body)}: ${response.body}`).toBe(status);
      const error = response.json<{ code: string; message: string }>();
      expect(error.message).toBeTruthy();
      if (code) expect(error.code).toBe(code);
    }
    // Another organisation's source is unknown, and nobody without Omni RAG gets in.
    const foreign = await call('PUT', `/v1/knowledge/${kb}/sources/${source.id}/sync`, who.bob, {
      frequency: 'daily',
      time: '03:30',
      time_zone: 'UTC',
    });
    expect(foreign.statusCode).toBe(404);
    const noRag = await call('PUT', `/v1/knowledge/${kb}/sources/${source.id}/sync`, who.noRag, {
      frequency: 'off',
    });
    expect(noRag.statusCode).toBe(403);
    expect(await tablesFingerprint(t, ['knowledge_sources', 'audit_log'])).toBe(before);
  });

  it('syncs the sources that are due through the same path as Sync now, and moves their next run on', async () => {
    putPage('/due', 'Pilot service', 'The pilot boards ships at the fairway buoy.');
    putPage('/later', 'Fuel', 'Fuel is sold at the north quay.');
    const due = await addSource({ type: 'url', url: `${siteUrl}/due` });
    const later = await addSource({ type: 'url', url: `${siteUrl}/later` });
    for (const source of [due, later]) {
      const response = await call('PUT', `/v1/knowledge/${kb}/sources/${source.id}/sync`, who.alice, {
        frequency: 'daily',
        time: '04:00',
        time_zone: 'UTC',
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    const past = new Date(Date.now() - 60_000);
    await t.database.db
      .update(knowledgeSources)
      .set({ nextSyncAt: past })
      .where(eq(knowledgeSources.id, due.id));
    const jobs = t.app.jobs;
    if (!jobs) throw new Error('the test app runs jobs');
    const queued = await runSourceSyncSweep(t.database.db, jobs);
    expect(queued).toBe(1);
    const synced = await until(
      'scheduled sync',
      () => readSource(due.id),
      (s) => s.state === 'ready' && s.last_sync_result?.at !== due.last_sync_result?.at,
    );
    expect(synced.last_sync_result?.outcome).toBe('unchanged');
    expect(countOf('/due')).toMatchObject({ requests: 2, notModified: 1 });
    expect(Date.parse(synced.next_sync_at ?? '')).toBeGreaterThan(Date.now());
    expect(new Date(synced.next_sync_at ?? '').toISOString()).toMatch(/T04:00:00\.000Z$/);
    expect(countOf('/later').requests).toBe(1);
    // Nothing is due any more.
    expect(await runSourceSyncSweep(t.database.db, jobs)).toBe(0);
  });
});

describe('claiming due sources', () => {
  /** Stores `n` url sources due a minute ago, straight in the table. */
  async function dueSources(n: number): Promise<string[]> {
    const rows = await t.database.db
      .insert(knowledgeSources)
      .values(
        Array.from({ length: n }, (_, i) => ({
          tenantId: ids.a,
          knowledgeBaseId: kb,
          type: 'url' as const,
          url: `${siteUrl}/claim/${i}`,
          state: 'ready' as const,
          syncSchedule: { frequency: 'daily' as const, time: '02:00', time_zone: 'UTC' },
          nextSyncAt: new Date(Date.now() - 60_000),
        })),
      )
      .returning({ id: knowledgeSources.id });
    return rows.map((row) => row.id);
  }

  const removeSources = (sourceIds: string[]) =>
    t.database.db.delete(knowledgeSources).where(inArray(knowledgeSources.id, sourceIds));

  it('claims each due source once when two processes sweep at the same time', async () => {
    const created = await dueSources(60);
    // A second process: its own connections to the same database (on PGlite, the one connection both share).
    const other = t.database.url ? await openDatabase({ kind: 'postgres', url: t.database.url }) : null;
    try {
      const now = new Date();
      const sweep = async (db: typeof t.database.db) => {
        const claimed: string[] = [];
        for (;;) {
          const batch = await claimDueSources(db, now, 7);
          claimed.push(...batch.map((job) => job.sourceId));
          if (batch.length === 0) return claimed;
        }
      };
      const [one, two] = await Promise.all([sweep(t.database.db), sweep(other?.db ?? t.database.db)]);
      const all = [...one, ...two].filter((id) => created.includes(id));
      expect(all.length).toBe(created.length);
      expect(new Set(all).size).toBe(created.length);
      if (other) {
        // Both processes took part: neither waited for the other to finish.
        expect(one.length).toBeGreaterThan(0);
        expect(two.length).toBeGreaterThan(0);
      }
      const rows = await t.database.db
        .select({ state: knowledgeSources.state, next: knowledgeSources.nextSyncAt })
        .from(knowledgeSources)
        .where(inArray(knowledgeSources.id, created));
      for (const row of rows) {
        expect(row.state).toBe('queued');
        expect(row.next?.getTime()).toBeGreaterThan(now.getTime());
      }
    } finally {
      await other?.close();
      await removeSources(created);
    }
  });

  it.runIf(process.env.OMNIBOT_TEST_DB === 'postgres')(
    'passes over a source another process holds, and takes it once it is free',
    async () => {
      const created = await dueSources(3);
      const other = await openDatabase({ kind: 'postgres', url: t.database.url ?? '' });
      try {
        let release = () => undefined as void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let markLocked = () => undefined as void;
        const locked = new Promise<void>((resolve) => (markLocked = resolve));
        const holder = other.db.transaction(async (tx) => {
          await tx.execute(sql`select id from knowledge_sources where id = ${created[0]}::uuid for update`);
          markLocked();
          await released;
        });
        await locked;
        const first = await claimDueSources(t.database.db, new Date());
        expect(
          first
            .map((job) => job.sourceId)
            .filter((id) => created.includes(id))
            .sort(),
        ).toEqual(created.slice(1).sort());
        release();
        await holder;
        const second = await claimDueSources(t.database.db, new Date());
        expect(second.map((job) => job.sourceId).filter((id) => created.includes(id))).toEqual([created[0]]);
      } finally {
        await other.close();
        await removeSources(created);
      }
    },
  );

  it('leaves alone sources without a schedule, not yet due, or being read', async () => {
    const created = await dueSources(3);
    try {
      await t.database.db
        .update(knowledgeSources)
        .set({ syncSchedule: null })
        .where(eq(knowledgeSources.id, created[0] ?? ''));
      await t.database.db
        .update(knowledgeSources)
        .set({ nextSyncAt: new Date(Date.now() + 3_600_000) })
        .where(eq(knowledgeSources.id, created[1] ?? ''));
      await t.database.db
        .update(knowledgeSources)
        .set({ state: 'fetching' })
        .where(eq(knowledgeSources.id, created[2] ?? ''));
      const claimed = await claimDueSources(t.database.db, new Date());
      expect(claimed.filter((job) => created.includes(job.sourceId))).toEqual([]);
      const states = rowsOf<{ state: string }>(
        await t.database.db.execute(
          sql`select state from knowledge_sources where id in (${sql.join(
            created.map((id) => sql`${id}::uuid`),
            sql`, `,
          )}) order by state`,
        ),
      ).map((row) => row.state);
      expect(states).toEqual(['fetching', 'ready', 'ready']);
    } finally {
      await removeSources(created);
    }
  });
});
