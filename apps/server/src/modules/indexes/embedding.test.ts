import { IndexSchema, KnowledgeSourceSchema, SearchResultSchema, type Index } from '@omnibot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkEmbeddings, indexes, knowledgeChunks, models } from '../../db/schema';
import { type Caller, createTestApp, injectAs, type TestApp } from '../../test/app';
import { defined } from '../../test/defined';
import {
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
} from '../../test/openai-compatible-server';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import Fastify from 'fastify';
import { createSecretBox } from '../../lib/secret-box';
import { indexKnowledgeBases } from '../../db/schema';
import { recoverEmbeddings, runEmbedding } from './embedding';
import { loopbackModelFetch, TEST_FETCH_ALLOW } from '../../test/loopback-fetch';

// The embedding model is the local test server, which speaks the OpenAI embeddings protocol (POST /embeddings)
// and answers hashed bag-of-words vectors: real HTTP calls through the same provider code as production.

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

let t: TestApp;
let server: OpenAICompatibleServer;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'emb-a', b: 'emb-b', noRag: 'emb-norag' };
const kb = { a: '', b: '' };
const model = { a: '', a2: '', b: '' };

const DOCUMENTS = [
  { title: 'Refunds', text: 'Refunds are paid back to the original card within five working days.' },
  {
    title: 'Invoices',
    text: 'Invoices can be downloaded as PDF files from the billing page of the account.',
  },
  { title: 'Shipping', text: 'Parcels are shipped by courier and usually arrive within two days.' },
  { title: 'Passwords', text: 'A forgotten password is reset with the link sent to your e-mail address.' },
];

const call = (method: Method, url: string, caller: Caller, payload?: unknown) =>
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

const readIndex = async (caller: Caller, id: string) => {
  const response = await call('GET', `/v1/indexes/${id}`, caller);
  expect(response.statusCode, response.body).toBe(200);
  return IndexSchema.parse(response.json());
};

const settledIndex = (caller: Caller, id: string) =>
  until(
    `index ${id}`,
    () => readIndex(caller, id),
    (index) => index.embedding.state === 'ready' || index.embedding.state === 'failed',
  );

async function addText(caller: Caller, knowledgeId: string, title: string, text: string) {
  const response = await call('POST', `/v1/knowledge/${knowledgeId}/sources`, caller, {
    type: 'text',
    title,
    text,
  });
  expect(response.statusCode, response.body).toBe(201);
  const source = KnowledgeSourceSchema.parse(response.json());
  await until(
    `source ${source.id}`,
    async () =>
      KnowledgeSourceSchema.parse(
        (await call('GET', `/v1/knowledge/${knowledgeId}/sources/${source.id}`, caller)).json(),
      ),
    (current) => current.state === 'ready',
  );
  return source;
}

async function createIndex(caller: Caller, body: Record<string, unknown>): Promise<Index> {
  const response = await call('POST', '/v1/indexes', caller, body);
  expect(response.statusCode, response.body).toBe(201);
  return IndexSchema.parse(response.json());
}

async function search(caller: Caller, id: string, query: string, topK = 10) {
  const response = await call('POST', `/v1/indexes/${id}/search`, caller, { query, top_k: topK });
  expect(response.statusCode, response.body).toBe(200);
  return SearchResultSchema.parse(response.json());
}

async function addModel(tenantId: string, name: string) {
  const [row] = await t.database.db
    .insert(models)
    .values({
      tenantId,
      name,
      kind: 'embedding',
      baseUrl: server.baseUrl,
      modelName: 'hash-embed',
      dimensions: 128,
    })
    .returning({ id: models.id });
  return defined(row).id;
}

async function chunkIdsOf(tenantId: string) {
  const rows = await t.database.db
    .select({ id: knowledgeChunks.id })
    .from(knowledgeChunks)
    .where(eq(knowledgeChunks.tenantId, tenantId));
  return new Set(rows.map((row) => row.id));
}

beforeAll(async () => {
  server = await startOpenAICompatibleServer();
  t = await createTestApp({
    env: { FETCH_ALLOW_ADDRESSES: TEST_FETCH_ALLOW },
    jobs: { pollingIntervalSeconds: 0.5 },
  });
  Object.assign(who, await makeOmniragTenants(t, ids));
  for (const [tenant, caller] of [
    ['a', who.alice],
    ['b', who.bob],
  ] as const) {
    const created = await call('POST', '/v1/knowledge', caller, { name: 'Help', language: 'en' });
    expect(created.statusCode, created.body).toBe(201);
    kb[tenant] = created.json<{ id: string }>().id;
    // Identical documents in both tenants: a search in one must never return the other's chunks.
    for (const document of DOCUMENTS) await addText(caller, kb[tenant], document.title, document.text);
  }
  model.a = await addModel(ids.a, 'Embedder A');
  model.a2 = await addModel(ids.a, 'Embedder A2');
  model.b = await addModel(ids.b, 'Embedder B');
}, 120_000);

afterAll(async () => {
  await t.close();
  await server.close();
});

describe('embedding indexes in the background', () => {
  it('embeds a vector index with progress, then searches by vector and hybrid within the tenant only', async () => {
    const index = await createIndex(who.alice, {
      name: 'Meaning',
      knowledge_ids: [kb.a],
      mode: 'vector',
      embedding_model_id: model.a,
    });
    expect(index.embedding.state).toBe('pending');
    const ready = await settledIndex(who.alice, index.id);
    expect(ready.embedding).toEqual({
      state: 'ready',
      done: DOCUMENTS.length,
      total: DOCUMENTS.length,
      error: null,
    });
    const stored = await t.database.db
      .select({ dimensions: chunkEmbeddings.dimensions, tenantId: chunkEmbeddings.tenantId })
      .from(chunkEmbeddings)
      .where(eq(chunkEmbeddings.modelId, model.a));
    expect(stored).toHaveLength(DOCUMENTS.length);
    expect(stored.every((row) => row.dimensions === 128 && row.tenantId === ids.a)).toBe(true);

    const vector = await search(who.alice, index.id, 'how long until my refund reaches the card');
    expect(vector.mode).toBe('vector');
    expect(vector.items[0]?.text).toContain('Refunds are paid back');
    expect(defined(vector.items[0]).score).toBeGreaterThan(0);
    expect(defined(vector.items[0]).score).toBeLessThanOrEqual(1.000001);

    const hybrid = await call('PATCH', `/v1/indexes/${index.id}`, who.alice, { mode: 'hybrid' });
    expect(IndexSchema.parse(hybrid.json()).embedding.state).toBe('ready');
    const fused = await search(who.alice, index.id, 'refunds to the card');
    expect(fused.mode).toBe('hybrid');
    expect(fused.items[0]?.text).toContain('Refunds are paid back');
    // First in both lists scores 1.
    expect(fused.items[0]?.score).toBeCloseTo(1, 6);
  });

  it("never returns another tenant's chunks in any mode, though the documents are identical", async () => {
    const mine = await chunkIdsOf(ids.a);
    const theirs = await chunkIdsOf(ids.b);
    expect(mine.size).toBe(theirs.size);
    const bobIndex = await createIndex(who.bob, {
      name: 'Bob meaning',
      knowledge_ids: [kb.b],
      mode: 'vector',
      embedding_model_id: model.b,
    });
    await settledIndex(who.bob, bobIndex.id);
    const aliceIndex = await createIndex(who.alice, {
      name: 'Isolation',
      knowledge_ids: [kb.a],
      mode: 'vector',
      embedding_model_id: model.a,
    });
    expect((await settledIndex(who.alice, aliceIndex.id)).embedding.state).toBe('ready');
    // Vector to hybrid keeps the embeddings ready; keyword needs none.
    for (const mode of ['vector', 'hybrid', 'keyword'] as const) {
      await call('PATCH', `/v1/indexes/${aliceIndex.id}`, who.alice, { mode });
      await call('PATCH', `/v1/indexes/${bobIndex.id}`, who.bob, { mode });
      for (const document of DOCUMENTS) {
        const alice = await search(who.alice, aliceIndex.id, document.text, 50);
        const bob = await search(who.bob, bobIndex.id, document.text, 50);
        expect(alice.mode).toBe(mode);
        expect(alice.items.length).toBeGreaterThan(0);
        expect(alice.items.every((item) => mine.has(item.id) && item.source.knowledge_id === kb.a)).toBe(
          true,
        );
        expect(bob.items.every((item) => theirs.has(item.id) && item.source.knowledge_id === kb.b)).toBe(
          true,
        );
      }
    }
    // Bob's own index id does not reach into Alice's tenant either.
    expect(
      (await call('POST', `/v1/indexes/${aliceIndex.id}/search`, who.bob, { query: 'refunds' })).statusCode,
    ).toBe(404);
  });

  it('embeds chunks ingested later into a covered knowledge base', async () => {
    const index = await createIndex(who.alice, {
      name: 'Growing',
      knowledge_ids: [kb.a],
      mode: 'vector',
      embedding_model_id: model.a,
    });
    await settledIndex(who.alice, index.id);
    await addText(
      who.alice,
      kb.a,
      'Gift cards',
      'Gift vouchers never expire and can be spent in every shop.',
    );
    const grown = await until(
      'new chunk embedded',
      () => readIndex(who.alice, index.id),
      (current) =>
        current.embedding.total === DOCUMENTS.length + 1 &&
        current.embedding.done === current.embedding.total,
    );
    expect(grown.embedding.state).toBe('ready');
    const result = await search(who.alice, index.id, 'do gift vouchers expire');
    expect(result.mode).toBe('vector');
    expect(result.items[0]?.text).toContain('Gift vouchers');
  });

  it('marks the index failed with the provider reason in plain words, and a retry recovers it', async () => {
    server.failure = 'unauthorized';
    try {
      const index = await createIndex(who.alice, {
        name: 'Refused',
        knowledge_ids: [kb.a],
        mode: 'hybrid',
        embedding_model_id: model.a2,
      });
      const failed = await settledIndex(who.alice, index.id);
      expect(failed.embedding.state).toBe('failed');
      expect(failed.embedding.error).toEqual({
        code: 'provider/unauthorized',
        reason: 'Embedding failed: The provider refused the API key.',
      });
      // Failed: searches still answer, by keyword.
      expect((await search(who.alice, index.id, 'refunds')).mode).toBe('keyword');
      server.failure = 'none';
      const recovered = await until(
        'retry',
        () => readIndex(who.alice, index.id),
        (current) => current.embedding.state === 'ready',
      );
      expect(recovered.embedding.error).toBeNull();
    } finally {
      server.failure = 'none';
    }
  });

  it('falls back to keyword results when the query cannot be embedded', async () => {
    const index = await createIndex(who.alice, {
      name: 'Fallback',
      knowledge_ids: [kb.a],
      mode: 'vector',
      embedding_model_id: model.a,
    });
    await settledIndex(who.alice, index.id);
    server.failure = 'server-error';
    try {
      const result = await search(who.alice, index.id, 'refunds card');
      expect(result.mode).toBe('keyword');
      expect(result.items[0]?.text).toContain('Refunds');
    } finally {
      server.failure = 'none';
    }
  });

  it('queues again, at start, the indexes a previous process left pending or embedding', async () => {
    const index = await createIndex(who.alice, {
      name: 'Interrupted',
      knowledge_ids: [kb.a],
      mode: 'vector',
      embedding_model_id: model.a,
    });
    await settledIndex(who.alice, index.id);
    await t.database.db
      .update(indexes)
      .set({ embeddingState: 'embedding', embeddingDone: 1 })
      .where(and(eq(indexes.tenantId, ids.a), eq(indexes.id, index.id)));
    expect(await recoverEmbeddings(t.database.db, defined(t.app.jobs))).toBeGreaterThanOrEqual(1);
    const resumed = await settledIndex(who.alice, index.id);
    expect(resumed.embedding).toMatchObject({ state: 'ready', done: resumed.embedding.total });
  });

  it('records progress batch by batch, one embeddings call per batch', async () => {
    const db = t.database.db;
    const [row] = await db
      .insert(indexes)
      .values({
        tenantId: ids.b,
        name: 'Batches',
        mode: 'vector',
        embeddingModelId: await addModel(ids.b, 'Embedder B2'),
        embeddingState: 'pending',
      })
      .returning();
    const index = defined(row);
    await db
      .insert(indexKnowledgeBases)
      .values({ tenantId: ids.b, indexId: index.id, knowledgeBaseId: kb.b, position: 0 });
    // The index as each embeddings call finds it: every batch before the call is already counted.
    const seen: Array<{ done: number; total: number }> = [];
    const calls = server.requests.length;
    server.beforeAnswer = async (request) => {
      if (request.path !== '/embeddings') return;
      const [current] = await db.select().from(indexes).where(eq(indexes.id, index.id));
      if (current) seen.push({ done: current.embeddingDone, total: current.embeddingTotal });
    };
    try {
      await runEmbedding(
        {
          db,
          secretBox: createSecretBox('progress-test-secret', 'model-api-key'),
          modelFetch: loopbackModelFetch,
          pgvector: t.database.vectorEnabled,
          log: Fastify({ logger: false }).log,
          batchSize: 1,
        },
        { tenantId: ids.b, indexId: index.id },
      );
    } finally {
      server.beforeAnswer = null;
    }
    const embeddingCalls = server.requests.slice(calls).filter((request) => request.path === '/embeddings');
    expect(embeddingCalls).toHaveLength(DOCUMENTS.length);
    const [final] = await db.select().from(indexes).where(eq(indexes.id, index.id));
    expect(final).toMatchObject({
      embeddingState: 'ready',
      embeddingDone: DOCUMENTS.length,
      embeddingTotal: DOCUMENTS.length,
    });
    expect(seen).toEqual(DOCUMENTS.map((_, done) => ({ done, total: DOCUMENTS.length })));
  });
});
