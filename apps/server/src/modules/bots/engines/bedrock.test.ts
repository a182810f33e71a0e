import { BotSchema, IntegrationSchema, IntentReplySchema } from '@omnibot/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadAuthSecret } from '../../../bootstrap';
import { conversationMessages, ragAnswers } from '../../../db/schema';
import { type Caller, createTestApp, injectAs, type TestApp } from '../../../test/app';
import {
  type BedrockConverseBody,
  type BedrockFakeFailure,
  type BedrockRuntimeServer,
  startBedrockRuntimeServer,
} from '../../../test/bedrock-runtime-server';
import { makeOmniragTenants } from '../../accounts/accounts.fixtures';
import { makeIndex, makeKnowledge, parseEvents, streamedText } from '../../rag/rags.test-support';
import { createConversationTokens, type ConversationTokens } from '../../widget/conversation-token';

/*
 * Bots answering with Amazon Bedrock through the real POST /v1/intent (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL). Bedrock is test/bedrock-runtime-server.ts, a local server speaking the Bedrock runtime's
 * REST-JSON API (Converse, and ConverseStream as event-stream frames) that verifies every request's SigV4 signature
 * or Bedrock API key; the official @aws-sdk/client-bedrock-runtime reaches it through the endpoint override.
 */

const FALLBACK = 'Sorry, Bedrock bot has no answer now.';

let t: TestApp;
let bedrock: BedrockRuntimeServer;
let tokens: ConversationTokens;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'bedrock-a', b: 'bedrock-b', noRag: 'bedrock-norag' };
const refs = { sigv4: '', apiKey: '', rag: '' };
let lastAddress = 0;
const nextAddress = () => `10.8.${Math.floor(++lastAddress / 250)}.${(lastAddress % 250) + 1}`;

function post(payload: Record<string, unknown>, stream = false) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/intent',
    remoteAddress: nextAddress(),
    headers: { 'content-type': 'application/json', ...(stream ? { accept: 'text/event-stream' } : {}) },
    payload: JSON.stringify(payload),
  });
}

async function ask(botId: string, text: string, extra: Record<string, unknown> = {}) {
  const response = await post({ botId, text, ...extra });
  expect(response.statusCode, response.body).toBe(200);
  return IntentReplySchema.parse(response.json());
}

async function integration(name: string, settings: Record<string, unknown>) {
  const response = await injectAs(t, 'POST', '/v1/integrations', who.alice, {
    name,
    engine: 'bedrock',
    settings: {
      region: bedrock.region,
      model: bedrock.modelId,
      endpoint: bedrock.baseUrl,
      max_tokens: 300,
      temperature: 0.2,
      ...settings,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return IntegrationSchema.parse(response.json()).id;
}

async function makeBot(name: string, integrationId: string, engines: Record<string, unknown> = {}) {
  const response = await injectAs(t, 'POST', '/v1/bots', who.alice, {
    name,
    config: {
      identity: { botName: 'Rocky' },
      engines: { botEngine: 'bedrock', integration_id: integrationId, fallbackText: FALLBACK, ...engines },
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return BotSchema.parse(response.json()).id;
}

async function traceOf(token: string, botId: string) {
  const rows = await t.database.db
    .select()
    .from(conversationMessages)
    .where(
      and(
        eq(conversationMessages.conversationId, tokens.verify(token, botId) ?? 'none'),
        eq(conversationMessages.role, 'bot'),
      ),
    )
    .orderBy(asc(conversationMessages.createdAt));
  return rows.at(-1)?.trace ?? null;
}

const lastConverse = () => bedrock.requests.filter((request) => request.body !== null).at(-1);
const textOf = (body: BedrockConverseBody | null | undefined) =>
  body?.messages
    .at(-1)
    ?.content.map((block) => block.text ?? '')
    .join('') ?? '';

beforeAll(async () => {
  t = await createTestApp({
    env: {
      FETCH_ALLOW_ADDRESSES: '127.0.0.1',
      RAG_MODEL_TIMEOUT_MS: '1500',
      WIDGET_RATE_LIMIT_CONVERSATION: '100',
    },
  });
  bedrock = await startBedrockRuntimeServer();
  tokens = createConversationTokens(await loadAuthSecret(t.database.db, t.env));
  Object.assign(who, await makeOmniragTenants(t, ids));
  refs.sigv4 = await integration('Claude', {
    auth: 'sigv4',
    access_key_id: bedrock.keys.accessKeyId,
    secret_access_key: bedrock.keys.secretAccessKey,
  });
  refs.apiKey = await integration('Claude by API key', { auth: 'api_key', api_key: bedrock.apiKey });
  const kb = await makeKnowledge(t, who.alice, 'Help', [
    { type: 'text', title: 'Shipping', text: 'Delivery of parcels takes three working days in Europe.' },
  ]);
  const rag = await injectAs(t, 'POST', '/v1/rags', who.alice, {
    name: 'Help',
    index_id: await makeIndex(t, ids.a, 'Main', [kb.id]),
  });
  expect(rag.statusCode, rag.body).toBe(201);
  refs.rag = rag.json<{ id: string }>().id;
});
beforeEach(() => {
  bedrock.clearFailures();
  bedrock.reply = (body) => `${body.messages.length} messages; you said ${textOf(body)}`;
});
afterAll(async () => {
  await bedrock.close();
  await t.close();
});

describe('a bot answering with Amazon Bedrock', () => {
  it('holds a conversation of more than 20 turns with Converse, its history and limits, through /v1/intent', async () => {
    const botId = await makeBot('Claude bot', refs.sigv4);
    let token: string | undefined;
    for (let turn = 1; turn <= 22; turn += 1) {
      const reply = await ask(botId, `Question number ${turn}`, {
        language: 'fr',
        ...(token === undefined ? {} : { conversationToken: token }),
      });
      token = reply.conversationToken;
      // The last 10 messages are the history, then the question.
      const sent = Math.min(2 * turn - 1, 11);
      expect(reply).toMatchObject({
        fallback: false,
        messages: [{ text: `${sent} messages; you said Question number ${turn}` }],
      });
      const body = lastConverse()?.body;
      expect(body?.messages).toHaveLength(sent);
      expect(body?.inferenceConfig).toEqual({ maxTokens: 300, temperature: 0.2 });
      expect(body?.system?.[0]?.text).toBe(
        'You are Rocky, a helpful assistant. Answer in the language "fr".',
      );
    }
    expect(await traceOf(token ?? '', botId)).toMatchObject({ engine: 'bedrock', error: null });
    expect(bedrock.requests.every((request) => request.auth === 'sigv4')).toBe(true);
  });

  it('signs with the Bedrock API key as a bearer token when the integration has one', async () => {
    const botId = await makeBot('Claude by key', refs.apiKey);
    const reply = await ask(botId, 'Hi there');
    expect(reply.messages[0]?.text).toBe('1 messages; you said Hi there');
    expect(bedrock.requests.at(-1)?.auth).toBe('bearer');
  });

  it('streams ConverseStream deltas to the widget as server-sent events', async () => {
    const botId = await makeBot('Claude streamed', refs.sigv4);
    bedrock.reply = ['Parcels ', 'arrive ', 'in three ', 'days.'];
    const response = await post({ botId, text: 'How long?' }, true);
    expect(response.statusCode).toBe(200);
    const events = parseEvents(response.body);
    expect(events.filter((event) => event.event === 'delta')).toHaveLength(4);
    expect(streamedText(events)).toBe('Parcels arrive in three days.');
    const reply = IntentReplySchema.parse(events.find((event) => event.event === 'reply')?.data);
    expect(reply).toMatchObject({ fallback: false, messages: [{ text: 'Parcels arrive in three days.' }] });
    expect(bedrock.requests.at(-1)?.path).toBe(
      `/model/${encodeURIComponent(bedrock.modelId)}/converse-stream`,
    );
  });

  it('drops a stream cut mid-answer or broken by an exception frame for the fallback text', async () => {
    const botId = await makeBot('Claude cut', refs.sigv4, { enableliveagent: true, liveagent: 'inbox' });
    bedrock.reply = ['Parcels ', 'arrive ', 'soon.'];
    for (const [failure, reason] of [
      ['stream-cut', /^Amazon Bedrock ended the stream mid-answer/u],
      [
        'stream-exception',
        /stopped the answer with ModelStreamErrorException, the model failed while streaming: The model stopped mid-answer\./u,
      ],
    ] as const) {
      bedrock.failNext(failure);
      const response = await post({ botId, text: 'How long?' }, true);
      expect(response.statusCode, failure).toBe(200);
      const events = parseEvents(response.body);
      const reset = events.findLastIndex((event) => event.event === 'reset');
      expect(reset, failure).toBeGreaterThan(0);
      // What was shown before the reset is dropped; the fallback text follows it.
      expect(streamedText(events.slice(reset)), failure).toBe(FALLBACK);
      const reply = IntentReplySchema.parse(events.find((event) => event.event === 'reply')?.data);
      // A fallback while live agents are on offers a person.
      expect(reply, failure).toMatchObject({
        fallback: true,
        handoverOffered: true,
        messages: [{ text: FALLBACK }],
      });
      const trace = await traceOf(reply.conversationToken, botId);
      expect(trace?.error?.reason, failure).toMatch(reason);
    }
  });

  it('writes the answer from the RAG passages with citations when the bot has a RAG', async () => {
    const botId = await makeBot('Claude with RAG', refs.sigv4, { rag_id: refs.rag });
    bedrock.reply = (body) =>
      textOf(body).includes('Delivery of parcels takes three working days')
        ? 'Parcels take three working days [1].'
        : 'I was given no passages.';
    const reply = await ask(botId, 'How long does delivery of parcels take?');
    expect(reply).toMatchObject({
      fallback: false,
      messages: [{ text: 'Parcels take three working days [1].' }],
      sources: [{ n: 1, title: 'Shipping' }],
    });
    const trace = await traceOf(reply.conversationToken, botId);
    expect(trace).toMatchObject({ engine: 'bedrock', error: null });
    // The widget's answers are recorded after the reply.
    await expect
      .poll(async () => {
        const [stored] = await t.database.db
          .select()
          .from(ragAnswers)
          .where(eq(ragAnswers.id, trace?.answer_id ?? '00000000-0000-4000-8000-000000000000'));
        return stored && { kind: stored.kind, channel: stored.channel };
      })
      .toEqual({ kind: 'model', channel: 'widget' });
    // Bedrock failing on a RAG answer: the bot's fallback text, not an extract.
    bedrock.failNext(429);
    const failed = await ask(botId, 'How long does delivery of parcels take?');
    expect(failed).toMatchObject({ fallback: true, messages: [{ text: FALLBACK }], sources: [] });
    expect((await traceOf(failed.conversationToken, botId))?.error?.code).toBe('provider/rate-limited');
  });

  it('answers every failure with the fallback text and the reason on the turn, never a 5xx', async () => {
    const botId = await makeBot('Claude failing', refs.sigv4);
    const cases: [BedrockFakeFailure, string, RegExp][] = [
      [401, 'provider/unauthorized', /HTTP 401 UnrecognizedClientException/u],
      [403, 'provider/unauthorized', /HTTP 403 AccessDeniedException/u],
      [429, 'provider/rate-limited', /HTTP 429 ThrottlingException, too many requests/u],
      [500, 'provider/error', /HTTP 500 InternalServerException/u],
      [503, 'provider/error', /HTTP 503 ServiceUnavailableException/u],
      ['hang', 'provider/timeout', /Amazon Bedrock did not answer within 1\.5 s/u],
      ['malformed', 'provider/bad-response', /Amazon Bedrock sent an answer that cannot be read/u],
    ];
    for (const [failure, code, reason] of cases) {
      bedrock.failNext(failure);
      const reply = await ask(botId, 'hello');
      expect(reply, String(failure)).toMatchObject({ fallback: true, messages: [{ text: FALLBACK }] });
      const trace = await traceOf(reply.conversationToken, botId);
      expect(trace?.error?.code, String(failure)).toBe(code);
      expect(trace?.error?.reason, String(failure)).toMatch(reason);
    }
    // An empty answer is no answer.
    bedrock.reply = '';
    const empty = await ask(botId, 'hello');
    expect(empty.fallback).toBe(true);
    // A wrong API key, in plain words, and the key is nowhere in logs.
    const wrong = await makeBot(
      'Claude wrong key',
      await integration('Claude, wrong key', {
        auth: 'api_key',
        api_key: 'ABSKwrong-bedrock-api-key-000000000000',
      }),
    );
    const refused = await ask(wrong, 'hello');
    expect(refused.fallback).toBe(true);
    expect((await traceOf(refused.conversationToken, wrong))?.error).toMatchObject({
      code: 'provider/unauthorized',
    });
    const logs = JSON.stringify(t.logs);
    for (const secret of [bedrock.apiKey, bedrock.keys.secretAccessKey, 'ABSKwrong-bedrock-api-key']) {
      expect(logs).not.toContain(secret);
    }
  });
});
