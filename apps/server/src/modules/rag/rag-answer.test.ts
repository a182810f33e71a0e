import { type AnswerResult, AnswerResultSchema, RagSchema } from '@omnibot/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import { indexes, knowledgeChunks, knowledgeSources, modelShares, ragAnswers, users } from '../../db/schema';
import type { UserPrincipal } from '../../lib/principal';
import { searchKeywordWithSources } from '../knowledge/retrieval/bm25';
import { type Caller, createTestApp, injectAs, TEST_ORIGIN, type TestApp } from '../../test/app';
import {
  type FailureMode,
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
} from '../../test/openai-compatible-server';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import {
  makeChatModel,
  makeIndex,
  makeKnowledge,
  makePrompt,
  parseEvents,
  type SourceBody,
} from './rags.test-support';
import { getRagForAnswer } from './rags.service';
import { TEST_FETCH_ALLOW } from '../../test/loopback-fetch';

// The model server below speaks the OpenAI chat-completions protocol, streaming (Server-Sent Events) included.

const API_KEY = 'sk-rag-answer-test-key-7f6e5d4c3b2a';
const MODEL_TIMEOUT_MS = 1500;
/** Asks for the answer as Server-Sent Events. */
const STREAM = { accept: 'text/event-stream' };

let t: TestApp;
let server: OpenAICompatibleServer;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'answer-a', b: 'answer-b', noRag: 'answer-n' };

const RETURNS =
  'Returns are accepted within 30 days of delivery. Start a return from the Orders page and print the label. ' +
  'Refunds are paid back to the original card within five working days once the parcel arrives.';
const SHIPPING =
  'Standard shipping takes three to five working days. Express shipping arrives the next working day when ordered before noon.';
const HOURS_ANSWER = 'We are open Monday to Friday, 9:00 to 17:00.';
const DOCUMENTS: SourceBody[] = [
  { type: 'text', title: 'Returns and refunds', text: RETURNS },
  { type: 'text', title: 'Shipping', text: SHIPPING },
  { type: 'qa', question: 'What are your opening hours?', answer: HOURS_ANSWER },
];
const RETURNS_URL = 'https://help.example.com/returns';

interface Tenant {
  kb: string;
  index: string;
  sourceIds: string[];
  chunkIds: string[];
}
const tenants: Record<'a' | 'b', Tenant> = {
  a: { kb: '', index: '', sourceIds: [], chunkIds: [] },
  b: { kb: '', index: '', sourceIds: [], chunkIds: [] },
};
let modelId = '';
let aliceId = '';

async function makeRag(caller: Caller, body: Record<string, unknown>) {
  const response = await injectAs(t, 'POST', '/v1/rags', caller, body);
  expect(response.statusCode, response.body).toBe(201);
  return RagSchema.parse(response.json());
}

async function ask(caller: Caller, rag: string, body: Record<string, unknown>): Promise<AnswerResult> {
  const response = await injectAs(t, 'POST', `/v1/rags/${rag}/answer`, caller, body);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toContain('application/json');
  return AnswerResultSchema.parse(response.json());
}

/** A streamed answer through the real route: the events in order, the text the deltas build, the final result. */
async function askStreamed(caller: Caller, rag: string, body: Record<string, unknown>) {
  const response = await injectAs(t, 'POST', `/v1/rags/${rag}/answer`, caller, body, STREAM);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toContain('text/event-stream');
  const events = parseEvents(response.body);
  let shown = '';
  for (const event of events) {
    if (event.event === 'delta') shown += (event.data as { text: string }).text;
    if (event.event === 'reset') shown = '';
  }
  const last = events.at(-1);
  expect(last?.event).toBe('sources');
  expect(events.filter((event) => event.event === 'sources')).toHaveLength(1);
  return { events, shown, result: AnswerResultSchema.parse(last?.data) };
}

/** The prompt the model server received last. */
function lastPrompt(): string {
  const request = server.requests.filter((entry) => entry.path === '/chat/completions').at(-1);
  const body = request?.body as { messages?: Array<{ content: string }> } | undefined;
  return body?.messages?.map((message) => message.content).join('\n') ?? '';
}

/** The context titles of the last prompt by their number: "[2] Shipping" gives 2 -> "Shipping". */
function contextTitles(prompt: string): Map<number, string> {
  return new Map(Array.from(prompt.matchAll(/^\[(\d+)\] ([^\n]+)$/gm), (m) => [Number(m[1]), m[2] ?? '']));
}

async function recorded(id: string) {
  // The answer route writes its answers after the reply.
  await t.app.ragAnswers.flush();
  const [row] = await t.database.db.select().from(ragAnswers).where(eq(ragAnswers.id, id));
  return row;
}

beforeAll(async () => {
  t = await createTestApp({
    env: { RAG_MODEL_TIMEOUT_MS: String(MODEL_TIMEOUT_MS), FETCH_ALLOW_ADDRESSES: TEST_FETCH_ALLOW },
  });
  server = await startOpenAICompatibleServer();
  Object.assign(who, await makeOmniragTenants(t, ids));
  for (const [key, caller, tenantId] of [
    ['a', who.alice, ids.a],
    ['b', who.bob, ids.b],
  ] as const) {
    const kb = await makeKnowledge(t, caller, 'Help centre', DOCUMENTS);
    // The returns page has a link, as a crawled web page would.
    await t.database.db
      .update(knowledgeSources)
      .set({ url: RETURNS_URL })
      .where(and(eq(knowledgeSources.tenantId, tenantId), eq(knowledgeSources.id, kb.sourceIds[0] ?? '')));
    const chunks = await t.database.db
      .select({ id: knowledgeChunks.id })
      .from(knowledgeChunks)
      .where(eq(knowledgeChunks.tenantId, tenantId));
    tenants[key] = {
      kb: kb.id,
      index: await makeIndex(t, tenantId, 'Help', [kb.id]),
      sourceIds: kb.sourceIds,
      chunkIds: chunks.map((chunk) => chunk.id),
    };
  }
  modelId = (
    await makeChatModel(t, {
      name: 'Local chat',
      base_url: server.baseUrl,
      api_key: API_KEY,
      tenant_ids: [ids.a, ids.b],
    })
  ).id;
  const [alice] = await t.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, 'alice@a.test'));
  aliceId = alice?.id ?? '';
});
afterAll(async () => {
  await server.close();
  await t.close();
});

describe('answers without a chat model', () => {
  it('gives a strongly matching curated Q&A pair verbatim, kind qa, and records it', async () => {
    const rag = await makeRag(who.alice, { name: 'No model', index_id: tenants.a.index });
    const result = await ask(who.alice, rag.id, { question: 'What are your opening hours?' });
    expect(result).toMatchObject({ answer: HOURS_ANSWER, kind: 'qa', fallback: false, model_error: null });
    expect(result.sources).toHaveLength(1);
    expect(result.sources[0]).toMatchObject({
      source_id: tenants.a.sourceIds[2],
      knowledge_id: tenants.a.kb,
      title: 'What are your opening hours?',
    });
    const row = await recorded(result.id);
    expect(row).toMatchObject({
      tenantId: ids.a,
      ragId: rag.id,
      question: 'What are your opening hours?',
      answer: HOURS_ANSWER,
      kind: 'qa',
      fallback: false,
      channel: 'api',
      createdBy: aliceId,
      modelErrorCode: null,
    });
    expect(row?.chunks).toEqual([expect.objectContaining({ sourceId: tenants.a.sourceIds[2], cited: true })]);
  });

  it('answers extractively with numbered sources carrying title and link, and records chunks, scores and timings', async () => {
    const rag = await makeRag(who.alice, { name: 'Extractive', index_id: tenants.a.index });
    const result = await ask(who.alice, rag.id, { question: 'How many days do I have for returns?' });
    expect(result.kind).toBe('extractive');
    expect(result.fallback).toBe(false);
    expect(result.answer).toContain('Returns are accepted within 30 days of delivery. [1]');
    expect(result.sources[0]).toMatchObject({
      n: 1,
      source_id: tenants.a.sourceIds[0],
      knowledge_id: tenants.a.kb,
      title: 'Returns and refunds',
      url: RETURNS_URL,
    });
    expect(result.sources[0]?.score).toBeGreaterThan(0);
    expect(result.timings.total_ms).toBeGreaterThanOrEqual(result.timings.retrieve_ms);
    const row = await recorded(result.id);
    expect(row?.kind).toBe('extractive');
    expect(row?.retrieveMs).toBe(result.timings.retrieve_ms);
    expect(row?.totalMs).toBe(result.timings.total_ms);
    const cited = row?.chunks.filter((chunk) => chunk.cited) ?? [];
    expect(cited.map((chunk) => chunk.chunkId)).toEqual([result.sources[0]?.chunk_id]);
    expect(cited[0]?.score).toBe(result.sources[0]?.score);
  });

  it('leaves the [n] markers out with citations off, still listing the sources', async () => {
    const rag = await makeRag(who.alice, { name: 'No markers', index_id: tenants.a.index, citations: false });
    const result = await ask(who.alice, rag.id, { question: 'How many days do I have for returns?' });
    expect(result.kind).toBe('extractive');
    expect(result.answer).toContain('Returns are accepted within 30 days of delivery.');
    expect(result.answer).not.toMatch(/\[\d+\]/);
    expect(result.sources.map((source) => source.title)).toContain('Returns and refunds');
  });

  it('gives the fallback text when nothing matches or no hit reaches the index threshold', async () => {
    const rag = await makeRag(who.alice, {
      name: 'Fallback',
      index_id: tenants.a.index,
      fallback_text: 'Let me find a person for you.',
    });
    const nothing = await ask(who.alice, rag.id, { question: 'Do you sell bicycles?' });
    expect(nothing).toMatchObject({
      answer: 'Let me find a person for you.',
      kind: 'fallback',
      fallback: true,
      sources: [],
      model_error: null,
    });
    const strict = await makeIndex(t, ids.a, 'Strict', [tenants.a.kb], { scoreThreshold: 1000 });
    const high = await makeRag(who.alice, {
      name: 'High bar',
      index_id: strict,
      fallback_text: 'Nothing close.',
    });
    const below = await ask(who.alice, high.id, { question: 'How many days do I have for returns?' });
    expect(below).toMatchObject({ answer: 'Nothing close.', kind: 'fallback', fallback: true, sources: [] });
    expect((await recorded(below.id))?.fallback).toBe(true);
  });
});

describe('answers with a chat model', () => {
  it('renders the prompt with context, history, language and bot name, and maps the citations to sources', async () => {
    const prompt = await makePrompt(
      t,
      who.alice,
      'Support prompt',
      'You are {{bot_name}}. Answer in {{language}}.\nContext:\n{{context}}\nEarlier:\n{{history}}\nQ: {{question}}',
    );
    const rag = await makeRag(who.alice, {
      name: 'Helper',
      index_id: tenants.a.index,
      prompt_id: prompt.id,
      model_id: modelId,
    });
    server.reply = 'Refunds go back to your card [2]. You have 30 days [1]. Shipping is quick [9].';
    const before = server.requests.length;
    const result = await ask(who.alice, rag.id, {
      question: 'How long do returns take and where do refunds and shipping go?',
      history: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hello! How can I help?' },
      ],
    });
    expect(server.requests.length).toBe(before + 1);
    const request = server.requests.at(-1);
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const sent = lastPrompt();
    expect(sent).toContain('You are Helper. Answer in English.');
    expect(sent).toContain('Earlier:\nVisitor: Hello\nAssistant: Hello! How can I help?');
    expect(sent).toContain('Q: How long do returns take and where do refunds and shipping go?');
    expect(sent).toContain(RETURNS);
    const titles = contextTitles(sent);
    expect(titles.size).toBeGreaterThanOrEqual(2);

    expect(result.kind).toBe('model');
    expect(result.model_error).toBeNull();
    // Renumbered in first-cited order; [9] names no passage and goes.
    expect(result.answer).toBe('Refunds go back to your card [1]. You have 30 days [2]. Shipping is quick.');
    expect(result.sources.map((source) => source.title)).toEqual([titles.get(2), titles.get(1)]);
    for (const source of result.sources) expect(tenants.a.chunkIds).toContain(source.chunk_id);
    const row = await recorded(result.id);
    expect(row?.kind).toBe('model');
    expect(
      row?.chunks
        .filter((chunk) => chunk.cited)
        .map((chunk) => chunk.chunkId)
        .sort(),
    ).toEqual(result.sources.map((source) => source.chunk_id).sort());
    expect(row?.generateMs).toBeGreaterThan(0);
  });

  it('uses the default prompt, answers in the language of the question, and drops markers with citations off', async () => {
    const rag = await makeRag(who.alice, {
      name: 'Default prompt',
      index_id: tenants.a.index,
      model_id: modelId,
      citations: false,
    });
    server.reply = 'Rücksendungen sind 30 Tage möglich [1].';
    const result = await ask(who.alice, rag.id, { question: 'Wie lange habe ich für die returns Zeit?' });
    const sent = lastPrompt();
    expect(sent).toContain('You are Default prompt, a helpful assistant.');
    expect(sent).toContain('Answer in German.');
    expect(result.answer).toBe('Rücksendungen sind 30 Tage möglich.');
    expect(result.sources).toHaveLength(1);
  });

  it('streams deltas over Server-Sent Events through the route, then one sources event with the whole answer', async () => {
    const rag = await makeRag(who.alice, { name: 'Streamer', index_id: tenants.a.index, model_id: modelId });
    server.reply = ['You have ', '30 days [', '2', '] and refunds ', 'go to the card [1', '].'];
    const { events, shown, result } = await askStreamed(who.alice, rag.id, {
      question: 'How long do returns take and where do refunds go?',
    });
    const titles = contextTitles(lastPrompt());
    const body = server.requests.at(-1)?.body as { stream?: boolean };
    expect(body.stream).toBe(true);
    expect(events.filter((event) => event.event === 'delta').length).toBeGreaterThan(1);
    expect(events.some((event) => event.event === 'reset')).toBe(false);
    expect(result.kind).toBe('model');
    expect(result.answer).toBe('You have 30 days [1] and refunds go to the card [2].');
    expect(shown).toBe(result.answer);
    expect(result.sources.map((source) => source.title)).toEqual([titles.get(2), titles.get(1)]);
    expect((await recorded(result.id))?.answer).toBe(result.answer);
  });

  it('streams over a real HTTP connection, the events arriving as the model sends them', async () => {
    const rag = await makeRag(who.alice, { name: 'Over HTTP', index_id: tenants.a.index, model_id: modelId });
    server.reply = ['Returns take ', '30 days [1]', '.'];
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/v1/rags/${rag.id}/answer`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        cookie: who.alice.cookie ?? '',
        origin: TEST_ORIGIN,
      },
      body: JSON.stringify({ question: 'How many days do I have for returns?' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('cache-control')).toContain('no-store');
    const events = parseEvents(await response.text());
    const result = AnswerResultSchema.parse(events.at(-1)?.data);
    expect(result).toMatchObject({ kind: 'model', answer: 'Returns take 30 days [1].', model_error: null });
    expect(events.map((event) => event.event)).toEqual(['delta', 'delta', 'delta', 'sources']);
  });

  const failures: Array<[FailureMode, string[]]> = [
    ['unauthorized', ['provider/unauthorized']],
    ['server-error', ['provider/error']],
    ['hang', ['provider/timeout']],
    ['malformed-json', ['provider/bad-response']],
    ['garbage-mid-stream', ['provider/bad-response']],
    ['stream-cut', ['provider/bad-response', 'provider/unreachable']],
  ];
  it.each(failures)(
    'falls back to the extractive answer with model_error when the provider fails (%s), as JSON and as a stream',
    async (failure, codes) => {
      const rag = await makeRag(who.alice, {
        name: `Failing ${failure}`,
        index_id: tenants.a.index,
        model_id: modelId,
      });
      server.reply = 'You have 30 days [1] for returns.';
      server.failure = failure;
      try {
        const question = 'How many days do I have for returns?';
        if (failure !== 'garbage-mid-stream' && failure !== 'stream-cut') {
          const result = await ask(who.alice, rag.id, { question });
          expect(result.kind).toBe('extractive');
          expect(codes).toContain(result.model_error?.code);
          expect(result.model_error?.reason).toBeTruthy();
          expect(result.answer).toContain('Returns are accepted within 30 days of delivery. [1]');
          expect((await recorded(result.id))?.modelErrorCode).toBe(result.model_error?.code);
        }
        const streamed = await askStreamed(who.alice, rag.id, { question });
        expect(streamed.result.kind).toBe('extractive');
        expect(codes).toContain(streamed.result.model_error?.code);
        expect(streamed.shown).toBe(streamed.result.answer);
        const kinds = streamed.events.map((event) => event.event);
        if (failure === 'garbage-mid-stream') {
          // The first piece was shown before the stream broke: it is taken back.
          expect(kinds.indexOf('reset')).toBeGreaterThan(0);
        }
        // Whatever was shown before a break is taken back before the replacement.
        const firstDelta = kinds.indexOf('delta');
        const reset = kinds.indexOf('reset');
        if (reset !== -1) expect(firstDelta).toBeLessThan(reset);
      } finally {
        server.failure = 'none';
      }
      const logged = JSON.stringify(t.logs);
      expect(logged).not.toContain(API_KEY);
      expect(logged).not.toContain(API_KEY.slice(3, 20));
      expect(t.logs.some((line) => line.msg === 'RAG answered without its chat model')).toBe(true);
    },
    20_000,
  );

  it('gives the fallback text with model_error when the model fails and no sentence answers the question', async () => {
    // The question's word is only in a two-word fragment, which an extractive answer never quotes.
    const kb = await makeKnowledge(t, who.alice, 'Warranty', [
      {
        type: 'text',
        title: 'Cover',
        text: 'All devices are covered for two years from the day of purchase. Warranty included.',
      },
    ]);
    const index = await makeIndex(t, ids.a, 'Warranty', [kb.id]);
    const rag = await makeRag(who.alice, {
      name: 'Warranty',
      index_id: index,
      model_id: modelId,
      fallback_text: 'Ask our team.',
    });
    server.failure = 'server-error';
    try {
      const result = await ask(who.alice, rag.id, { question: 'Warranty?' });
      expect(result).toMatchObject({
        kind: 'fallback',
        fallback: true,
        answer: 'Ask our team.',
        sources: [],
      });
      expect(result.model_error?.code).toBe('provider/error');
      const row = await recorded(result.id);
      expect(row?.modelErrorCode).toBe('provider/error');
      expect(row?.chunks.length).toBeGreaterThan(0);
    } finally {
      server.failure = 'none';
    }
  });

  it('answers extractively with model_error when the model is no longer offered to the organisation', async () => {
    const rag = await makeRag(who.alice, { name: 'Unshared', index_id: tenants.a.index, model_id: modelId });
    await t.database.db
      .delete(modelShares)
      .where(and(eq(modelShares.modelId, modelId), eq(modelShares.tenantId, ids.a)));
    try {
      const before = server.requests.length;
      const result = await ask(who.alice, rag.id, { question: 'How many days do I have for returns?' });
      expect(result.kind).toBe('extractive');
      expect(result.model_error?.code).toBe('rag/unknown-model');
      expect(server.requests.length).toBe(before);
    } finally {
      await t.database.db.insert(modelShares).values({ modelId, tenantId: ids.a });
    }
  });

  it('gives a Q&A pair verbatim without calling the model, and the fallback when nothing matches', async () => {
    const rag = await makeRag(who.alice, { name: 'Model QA', index_id: tenants.a.index, model_id: modelId });
    const before = server.requests.length;
    const qa = await askStreamed(who.alice, rag.id, { question: 'What are your opening hours?' });
    expect(qa.result).toMatchObject({ kind: 'qa', answer: HOURS_ANSWER });
    expect(qa.shown).toBe(HOURS_ANSWER);
    const none = await ask(who.alice, rag.id, { question: 'Do you sell bicycles?' });
    expect(none.kind).toBe('fallback');
    expect(server.requests.length).toBe(before);
  });
});

describe('the RAG read for answering', () => {
  it('brings the keyword hits the search statement finds for the question, and none for an index searching by vector', async () => {
    const rag = await makeRag(who.alice, { name: 'Read with hits', index_id: tenants.a.index });
    const principal: UserPrincipal = {
      kind: 'user',
      userId: aliceId,
      email: 'alice@a.test',
      name: 'Alice',
      tenantId: ids.a,
      tenantType: 'client',
      role: 'administrator',
      mustChangePassword: false,
    };
    const question = 'How do I start a return for a refund?';
    const read = await getRagForAnswer(t.database.db, principal, rag.id, question);
    const searched = await searchKeywordWithSources(t.database.db, {
      tenantId: ids.a,
      knowledgeBaseIds: [tenants.a.kb],
      query: question,
      topK: 5,
    });
    expect(searched.length).toBeGreaterThan(0);
    expect(read.index?.keyword?.query).toBe(question);
    expect(read.index?.keyword?.hits).toEqual(searched);

    // Another organisation's RAG id reads nothing, hits included.
    await expect(
      getRagForAnswer(t.database.db, { ...principal, tenantId: ids.b }, rag.id, question),
    ).rejects.toMatchObject({ statusCode: 404 });

    // Any model row will do: the statement only asks whether the index has one with its embeddings ready.
    await t.database.db
      .update(indexes)
      .set({ mode: 'vector', embeddingState: 'ready', embeddingModelId: modelId })
      .where(eq(indexes.id, tenants.a.index));
    try {
      const vector = await getRagForAnswer(t.database.db, principal, rag.id, question);
      expect(vector.index?.row.mode).toBe('vector');
      expect(vector.index?.keyword).toBeUndefined();
    } finally {
      await t.database.db
        .update(indexes)
        .set({ mode: 'keyword', embeddingState: 'none', embeddingModelId: null })
        .where(eq(indexes.id, tenants.a.index));
    }
  });
});

describe('tenant isolation', () => {
  it('never cites or records the other organisation’s chunks, sources or Q&A pairs for identical documents', async () => {
    const ragA = await makeRag(who.alice, { name: 'Isolated', index_id: tenants.a.index });
    const ragB = await makeRag(who.bob, { name: 'Isolated', index_id: tenants.b.index, model_id: modelId });
    server.reply = 'You have 30 days [1]. Refunds go to the card [2].';
    const questions = [
      'What are your opening hours?',
      'How many days do I have for returns?',
      'How fast is express shipping?',
    ];
    for (const [caller, rag, own, other] of [
      [who.alice, ragA.id, tenants.a, tenants.b],
      [who.bob, ragB.id, tenants.b, tenants.a],
    ] as const) {
      for (const question of questions) {
        const result = await ask(caller, rag, { question });
        expect(result.sources.length, question).toBeGreaterThan(0);
        for (const source of result.sources) {
          expect(own.sourceIds).toContain(source.source_id);
          expect(other.sourceIds).not.toContain(source.source_id);
          expect(other.chunkIds).not.toContain(source.chunk_id);
          expect(source.knowledge_id).toBe(own.kb);
        }
        const row = await recorded(result.id);
        for (const chunk of row?.chunks ?? []) {
          expect(other.chunkIds).not.toContain(chunk.chunkId);
          expect(other.sourceIds).not.toContain(chunk.sourceId);
        }
      }
    }
    // The other tenant's prompt context never carries this tenant's passages: every context block is its own.
    await t.app.ragAnswers.flush();
    const leaked = rowsOf<{ n: number | string }>(
      await t.database.db.execute(sql`
        select count(*) as n from rag_answers a, jsonb_array_elements(a.chunks) c
        join knowledge_chunks k on k.id = (c->>'chunkId')::uuid
        where k.tenant_id <> a.tenant_id`),
    );
    expect(Number(leaked[0]?.n)).toBe(0);
  });
});
