import { randomUUID } from 'node:crypto';
import { IndexListSchema, IndexSchema, KnowledgeBaseSchema, SearchResultSchema } from '@omnibot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { auditLog, models } from '../../db/schema';
import { type Caller, createTestApp, injectAs, tablesFingerprint, type TestApp } from '../../test/app';
import { defined } from '../../test/defined';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { basicCredential } from '../files/files.test-support';
import { indexChunks } from '../knowledge/retrieval/retrieval';
import { addSource, chunkOf } from '../knowledge/retrieval/retrieval.test-support';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

let t: TestApp;
const who: Record<'alice' | 'bob' | 'noRag' | 'aliceKey', Caller> = {
  alice: {},
  bob: {},
  noRag: {},
  aliceKey: {},
};
const ids = { a: 'idx-a', b: 'idx-b', noRag: 'idx-norag' };
const kb = { a1: '', a2: '', b1: '' };
const model = { a: '', aChat: '', b: '' };

const call = (method: Method, url: string, caller: Caller, payload?: unknown) =>
  injectAs(t, method, url, caller, payload);

/** A digest of every table the index routes write: equal digests mean nothing changed. */
const fingerprint = () =>
  tablesFingerprint(t, ['indexes', 'index_knowledge_bases', 'chunk_embeddings', 'audit_log']);

async function createKb(caller: Caller, name: string) {
  const response = await call('POST', '/v1/knowledge', caller, { name, language: 'en' });
  expect(response.statusCode, response.body).toBe(201);
  return KnowledgeBaseSchema.parse(response.json());
}

/** Stores chunks straight away (no ingestion job), one source per call. */
async function addChunks(tenantId: string, knowledgeBaseId: string, texts: string[]) {
  const sourceId = await addSource(t.database.db, tenantId, knowledgeBaseId, 'Manual');
  await t.database.db.transaction((tx) =>
    indexChunks(tx, {
      tenantId,
      knowledgeBaseId,
      sourceId,
      config: 'english',
      chunks: texts.map((text, ordinal) => chunkOf(ordinal, text, ['Manual'])),
    }),
  );
}

async function addModel(tenantId: string, kind: 'chat' | 'embedding') {
  const [row] = await t.database.db
    .insert(models)
    .values({ tenantId, name: `${kind} ${tenantId}`, kind, baseUrl: 'http://127.0.0.1:9/v1', modelName: 'm' })
    .returning({ id: models.id });
  return defined(row).id;
}

async function createIndex(caller: Caller, body: Record<string, unknown>) {
  const response = await call('POST', '/v1/indexes', caller, body);
  expect(response.statusCode, response.body).toBe(201);
  return IndexSchema.parse(response.json());
}

beforeAll(async () => {
  t = await createTestApp();
  Object.assign(who, await makeOmniragTenants(t, ids));
  who.aliceKey = { authorization: await basicCredential(t, ids.a) };
  const a1 = await createKb(who.alice, 'Billing');
  const a2 = await createKb(who.alice, 'Shipping');
  const b1 = await createKb(who.bob, 'Billing');
  kb.a1 = a1.id;
  kb.a2 = a2.id;
  kb.b1 = b1.id;
  await addChunks(ids.a, a1.id, [
    'Refunds are paid back to the original card within five working days.',
    'Invoices can be downloaded as PDF from the billing page.',
  ]);
  await addChunks(ids.a, a2.id, ['Parcels ship within two days by courier.']);
  await addChunks(ids.b, b1.id, ['Refunds are paid back to the original card within five working days.']);
  model.a = await addModel(ids.a, 'embedding');
  model.aChat = await addModel(ids.a, 'chat');
  model.b = await addModel(ids.b, 'embedding');
});
afterAll(async () => {
  await t.close();
});

describe('indexes', () => {
  it('creates with defaults, lists, reads, updates and deletes, with an audit row for each write', async () => {
    const created = await createIndex(who.alice, { name: 'Help', knowledge_ids: [kb.a2, kb.a1] });
    expect(created).toMatchObject({
      tenant_id: ids.a,
      mode: 'keyword',
      top_k: 5,
      score_threshold: 0,
      embedding_model_id: null,
      knowledge_ids: [kb.a2, kb.a1],
      knowledge: [
        { id: kb.a2, name: 'Shipping' },
        { id: kb.a1, name: 'Billing' },
      ],
      embedding: { state: 'none', done: 0, total: 0, error: null },
    });

    const list = IndexListSchema.parse(
      (await call('GET', '/v1/indexes?page=1&page_size=10', who.alice)).json(),
    );
    expect(list.items.map((item) => item.id)).toContain(created.id);
    expect(list.vector_search).toBe(t.database.vectorEnabled ? 'hnsw' : 'exact');
    expect(list.page_size).toBe(10);

    const read = await call('GET', `/v1/indexes/${created.id}`, who.aliceKey);
    expect(read.statusCode, read.body).toBe(200);
    expect(IndexSchema.parse(read.json()).name).toBe('Help');

    const patched = await call('PATCH', `/v1/indexes/${created.id}`, who.alice, {
      name: 'Help centre',
      knowledge_ids: [kb.a1],
      mode: 'hybrid',
      embedding_model_id: model.a,
      top_k: 3,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(IndexSchema.parse(patched.json())).toMatchObject({
      name: 'Help centre',
      knowledge_ids: [kb.a1],
      mode: 'hybrid',
      top_k: 3,
      embedding_model_id: model.a,
      // No job runner in this app: the index waits, pending, for a process that runs jobs.
      embedding: { state: 'pending' },
    });

    const back = await call('PATCH', `/v1/indexes/${created.id}`, who.alice, { mode: 'keyword' });
    expect(IndexSchema.parse(back.json()).embedding).toEqual({
      state: 'none',
      done: 0,
      total: 0,
      error: null,
    });

    const removed = await call('DELETE', `/v1/indexes/${created.id}`, who.alice);
    expect(removed.statusCode).toBe(204);
    expect((await call('GET', `/v1/indexes/${created.id}`, who.alice)).statusCode).toBe(404);

    const audit = await t.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.target, created.id))
      .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
    expect(audit.map((row) => row.action)).toEqual([
      'index.create',
      'index.update',
      'index.update',
      'index.delete',
    ]);
  });

  it('creates a vector index with an embedding model offered to the tenant, pending until embedded', async () => {
    const created = await createIndex(who.alice, {
      name: 'Vectors',
      knowledge_ids: [kb.a1],
      mode: 'vector',
      embedding_model_id: model.a,
    });
    expect(created.embedding.state).toBe('pending');
    // Until the embeddings are ready, search runs by keyword and says so.
    const search = await call('POST', `/v1/indexes/${created.id}/search`, who.alice, {
      query: 'refund card',
    });
    expect(search.statusCode, search.body).toBe(200);
    const result = SearchResultSchema.parse(search.json());
    expect(result.mode).toBe('keyword');
    expect(result.items[0]?.text).toContain('Refunds');
  });

  it('searches by keyword with hits carrying their source, and top_k caps them', async () => {
    const index = await createIndex(who.alice, { name: 'Search me', knowledge_ids: [kb.a1, kb.a2] });
    const response = await call('POST', `/v1/indexes/${index.id}/search`, who.aliceKey, {
      query: 'refunds invoices parcels',
      top_k: 2,
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = SearchResultSchema.parse(response.json());
    expect(result.mode).toBe('keyword');
    expect(result.items).toHaveLength(2);
    const first = defined(result.items[0]);
    expect(first.heading_path).toEqual(['Manual']);
    expect(first.source).toMatchObject({ title: 'Manual', url: null });
    expect([kb.a1, kb.a2]).toContain(first.source.knowledge_id);
    expect(result.took_ms).toBeGreaterThanOrEqual(0);

    const strict = await call('PATCH', `/v1/indexes/${index.id}`, who.alice, { score_threshold: 1000 });
    expect(strict.statusCode).toBe(200);
    const none = SearchResultSchema.parse(
      (await call('POST', `/v1/indexes/${index.id}/search`, who.alice, { query: 'refunds' })).json(),
    );
    expect(none.items).toEqual([]);
  });

  it('refuses bad input with 4xx {code, message} and changes nothing', async () => {
    const existing = await createIndex(who.alice, { name: 'Taken', knowledge_ids: [kb.a1] });
    const before = await fingerprint();
    const unknown = randomUUID();
    const cases: Array<[Method, string, unknown, number, string]> = [
      ['POST', '/v1/indexes', {}, 400, 'invalid_argument'],
      ['POST', '/v1/indexes', { name: ' ', knowledge_ids: [kb.a1] }, 400, 'invalid_argument'],
      ['POST', '/v1/indexes', { name: 'x', knowledge_ids: [] }, 400, 'invalid_argument'],
      ['POST', '/v1/indexes', { name: 'x', knowledge_ids: [kb.a1, kb.a1] }, 400, 'invalid_argument'],
      ['POST', '/v1/indexes', { name: 'x', knowledge_ids: ['nope'] }, 400, 'invalid_argument'],
      ['POST', '/v1/indexes', { name: 'x', knowledge_ids: [kb.a1], top_k: 0 }, 400, 'invalid_argument'],
      ['POST', '/v1/indexes', { name: 'x', knowledge_ids: [kb.a1], top_k: 51 }, 400, 'invalid_argument'],
      ['POST', '/v1/indexes', { name: 'x', knowledge_ids: [kb.a1], mode: 'fuzzy' }, 400, 'invalid_argument'],
      ['POST', '/v1/indexes', { name: 'x', knowledge_ids: [kb.a1], extra: 1 }, 400, 'invalid_argument'],
      [
        'POST',
        '/v1/indexes',
        { name: 'x', knowledge_ids: [kb.a1], score_threshold: -1 },
        400,
        'invalid_argument',
      ],
      ['POST', '/v1/indexes', { name: 'x', knowledge_ids: [unknown] }, 400, 'index/unknown-knowledge'],
      ['POST', '/v1/indexes', { name: 'x', knowledge_ids: [kb.a1, kb.b1] }, 400, 'index/unknown-knowledge'],
      [
        'POST',
        '/v1/indexes',
        { name: 'x', knowledge_ids: [kb.a1], mode: 'vector' },
        400,
        'index/embedding-model-required',
      ],
      [
        'POST',
        '/v1/indexes',
        { name: 'x', knowledge_ids: [kb.a1], mode: 'hybrid', embedding_model_id: null },
        400,
        'index/embedding-model-required',
      ],
      [
        'POST',
        '/v1/indexes',
        { name: 'x', knowledge_ids: [kb.a1], mode: 'vector', embedding_model_id: model.b },
        400,
        'index/unknown-embedding-model',
      ],
      [
        'POST',
        '/v1/indexes',
        { name: 'x', knowledge_ids: [kb.a1], mode: 'vector', embedding_model_id: model.aChat },
        400,
        'index/unknown-embedding-model',
      ],
      [
        'POST',
        '/v1/indexes',
        { name: 'x', knowledge_ids: [kb.a1], mode: 'vector', embedding_model_id: unknown },
        400,
        'index/unknown-embedding-model',
      ],
      ['POST', '/v1/indexes', { name: 'Taken', knowledge_ids: [kb.a1] }, 409, 'index/name-taken'],
      ['PATCH', `/v1/indexes/${existing.id}`, { mode: 'vector' }, 400, 'index/embedding-model-required'],
      ['PATCH', `/v1/indexes/${existing.id}`, { knowledge_ids: [kb.b1] }, 400, 'index/unknown-knowledge'],
      [
        'PATCH',
        `/v1/indexes/${existing.id}`,
        { embedding_model_id: model.b },
        400,
        'index/unknown-embedding-model',
      ],
      ['PATCH', `/v1/indexes/${existing.id}`, { top_k: 100 }, 400, 'invalid_argument'],
      ['PATCH', `/v1/indexes/${existing.id}`, { owner: 'me' }, 400, 'invalid_argument'],
      ['PATCH', `/v1/indexes/${unknown}`, { name: 'y' }, 404, 'not_found'],
      ['PATCH', '/v1/indexes/not-a-uuid', { name: 'y' }, 400, 'invalid_argument'],
      ['GET', '/v1/indexes?page=0', undefined, 400, 'invalid_argument'],
      ['GET', '/v1/indexes?page_size=1000', undefined, 400, 'invalid_argument'],
      ['GET', `/v1/indexes/${unknown}`, undefined, 404, 'not_found'],
      ['DELETE', `/v1/indexes/${unknown}`, undefined, 404, 'not_found'],
      ['POST', `/v1/indexes/${existing.id}/search`, {}, 400, 'invalid_argument'],
      ['POST', `/v1/indexes/${existing.id}/search`, { query: '' }, 400, 'invalid_argument'],
      ['POST', `/v1/indexes/${existing.id}/search`, { query: 'x', top_k: 0 }, 400, 'invalid_argument'],
      ['POST', `/v1/indexes/${unknown}/search`, { query: 'x' }, 404, 'not_found'],
    ];
    for (const [method, url, body, status, code] of cases) {
      const response = await call(method, url, who.alice, body);
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(body)}: ${response.body}`).toBe(status);
      const error = response.json<{ code: string; message: string }>();
      expect(error.code, `${method} ${url} ${JSON.stringify(body)}`).toBe(code);
      expect(error.message.length).toBeGreaterThan(0);
    }
    const patchedName = await call('PATCH', `/v1/indexes/${existing.id}`, who.alice, { name: 'Taken' });
    expect(patchedName.statusCode).toBe(200);
    const other = await createIndex(who.alice, { name: 'Other', knowledge_ids: [kb.a1] });
    const afterCreate = await fingerprint();
    const clash = await call('PATCH', `/v1/indexes/${other.id}`, who.alice, { name: 'Taken' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ code: 'index/name-taken' });
    expect(await fingerprint()).toBe(afterCreate);
    expect(before).not.toBe(afterCreate);
  });

  it("treats another tenant's index as unknown, and refuses callers without omnirag or a session", async () => {
    const mine = await createIndex(who.alice, { name: 'Private', knowledge_ids: [kb.a1] });
    const before = await fingerprint();
    for (const [method, url, body] of [
      ['GET', `/v1/indexes/${mine.id}`, undefined],
      ['PATCH', `/v1/indexes/${mine.id}`, { name: 'Stolen' }],
      ['DELETE', `/v1/indexes/${mine.id}`, undefined],
      ['POST', `/v1/indexes/${mine.id}/search`, { query: 'refunds' }],
    ] as Array<[Method, string, unknown]>) {
      const response = await call(method, url, who.bob, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found' });
    }
    const bobList = IndexListSchema.parse((await call('GET', '/v1/indexes', who.bob)).json());
    expect(bobList.items.map((item) => item.id)).not.toContain(mine.id);

    for (const [method, url, body] of [
      ['GET', '/v1/indexes', undefined],
      ['POST', '/v1/indexes', { name: 'x', knowledge_ids: [kb.a1] }],
      ['GET', `/v1/indexes/${mine.id}`, undefined],
      ['POST', `/v1/indexes/${mine.id}/search`, { query: 'refunds' }],
    ] as Array<[Method, string, unknown]>) {
      const forbidden = await call(method, url, who.noRag, body);
      expect(forbidden.statusCode, `${method} ${url}`).toBe(403);
      expect(forbidden.json()).toMatchObject({ code: 'forbidden' });
      const anonymous = await call(method, url, {}, body);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await fingerprint()).toBe(before);
  });

  it('pages the list by name', async () => {
    await createIndex(who.bob, { name: 'B one', knowledge_ids: [kb.b1] });
    await createIndex(who.bob, { name: 'B two', knowledge_ids: [kb.b1] });
    await createIndex(who.bob, { name: 'B three', knowledge_ids: [kb.b1] });
    const page = IndexListSchema.parse((await call('GET', '/v1/indexes?page=2&page_size=2', who.bob)).json());
    expect(page.total).toBe(3);
    expect(page.items.map((item) => item.name)).toEqual(['B two']);
  });
});
