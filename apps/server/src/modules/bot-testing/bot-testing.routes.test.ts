import { randomUUID } from 'node:crypto';
import {
  BOT_TEST_CASES_MAX,
  BotChatReplySchema,
  BotSchema,
  BotTestCaseListSchema,
  BotTestCaseSchema,
  BotTestRunListSchema,
  BotTestRunSchema,
  BotTestSourceListSchema,
  ERROR_CATALOGUE,
} from '@omnibot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadAuthSecret } from '../../bootstrap';
import { botTestCases, botTestRuns, ragAnswers } from '../../db/schema';
import { createSecretBox } from '../../lib/secret-box';
import { type Caller, createTestApp, injectAs, tablesFingerprint, type TestApp } from '../../test/app';
import { defined } from '../../test/defined';
import {
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
} from '../../test/openai-compatible-server';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { basicCredential } from '../files/files.test-support';
import { createBotSecrets } from '../bots/bots.service';
import { makeChatModel, makeIndex, makeKnowledge } from '../rag/rags.test-support';
import { judge, normaliseForJudging } from './bot-test-judge';
import { failInterruptedRuns, INTERRUPTED, type RunnerDeps, runTestRun } from './bot-test-runner';
import { loopbackModelFetch, TEST_FETCH_ALLOW } from '../../test/loopback-fetch';

/*
 * Staff chat and bot test suites against real databases (PGlite and PostgreSQL) and the local OpenAI-compatible
 * server (test/openai-compatible-server.ts), which speaks the OpenAI chat-completions protocol over HTTP.
 */

const REPLY = 'Parcels arrive in three days [1].';

let t: TestApp;
let server: OpenAICompatibleServer;
let runner: RunnerDeps;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'bt-a', b: 'bt-b', noRag: 'bt-norag' };
const refs = {
  bot: '',
  disabledBot: '',
  bBot: '',
  shipping: '',
  returns: '',
  qa: '',
  bSource: '',
};

const SHIPPING_Q = 'How long does delivery of parcels take?';
const RETURNS_Q = 'Can items be returned for a refund?';

const fingerprint = () =>
  tablesFingerprint(t, [
    'bot_test_cases',
    'bot_test_runs',
    'audit_log',
    'conversations',
    'conversation_messages',
    'bots',
  ]);

async function makeBot(caller: Caller, body: Record<string, unknown>) {
  const response = await injectAs(t, 'POST', '/v1/bots', caller, body);
  expect(response.statusCode, response.body).toBe(201);
  return BotSchema.parse(response.json()).id;
}

async function addCase(caller: Caller, botId: string, body: Record<string, unknown>) {
  const response = await injectAs(t, 'POST', `/v1/bots/${botId}/test-cases`, caller, body);
  expect(response.statusCode, response.body).toBe(201);
  return BotTestCaseSchema.parse(response.json());
}

const chat = (caller: Caller, botId: string, body: unknown) =>
  injectAs(t, 'POST', `/v1/bots/${botId}/chat`, caller, body);

const expectError = (response: { statusCode: number; json: () => unknown }, status: number, code: string) => {
  expect(response.statusCode).toBe(status);
  const body = response.json() as { code: string; message: string };
  expect(Object.keys(body).sort()).toEqual(['code', 'message']);
  expect(body.code).toBe(code);
};

beforeAll(async () => {
  t = await createTestApp({ env: { RAG_MODEL_TIMEOUT_MS: '3000', FETCH_ALLOW_ADDRESSES: TEST_FETCH_ALLOW } });
  server = await startOpenAICompatibleServer({ reply: REPLY });
  const secret = await loadAuthSecret(t.database.db, t.env);
  runner = {
    db: t.database.db,
    secrets: createBotSecrets(secret),
    answers: {
      db: t.database.db,
      secretBox: createSecretBox(secret, 'model-api-key'),
      modelFetch: loopbackModelFetch,
      log: t.app.log,
      sourceLinks: t.app.files.sourceLinks,
      modelTimeoutMs: 3000,
    },
    log: t.app.log,
  };
  Object.assign(who, await makeOmniragTenants(t, ids));
  const kb = await makeKnowledge(t, who.alice, 'Help', [
    {
      type: 'text',
      title: 'Shipping',
      text: 'Parcels are shipped within one day. Delivery of parcels takes three working days in Europe.',
    },
    {
      type: 'text',
      title: 'Returns',
      text: 'Items can be returned within thirty days. A refund is paid once returned items arrive.',
    },
    {
      type: 'qa',
      question: 'What are the opening hours of the shop?',
      answer: 'We open 9 to 17 on weekdays.',
    },
  ]);
  [refs.shipping, refs.returns, refs.qa] = kb.sourceIds as [string, string, string];
  const model = await makeChatModel(t, {
    name: 'Local',
    base_url: server.baseUrl,
    api_key: 'sk-local-test-key',
    tenant_ids: [ids.a, ids.b],
  });
  const rag = await injectAs(t, 'POST', '/v1/rags', who.alice, {
    name: 'Help',
    index_id: await makeIndex(t, ids.a, 'Main', [kb.id]),
    model_id: model.id,
  });
  expect(rag.statusCode, rag.body).toBe(201);
  const ragId = rag.json<{ id: string }>().id;
  refs.bot = await makeBot(who.alice, { name: 'Helper', config: { engines: { rag_id: ragId } } });
  refs.disabledBot = await makeBot(who.alice, { name: 'Draft', config: { engines: { rag_id: ragId } } });
  const disabled = await injectAs(t, 'PATCH', `/v1/bots/${refs.disabledBot}`, who.alice, { enabled: false });
  expect(disabled.statusCode, disabled.body).toBe(200);

  const bKb = await makeKnowledge(t, who.bob, 'Help', [
    { type: 'text', title: 'Shipping', text: 'Parcels of B are delivered by bicycle within the city.' },
  ]);
  refs.bSource = defined(bKb.sourceIds[0]);
  const bRag = await injectAs(t, 'POST', '/v1/rags', who.bob, {
    name: 'Help',
    index_id: await makeIndex(t, ids.b, 'Main', [bKb.id]),
  });
  refs.bBot = await makeBot(who.bob, {
    name: 'Helper',
    config: { engines: { rag_id: bRag.json<{ id: string }>().id } },
  });
});
beforeEach(() => {
  server.failure = 'none';
  server.reply = REPLY;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

describe('staff chat', () => {
  it('answers with the sources and the trace (chunks, scores, timings), recorded as a test answer, in no conversation', async () => {
    const before = await tablesFingerprint(t, ['conversations', 'conversation_messages']);
    const response = await chat(who.alice, refs.bot, {
      text: SHIPPING_Q,
      history: [
        { role: 'user', text: 'Hello there' },
        { role: 'assistant', text: 'Hi, how can I help?' },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const reply = BotChatReplySchema.parse(response.json());
    expect(reply.messages).toEqual([{ type: 'text', text: REPLY }]);
    expect(reply.fallback).toBe(false);
    expect(reply.sources.map((source) => [source.title, source.source_id])).toEqual([
      ['Shipping', refs.shipping],
    ]);
    expect(reply.trace).toMatchObject({ engine: 'builtin', error: null, kind: 'model' });
    const first = defined(reply.trace.chunks[0], 'trace chunk');
    expect(first).toMatchObject({ title: 'Shipping', source_id: refs.shipping, cited: true });
    expect(first.excerpt).toContain('Delivery of parcels takes three working days');
    expect(first.score).toBeGreaterThan(0);
    const scores = reply.trace.chunks.map((chunk) => chunk.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(reply.trace.timings.total_ms).toBeGreaterThan(0);
    expect(reply.trace.timings.total_ms).toBeGreaterThanOrEqual(reply.trace.timings.retrieve_ms);

    // The history reached the model.
    const prompt = JSON.stringify(server.requests.filter((r) => r.path === '/chat/completions').at(-1)?.body);
    expect(prompt).toContain('Hi, how can I help?');

    const [stored] = await t.database.db
      .select()
      .from(ragAnswers)
      .where(eq(ragAnswers.id, defined(reply.trace.answer_id)));
    expect(stored).toMatchObject({ channel: 'test', tenantId: ids.a });
    expect(stored?.createdBy).toMatch(/.+/);
    expect(await tablesFingerprint(t, ['conversations', 'conversation_messages'])).toBe(before);
  });

  it("shows a Q&A pair's question and answer in the trace, and talks to a disabled bot too", async () => {
    const response = await chat(who.alice, refs.disabledBot, {
      text: 'What are the opening hours of the shop?',
    });
    expect(response.statusCode, response.body).toBe(200);
    const reply = BotChatReplySchema.parse(response.json());
    expect(reply.messages[0]?.text).toBe('We open 9 to 17 on weekdays.');
    expect(reply.trace.kind).toBe('qa');
    expect(reply.trace.chunks).toEqual([
      expect.objectContaining({
        title: 'What are the opening hours of the shop?',
        excerpt: 'We open 9 to 17 on weekdays.',
        source_id: refs.qa,
        cited: true,
      }),
    ]);
  });

  it('gives the fallback with the model’s failure in the trace', async () => {
    server.failure = 'server-error';
    const reply = BotChatReplySchema.parse((await chat(who.alice, refs.bot, { text: SHIPPING_Q })).json());
    expect(reply.trace.error?.code).toMatch(/^provider\//);
    expect(reply.trace.kind).toBe('extractive');
    expect(reply.trace.chunks.length).toBeGreaterThan(0);
  });

  it('works with the tenant’s API credential', async () => {
    const key = { authorization: await basicCredential(t, ids.a) };
    const response = await chat(key, refs.bot, { text: SHIPPING_Q });
    expect(response.statusCode, response.body).toBe(200);
    const [stored] = await t.database.db
      .select({ createdBy: ragAnswers.createdBy })
      .from(ragAnswers)
      .where(eq(ragAnswers.id, defined(BotChatReplySchema.parse(response.json()).trace.answer_id)));
    expect(stored?.createdBy).toMatch(/^credential:/);
  });

  it('refuses over-long text with 413, bad input with 400, and another tenant’s bot like an unknown one', async () => {
    const before = await fingerprint();
    const answersBefore = await t.database.db.$count(ragAnswers);
    expectError(await chat(who.alice, refs.bot, { text: 'x'.repeat(4001) }), 413, 'bot/text-too-long');
    expect(ERROR_CATALOGUE['bot/text-too-long']).toBeTruthy();
    for (const body of [
      {},
      { text: '' },
      { text: '   ' },
      { text: 42 },
      { text: 'hi', extra: 1 },
      { text: 'hi', history: 'no' },
      { text: 'hi', history: [{ role: 'system', text: 'x' }] },
      { text: 'hi', history: [{ role: 'user', content: 'x' }] },
      { text: 'hi', history: [{ role: 'user', text: 'x'.repeat(4001) }] },
      { text: 'hi', history: Array.from({ length: 21 }, () => ({ role: 'user', text: 'x' })) },
      { text: 'a\u0000b' },
    ]) {
      const response = await chat(who.alice, refs.bot, body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(Object.keys(response.json<object>()).sort()).toEqual(['code', 'message']);
    }
    expectError(await chat(who.alice, 'not-a-uuid', { text: 'hi' }), 400, 'invalid_argument');
    const unknown = await chat(who.alice, randomUUID(), { text: 'hi' });
    const foreign = await chat(who.alice, refs.bBot, { text: 'hi' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(unknown.json());
    expect((await chat({}, refs.bot, { text: 'hi' })).statusCode).toBe(401);
    expect(await fingerprint()).toBe(before);
    expect(await t.database.db.$count(ragAnswers)).toBe(answersBefore);
  });

  it(
    'counts a per-user budget: one user over the limit gets 429 while another still chats',
    { timeout: 60_000 },
    async () => {
      const limited = await createTestApp({
        env: { BOT_CHAT_RATE_LIMIT: '2', FETCH_ALLOW_ADDRESSES: TEST_FETCH_ALLOW },
      });
      try {
        const users = await makeOmniragTenants(limited, { a: 'lim-a', b: 'lim-b', noRag: 'lim-n' });
        const botOf = async (caller: Caller) => {
          const response = await injectAs(limited, 'POST', '/v1/bots', caller, { name: 'Plain' });
          return BotSchema.parse(response.json()).id;
        };
        const aBot = await botOf(users.alice);
        const bBot = await botOf(users.bob);
        const say = (caller: Caller, bot: string) =>
          injectAs(limited, 'POST', `/v1/bots/${bot}/chat`, caller, { text: 'Hello' });
        expect((await say(users.alice, aBot)).statusCode).toBe(200);
        expect((await say(users.alice, aBot)).statusCode).toBe(200);
        expectError(await say(users.alice, aBot), 429, 'too_many_requests');
        const plain = BotChatReplySchema.parse((await say(users.bob, bBot)).json());
        expect(plain).toMatchObject({ fallback: true, trace: { engine: 'fallback', chunks: [] } });
        expect((await injectAs(limited, 'GET', `/v1/bots/${aBot}`, users.alice)).statusCode).toBe(200);
      } finally {
        await limited.close();
      }
    },
  );
});

describe('test cases', () => {
  it('creates, lists, updates and deletes cases with an expected text or a source of the bot’s RAG', async () => {
    const bot = await makeBot(who.alice, {
      name: 'Cases',
      config: { engines: { rag_id: await ragOfBot() } },
    });
    const sources = BotTestSourceListSchema.parse(
      (await injectAs(t, 'GET', `/v1/bots/${bot}/test-sources`, who.alice)).json(),
    );
    expect(sources.items.map((source) => source.title).sort()).toEqual([
      'Returns',
      'Shipping',
      'What are the opening hours of the shop?',
    ]);
    const byText = await addCase(who.alice, bot, { question: SHIPPING_Q, expected_text: 'three days' });
    expect(byText).toMatchObject({ expected_text: 'three days', expected_source_id: null });
    const bySource = await addCase(who.alice, bot, {
      question: RETURNS_Q,
      expected_source_id: refs.returns,
    });
    expect(bySource).toMatchObject({ expected_source_id: refs.returns, expected_source_title: 'Returns' });

    const updated = await injectAs(t, 'PATCH', `/v1/bots/${bot}/test-cases/${byText.id}`, who.alice, {
      expected_text: null,
      expected_source_id: refs.shipping,
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ expected_text: null, expected_source_title: 'Shipping' });

    const list = BotTestCaseListSchema.parse(
      (await injectAs(t, 'GET', `/v1/bots/${bot}/test-cases`, who.alice)).json(),
    );
    expect(list.items.map((item) => item.id)).toEqual([byText.id, bySource.id]);

    const removed = await injectAs(t, 'DELETE', `/v1/bots/${bot}/test-cases/${bySource.id}`, who.alice);
    expect(removed.statusCode).toBe(204);
    const after = BotTestCaseListSchema.parse(
      (await injectAs(t, 'GET', `/v1/bots/${bot}/test-cases`, who.alice)).json(),
    );
    expect(after.items.map((item) => item.id)).toEqual([byText.id]);
    // A bot without a RAG offers no sources.
    const plain = await makeBot(who.alice, { name: 'No RAG' });
    expect((await injectAs(t, 'GET', `/v1/bots/${plain}/test-sources`, who.alice)).json()).toEqual({
      items: [],
    });
  });

  it('refuses bad input and another tenant’s bots, cases and sources, changing nothing', async () => {
    const own = await addCase(who.alice, refs.bot, { question: 'Own case', expected_text: 'x' });
    const bobs = await addCase(who.bob, refs.bBot, { question: 'Bob case', expected_text: 'y' });
    const before = await fingerprint();
    const url = `/v1/bots/${refs.bot}/test-cases`;
    for (const body of [
      { question: 'No expectation' },
      { question: 'Both null', expected_text: null, expected_source_id: null },
      { question: '', expected_text: 'x' },
      { question: 'x', expected_text: '   ' },
      { question: 'x', expected_source_id: 'nope' },
      { question: 'x', expected_text: 'y', extra: true },
      { question: 'x'.repeat(2001), expected_text: 'y' },
      { question: 'a\u0000', expected_text: 'y' },
    ]) {
      const response = await injectAs(t, 'POST', url, who.alice, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    expectError(
      await injectAs(t, 'POST', url, who.alice, { question: 'x', expected_source_id: refs.bSource }),
      400,
      'bot-test/unknown-source',
    );
    expectError(
      await injectAs(t, 'POST', url, who.alice, { question: 'x', expected_source_id: randomUUID() }),
      400,
      'bot-test/unknown-source',
    );
    expectError(
      await injectAs(t, 'PATCH', `${url}/${own.id}`, who.alice, { expected_text: null }),
      400,
      'bot-test/no-expectation',
    );
    expectError(
      await injectAs(t, 'PATCH', `${url}/${own.id}`, who.alice, { expected_source_id: refs.bSource }),
      400,
      'bot-test/unknown-source',
    );

    // Another tenant's bot and case: the same 404 as unknown ids.
    const unknownBot = await injectAs(t, 'GET', `/v1/bots/${randomUUID()}/test-cases`, who.alice);
    for (const [method, path, body] of [
      ['GET', `/v1/bots/${refs.bBot}/test-cases`, undefined],
      ['POST', `/v1/bots/${refs.bBot}/test-cases`, { question: 'x', expected_text: 'y' }],
      ['GET', `/v1/bots/${refs.bBot}/test-sources`, undefined],
      ['GET', `/v1/bots/${refs.bBot}/test-runs`, undefined],
      ['POST', `/v1/bots/${refs.bBot}/test-runs`, undefined],
      ['PATCH', `/v1/bots/${refs.bBot}/test-cases/${bobs.id}`, { expected_text: 'z' }],
      ['DELETE', `/v1/bots/${refs.bBot}/test-cases/${bobs.id}`, undefined],
    ] as const) {
      const response = await injectAs(t, method, path, who.alice, body);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
      expect(response.json()).toEqual(unknownBot.json());
    }
    // Bob's case under Alice's own bot is an unknown case.
    const unknownCase = await injectAs(t, 'PATCH', `${url}/${randomUUID()}`, who.alice, {
      expected_text: 'z',
    });
    expect(unknownCase.statusCode).toBe(404);
    for (const method of ['PATCH', 'DELETE'] as const) {
      const mixed = await injectAs(t, method, `${url}/${bobs.id}`, who.alice, { expected_text: 'z' });
      expect(mixed.statusCode).toBe(404);
      expect(mixed.json()).toEqual(unknownCase.json());
    }
    expect((await injectAs(t, 'GET', url, {})).statusCode).toBe(401);
    expect(await fingerprint()).toBe(before);
  });

  it(`holds at most ${BOT_TEST_CASES_MAX} cases per bot (409 bot-test/too-many-cases)`, async () => {
    const bot = await makeBot(who.alice, { name: 'Full' });
    await t.database.db.insert(botTestCases).values(
      Array.from({ length: BOT_TEST_CASES_MAX - 1 }, (_, n) => ({
        tenantId: ids.a,
        botId: bot,
        question: `Question ${n}`,
        expectedText: 'x',
      })),
    );
    await addCase(who.alice, bot, { question: 'The last one', expected_text: 'x' });
    expectError(
      await injectAs(t, 'POST', `/v1/bots/${bot}/test-cases`, who.alice, {
        question: 'One more',
        expected_text: 'x',
      }),
      409,
      'bot-test/too-many-cases',
    );
  });
});

describe('test runs', () => {
  it('judges each case by its expected text and source, one run at a time, with the history newest first', async () => {
    const bot = await makeBot(who.alice, {
      name: 'Suite',
      config: { engines: { rag_id: await ragOfBot() } },
    });
    expectError(await injectAs(t, 'POST', `/v1/bots/${bot}/test-runs`, who.alice), 400, 'bot-test/no-cases');
    const cases = [
      await addCase(who.alice, bot, { question: SHIPPING_Q, expected_text: '  THREE \n  days ' }),
      await addCase(who.alice, bot, { question: SHIPPING_Q, expected_text: 'next week' }),
      await addCase(who.alice, bot, { question: SHIPPING_Q, expected_source_id: refs.shipping }),
      await addCase(who.alice, bot, { question: SHIPPING_Q, expected_source_id: refs.returns }),
      await addCase(who.alice, bot, {
        question: RETURNS_Q,
        expected_text: 'parcels',
        expected_source_id: refs.returns,
      }),
    ];
    const started = await injectAs(t, 'POST', `/v1/bots/${bot}/test-runs`, who.alice);
    expect(started.statusCode, started.body).toBe(202);
    const run = BotTestRunSchema.parse(started.json());
    expect(run).toMatchObject({ status: 'queued', total: 5, passed: 0, failed: 0, results: [] });
    expectError(
      await injectAs(t, 'POST', `/v1/bots/${bot}/test-runs`, who.alice),
      409,
      'bot-test/run-in-progress',
    );

    await runTestRun(runner, { tenantId: ids.a, runId: run.id });
    const done = BotTestRunSchema.parse(
      (await injectAs(t, 'GET', `/v1/test-runs/${run.id}`, who.alice)).json(),
    );
    expect(done).toMatchObject({ status: 'done', total: 5, passed: 3, failed: 2, error: null });
    expect(done.started_at).not.toBeNull();
    expect(done.finished_at).not.toBeNull();
    expect(done.results.map((result) => [result.case_id, result.pass])).toEqual([
      [cases[0]?.id, true],
      [cases[1]?.id, false],
      [cases[2]?.id, true],
      [cases[3]?.id, false],
      [cases[4]?.id, true],
    ]);
    expect(done.results[0]?.answer).toBe(REPLY);
    expect(done.results[1]?.reason).toBe('The answer does not contain "next week".');
    expect(done.results[2]?.reason).toBe('The answer cites "Shipping".');
    expect(done.results[3]?.reason).toBe('The answer does not cite "Returns".');
    expect(done.results[4]?.reason).toBe('The answer contains the expected text and cites "Returns".');
    expect(done.results[4]?.cited_source_ids).toEqual([refs.returns]);
    const answers = await t.database.db
      .select({ channel: ragAnswers.channel })
      .from(ragAnswers)
      .where(and(eq(ragAnswers.tenantId, ids.a), eq(ragAnswers.question, RETURNS_Q)));
    expect(answers.every((row) => row.channel === 'test')).toBe(true);

    // The next run may start now; the history lists both, newest first.
    const second = BotTestRunSchema.parse(
      (await injectAs(t, 'POST', `/v1/bots/${bot}/test-runs`, who.alice, {})).json(),
    );
    await runTestRun(runner, { tenantId: ids.a, runId: second.id });
    const history = BotTestRunListSchema.parse(
      (await injectAs(t, 'GET', `/v1/bots/${bot}/test-runs`, who.alice)).json(),
    );
    expect(history.items.map((item) => [item.id, item.status])).toEqual([
      [second.id, 'done'],
      [run.id, 'done'],
    ]);
    // Another tenant's run is unknown.
    const foreign = await injectAs(t, 'GET', `/v1/test-runs/${run.id}`, who.bob);
    const unknown = await injectAs(t, 'GET', `/v1/test-runs/${randomUUID()}`, who.bob);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(unknown.json());
    expect((await injectAs(t, 'GET', '/v1/test-runs/nope', who.bob)).statusCode).toBe(400);
    expectError(
      await injectAs(t, 'POST', `/v1/bots/${bot}/test-runs`, who.alice, { extra: 1 }),
      400,
      'invalid_argument',
    );
  });

  it('fails what a restart left running, and a run whose job comes again is left alone', async () => {
    const bot = await makeBot(who.alice, { name: 'Interrupted' });
    await addCase(who.alice, bot, { question: 'Hello', expected_text: 'x' });
    const [left] = await t.database.db
      .insert(botTestRuns)
      .values({ tenantId: ids.a, botId: bot, status: 'running', total: 1, startedAt: new Date() })
      .returning();
    const run = defined(left);
    expectError(
      await injectAs(t, 'POST', `/v1/bots/${bot}/test-runs`, who.alice),
      409,
      'bot-test/run-in-progress',
    );
    expect(await failInterruptedRuns(t.database.db)).toBeGreaterThanOrEqual(1);
    const failed = BotTestRunSchema.parse(
      (await injectAs(t, 'GET', `/v1/test-runs/${run.id}`, who.alice)).json(),
    );
    expect(failed).toMatchObject({ status: 'failed', error: INTERRUPTED });
    expect(failed.finished_at).not.toBeNull();
    await runTestRun(runner, { tenantId: ids.a, runId: run.id });
    expect(
      BotTestRunSchema.parse((await injectAs(t, 'GET', `/v1/test-runs/${run.id}`, who.alice)).json()).status,
    ).toBe('failed');
    expect((await injectAs(t, 'POST', `/v1/bots/${bot}/test-runs`, who.alice)).statusCode).toBe(202);
  });
});

describe('judging', () => {
  const reply = (text: string, sourceIds: string[], fallback = false) => ({
    messages: [{ type: 'text' as const, text }],
    sources: sourceIds.map((id, n) => ({
      n: n + 1,
      chunk_id: id,
      source_id: id,
      knowledge_id: 'kb',
      title: id,
      url: null,
      heading_path: [],
      page: null,
      score: 1,
    })),
    fallback,
    trace: {
      engine: 'builtin' as const,
      error: fallback ? { code: 'x', reason: 'The model was down.' } : null,
      answerId: null,
      ms: 1,
    },
  });
  const title = (id: string) => `"${id}"`;

  it('compares text without regard to case and runs of whitespace, and needs the expected source cited', () => {
    expect(normaliseForJudging('  Three\n\tDAYS ')).toBe('three days');
    const text = (expected: string, answer: string) =>
      judge({ expectedText: expected, expectedSourceId: null }, reply(answer, []), title).pass;
    expect(text('three days', 'It takes Three\n days.')).toBe(true);
    expect(text('ＴＨＲＥＥ days', 'three days')).toBe(true);
    expect(text('three days', 'threedays')).toBe(false);
    expect(text('four days', 'three days')).toBe(false);
    const source = (expected: string, cited: string[]) =>
      judge({ expectedText: null, expectedSourceId: expected }, reply('x', cited), title);
    expect(source('s1', ['s2', 's1']).pass).toBe(true);
    expect(source('s1', ['s2']).reason).toBe('The answer does not cite "s1".');
    expect(source('s1', []).reason).toBe('The answer cites no source (expected "s1").');
    const both = judge({ expectedText: 'yes', expectedSourceId: 's1' }, reply('yes', []), title);
    expect(both).toMatchObject({ pass: false, reason: 'The answer cites no source (expected "s1").' });
    const fellBack = judge({ expectedText: 'yes', expectedSourceId: null }, reply('Sorry', [], true), title);
    expect(fellBack.reason).toBe(
      'The answer does not contain "yes". The bot gave its fallback text: The model was down.',
    );
  });
});

describe('test runs through the job queue', () => {
  it('works a queued run in the background until it is done', { timeout: 60_000 }, async () => {
    const withJobs = await createTestApp({
      env: { FETCH_ALLOW_ADDRESSES: TEST_FETCH_ALLOW },
      jobs: { pollingIntervalSeconds: 1 },
    });
    try {
      const users = await makeOmniragTenants(withJobs, { a: 'job-a', b: 'job-b', noRag: 'job-n' });
      const created = await injectAs(withJobs, 'POST', '/v1/bots', users.alice, {
        name: 'Plain',
        config: { engines: { fallbackText: 'Nobody knows that yet.' } },
      });
      const bot = BotSchema.parse(created.json()).id;
      const add = await injectAs(withJobs, 'POST', `/v1/bots/${bot}/test-cases`, users.alice, {
        question: 'Anything?',
        expected_text: 'nobody KNOWS',
      });
      expect(add.statusCode, add.body).toBe(201);
      const started = await injectAs(withJobs, 'POST', `/v1/bots/${bot}/test-runs`, users.alice);
      expect(started.statusCode, started.body).toBe(202);
      const id = BotTestRunSchema.parse(started.json()).id;
      let run = BotTestRunSchema.parse(started.json());
      for (let tries = 0; tries < 200 && (run.status === 'queued' || run.status === 'running'); tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        run = BotTestRunSchema.parse(
          (await injectAs(withJobs, 'GET', `/v1/test-runs/${id}`, users.alice)).json(),
        );
      }
      expect(run).toMatchObject({ status: 'done', total: 1, passed: 1, failed: 0 });
      expect(run.results[0]?.answer).toBe('Nobody knows that yet.');
    } finally {
      await withJobs.close();
    }
  });
});

/** The RAG of the first bot (the one over the Help knowledge base). */
async function ragOfBot(): Promise<string> {
  const response = await injectAs(t, 'GET', `/v1/bots/${refs.bot}`, who.alice);
  return BotSchema.parse(response.json()).config.engines.rag_id ?? '';
}
