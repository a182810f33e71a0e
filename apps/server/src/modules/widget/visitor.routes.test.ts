import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { BotOriginListSchema, BotSchema, IntentReplySchema, VISITOR_TEXT_MAX } from '@omnibot/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadAuthSecret } from '../../bootstrap';
import {
  botOrigins,
  conversationMessages,
  conversations,
  messageFeedback,
  ragAnswers,
  tenants,
} from '../../db/schema';
import {
  type Caller,
  createTestApp,
  injectAs,
  tablesFingerprint,
  TEST_ORIGIN,
  type TestApp,
} from '../../test/app';
import {
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
} from '../../test/openai-compatible-server';
import { type LibreTranslateServer, startLibreTranslateServer } from '../../test/libretranslate-server';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { makeChatModel, makeIndex, makeKnowledge, parseEvents, streamedText } from '../rag/rags.test-support';
import { SIGHTINGS_PER_ADDRESS } from '../widget/widget-access';
import { type ConversationTokens, createConversationTokens } from './conversation-token';
import { ORIGINS_PER_BOT_MAX } from '../bots/bot-origins';

/*
 * The visitor routes against the real app (PGlite, or PostgreSQL with TEST_DATABASE_URL). Chat answers come from a
 * local server that speaks the OpenAI chat-completions protocol (streamed and not) over HTTP.
 */

const SITE = 'https://shop.example.com';
const EVIL = 'https://evil.example.net';
const FALLBACK = 'Sorry, nothing on that.';
const ANSWER = 'Parcels arrive in three working days [1].';
const LIMIT_IP = 12;
const LIMIT_CONVERSATION = 6;

let t: TestApp;
let server: OpenAICompatibleServer;
let libre: LibreTranslateServer;
let tokens: ConversationTokens;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'visit-a', b: 'visit-b', noRag: 'visit-norag' };
const refs = { rag: '' };
let lastAddress = 0;
/** A fresh client address, so each test has its own rate-limit budget. */
const nextAddress = () => `10.0.${Math.floor(++lastAddress / 250)}.${(lastAddress % 250) + 1}`;

type Body = Record<string, unknown>;
interface PostOptions {
  address?: string;
  origin?: string;
  stream?: boolean;
}

function post(url: string, payload: Body | string, options: PostOptions = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    remoteAddress: options.address ?? nextAddress(),
    headers: {
      'content-type': 'application/json',
      ...(options.origin === undefined ? {} : { origin: options.origin }),
      ...(options.stream ? { accept: 'text/event-stream' } : {}),
    },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

async function ask(botId: string, text: string, extra: Body = {}, options: PostOptions = {}) {
  const response = await post('/v1/intent', { botId, text, ...extra }, options);
  expect(response.statusCode, response.body).toBe(200);
  return IntentReplySchema.parse(response.json());
}

async function createBot(caller: Caller, body: Body) {
  const response = await injectAs(t, 'POST', '/v1/bots', caller, body);
  expect(response.statusCode, response.body).toBe(201);
  return BotSchema.parse(response.json());
}

async function messagesOf(conversationId: string) {
  return t.database.db
    .select()
    .from(conversationMessages)
    .where(eq(conversationMessages.conversationId, conversationId))
    .orderBy(asc(conversationMessages.createdAt));
}

const TABLES = ['conversations', 'conversation_messages', 'message_feedback', 'bot_origins'];
const fingerprint = () => tablesFingerprint(t, TABLES);
const conversationIdOf = (token: string, botId: string) => tokens.verify(token, botId) ?? 'none';

beforeAll(async () => {
  t = await createTestApp({
    env: {
      WIDGET_RATE_LIMIT_IP: String(LIMIT_IP),
      WIDGET_RATE_LIMIT_CONVERSATION: String(LIMIT_CONVERSATION),
      RAG_MODEL_TIMEOUT_MS: '5000',
      FETCH_ALLOW_ADDRESSES: '127.0.0.1',
    },
  });
  libre = await startLibreTranslateServer();
  tokens = createConversationTokens(await loadAuthSecret(t.database.db, t.env));
  server = await startOpenAICompatibleServer({ reply: ANSWER });
  Object.assign(who, await makeOmniragTenants(t, ids));
  const kb = await makeKnowledge(t, who.alice, 'Help', [
    {
      type: 'text',
      title: 'Shipping',
      text: 'Parcels are shipped within one day. Delivery of parcels takes three working days in Europe.',
    },
  ]);
  const model = await makeChatModel(t, {
    name: 'Local',
    base_url: server.baseUrl,
    api_key: 'sk-local-test-key',
    tenant_ids: [ids.a],
  });
  const rag = await injectAs(t, 'POST', '/v1/rags', who.alice, {
    name: 'Help',
    index_id: await makeIndex(t, ids.a, 'Main', [kb.id]),
    model_id: model.id,
    fallback_text: FALLBACK,
  });
  expect(rag.statusCode, rag.body).toBe(201);
  refs.rag = rag.json<{ id: string }>().id;
});
beforeEach(() => {
  server.failure = 'none';
});
afterAll(async () => {
  await libre.close();
  await server.close();
  await t.close();
});

describe('POST /v1/intent', () => {
  it('starts a conversation, answers from the knowledge with sources, and continues it with the token', async () => {
    const bot = await createBot(who.alice, { name: 'Shop', config: { engines: { rag_id: refs.rag } } });
    const first = await ask(bot.id, 'How long does delivery of parcels take?');
    expect(first).toMatchObject({
      visitorMessage: { text: 'How long does delivery of parcels take?' },
      messages: [{ text: ANSWER }],
      sources: [{ n: 1, title: 'Shipping', url: null }],
      fallback: false,
      handoverOffered: false,
      language: 'en',
    });
    const conversationId = conversationIdOf(first.conversationToken, bot.id);
    const second = await ask(bot.id, 'And when are they shipped?', {
      conversationToken: first.conversationToken,
    });
    expect(second.conversationToken).toBe(first.conversationToken);

    // The second question reached the model with the first turn as history.
    const chat = server.requests.filter((request) => request.path === '/chat/completions').at(-1);
    expect(JSON.stringify(chat?.body)).toContain('How long does delivery of parcels take?');

    const [row] = await t.database.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, conversationId));
    expect(row).toMatchObject({ tenantId: ids.a, botId: bot.id, messageCount: 4, language: 'en' });
    const stored = await messagesOf(conversationId);
    expect(stored.map((message) => [message.role, message.text])).toEqual([
      ['visitor', 'How long does delivery of parcels take?'],
      ['bot', ANSWER],
      ['visitor', 'And when are they shipped?'],
      ['bot', ANSWER],
    ]);
    expect(stored.map((message) => message.id)).toEqual([
      first.visitorMessage.id,
      first.messages[0]?.id,
      second.visitorMessage.id,
      second.messages[0]?.id,
    ]);
    const answerRow = stored[1];
    expect(answerRow?.sources[0]).toMatchObject({ n: 1, title: 'Shipping' });
    expect(answerRow?.trace).toMatchObject({ engine: 'builtin', error: null });
    await t.app.ragAnswers.flush();
    const [recorded] = await t.database.db
      .select()
      .from(ragAnswers)
      .where(eq(ragAnswers.id, answerRow?.trace?.answer_id ?? ''));
    expect(recorded).toMatchObject({ channel: 'widget', createdBy: null });
  });

  it('gives the fallback and offers an agent, and answers in the language asked for', async () => {
    const bot = await createBot(who.alice, {
      name: 'Fallback',
      config: { engines: { enableliveagent: true, liveagent: 'inbox', fallbackText: 'No idea, sorry.' } },
    });
    const reply = await ask(bot.id, 'Anything?', { language: 'fr' });
    expect(reply).toMatchObject({
      messages: [{ text: 'No idea, sorry.' }],
      fallback: true,
      handoverOffered: true,
      language: 'fr',
    });
    const stored = await messagesOf(conversationIdOf(reply.conversationToken, bot.id));
    expect(stored[1]).toMatchObject({ role: 'bot', fallback: true, language: 'fr' });
  });

  it("answers with the bot's own fallback text when its RAG finds nothing, streamed and stored, never the RAG's", async () => {
    const bot = await createBot(who.alice, {
      name: 'Own fallback',
      config: { engines: { rag_id: refs.rag, fallbackText: 'Please ask about parcels.' } },
    });
    const reply = await ask(bot.id, 'Zebra xylophone quantum');
    expect(reply).toMatchObject({
      messages: [{ text: 'Please ask about parcels.' }],
      fallback: true,
      handoverOffered: false,
    });
    const response = await post(
      '/v1/intent',
      { botId: bot.id, text: 'Zebra xylophone quantum' },
      { stream: true },
    );
    const events = parseEvents(response.body);
    const streamed = streamedText(events);
    expect(streamed).toBe('Please ask about parcels.');
    expect(JSON.stringify(events)).not.toContain(FALLBACK);
    const stored = await messagesOf(conversationIdOf(reply.conversationToken, bot.id));
    expect(stored[1]).toMatchObject({ role: 'bot', text: 'Please ask about parcels.', fallback: true });
  });

  it('with autoTranslate, answers a visitor in the language they wrote in, and in its own when translation fails', async () => {
    const bot = await createBot(who.alice, {
      name: 'Translating',
      config: {
        language: { autoTranslate: true },
        engines: { translateEngine: 'libretranslate', fallbackText: 'No idea, sorry.' },
        libretranslate: { url: libre.url },
      },
    });
    // The LibreTranslate-protocol server detects French and marks what it translates with the target code.
    const french = await ask(bot.id, 'bonjour');
    expect(french).toMatchObject({ messages: [{ text: '[fr] No idea, sorry.' }], language: 'fr' });
    const stored = await messagesOf(conversationIdOf(french.conversationToken, bot.id));
    expect(stored.map((message) => [message.role, message.text, message.language])).toEqual([
      ['visitor', 'bonjour', 'fr'],
      ['bot', '[fr] No idea, sorry.', 'fr'],
    ]);
    expect(libre.requests.map((request) => request.body.target ?? 'detect')).toContain('en');

    const english = await ask(bot.id, 'hello');
    expect(english).toMatchObject({ messages: [{ text: 'No idea, sorry.' }], language: 'en' });

    libre.failure = 'server-error';
    try {
      const untranslated = await ask(bot.id, 'merci');
      expect(untranslated).toMatchObject({ messages: [{ text: 'No idea, sorry.' }], language: 'en' });
    } finally {
      libre.failure = 'none';
    }
  });

  it('with autoTranslate and a LibreTranslate server, answers a German question to an English RAG bot in German', async () => {
    const bot = await createBot(who.alice, {
      name: 'Translating RAG',
      config: {
        language: { autoTranslate: true },
        engines: { rag_id: refs.rag, translateEngine: 'libretranslate' },
        libretranslate: { url: libre.url },
      },
    });
    const chatsBefore = server.requests.filter((request) => request.path === '/chat/completions').length;
    const reply = await ask(bot.id, 'Wie lange dauert die Lieferung von Paketen?');
    expect(reply).toMatchObject({
      messages: [{ text: `[de] ${ANSWER}` }],
      fallback: false,
      language: 'de',
      sources: [{ n: 1, title: 'Shipping' }],
    });
    // The RAG's model was asked the English question.
    const chats = server.requests.filter((request) => request.path === '/chat/completions');
    expect(chats.length).toBe(chatsBefore + 1);
    expect(JSON.stringify(chats.at(-1)?.body)).toContain('how long does delivery of parcels take?');
    const stored = await messagesOf(conversationIdOf(reply.conversationToken, bot.id));
    expect(stored.map((message) => [message.role, message.language])).toEqual([
      ['visitor', 'de'],
      ['bot', 'de'],
    ]);

    // The widget asks for a stream: it receives the German answer too.
    const response = await post(
      '/v1/intent',
      { botId: bot.id, text: 'Wie lange dauert die Lieferung von Paketen?' },
      { stream: true },
    );
    const events = parseEvents(response.body);
    const streamed = streamedText(events);
    expect(streamed).toBe(`[de] ${ANSWER}`);
    expect(IntentReplySchema.parse(events.at(-1)?.data)).toMatchObject({
      messages: [{ text: `[de] ${ANSWER}` }],
      language: 'de',
    });
  });

  it('streams conversation, deltas and the reply as Server-Sent Events, then stores the turn', async () => {
    const bot = await createBot(who.alice, { name: 'Stream', config: { engines: { rag_id: refs.rag } } });
    const response = await post(
      '/v1/intent',
      { botId: bot.id, text: 'How long does delivery of parcels take?' },
      { stream: true },
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('text/event-stream');
    const events = parseEvents(response.body);
    const names = events.map((event) => event.event);
    expect(names[0]).toBe('conversation');
    expect(names.at(-1)).toBe('reply');
    expect(names.filter((name) => name === 'delta').length).toBeGreaterThan(1);
    const opened = events[0]?.data as { conversationToken: string; visitorMessage: { id: string } };
    const reply = IntentReplySchema.parse(events.at(-1)?.data);
    expect(reply.conversationToken).toBe(opened.conversationToken);
    expect(reply.visitorMessage.id).toBe(opened.visitorMessage.id);
    const streamed = streamedText(events);
    expect(streamed).toBe(reply.messages[0]?.text);
    expect(reply.messages[0]?.text).toBe(ANSWER);
    const stored = await messagesOf(conversationIdOf(reply.conversationToken, bot.id));
    expect(stored.map((message) => message.id)).toEqual([reply.visitorMessage.id, reply.messages[0]?.id]);
  });

  it('stores nothing of a streamed turn the visitor left before it was answered', async () => {
    const bot = await createBot(who.alice, { name: 'Leaver', config: { engines: { rag_id: refs.rag } } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    server.failure = 'hang';
    const answersRecorded = async () => {
      await t.app.ragAnswers.flush();
      return (await t.database.db.select({ id: ragAnswers.id }).from(ragAnswers)).length;
    };
    const recordedBefore = await answersRecorded();
    const before = await fingerprint();
    const abort = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}/v1/intent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ botId: bot.id, text: 'How long does delivery of parcels take?' }),
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    const first = (await reader?.read())?.value as Uint8Array | undefined;
    expect(Buffer.from(first ?? []).toString('utf8')).toContain('event: conversation');
    abort.abort();
    // The engine stops with the request (its answer is still recorded as a RAG answer), and the turn is not stored.
    const started = Date.now();
    while ((await answersRecorded()) === recordedBefore && Date.now() - started < 8000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(Date.now() - started).toBeLessThan(4000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await fingerprint()).toBe(before);
  });

  it('masks the visitor text with the bot’s patterns before storing it or asking the engine', async () => {
    const bot = await createBot(who.alice, {
      name: 'Masked',
      config: { engines: { rag_id: refs.rag }, masking: { enableMasking: true } },
    });
    const reply = await ask(bot.id, 'my pin is 1234');
    expect(reply.visitorMessage.text).toBe('my pin is ****');
    const stored = await messagesOf(conversationIdOf(reply.conversationToken, bot.id));
    expect(stored[0]?.text).toBe('my pin is ****');
    await t.app.ragAnswers.flush();
    const [recorded] = await t.database.db
      .select({ question: ragAnswers.question })
      .from(ragAnswers)
      .where(eq(ragAnswers.id, stored[1]?.trace?.answer_id ?? ''));
    expect(recorded?.question).toBe('my pin is ****');

    const unmasked = await createBot(who.alice, { name: 'Unmasked' });
    expect((await ask(unmasked.id, 'my pin is 1234')).visitorMessage.text).toBe('my pin is 1234');
  });

  it('masks cards that pass Luhn, e-mail addresses, phone numbers and IBANs with the presets, and says so in the disclaimer', async () => {
    const bot = await createBot(who.alice, {
      name: 'Presets',
      config: {
        masking: {
          enableMasking: true,
          patterns: ['card', 'email', 'phone', 'iban'].map((preset) => ({ name: preset, preset })),
        },
      },
    });
    const text =
      'card 4111 1111 1111 1111, order 1234567812345678, mail jo@example.com, call +44 20 7946 0958, iban DE89 3704 0044 0532 0130 00';
    const reply = await ask(bot.id, text);
    const masked =
      'card *******************, order 1234567812345678, mail **************, call ****************, iban ***************************';
    expect(reply.visitorMessage.text).toBe(masked);
    const stored = await messagesOf(conversationIdOf(reply.conversationToken, bot.id));
    expect(stored[0]?.text).toBe(masked);

    const config = await t.app.inject({ method: 'GET', url: `/v1/widget/${bot.id}/config` });
    expect(config.statusCode, config.body).toBe(200);
    expect(config.json<{ feedback: { disclaimer: string } }>().feedback.disclaimer).toBe(
      'Please do not submit sensitive information such as Credit Card, E-mail, Phone Number, IBAN etc.',
    );
  });

  it('refuses a text over the limit with 413, before anything else, and stores nothing', async () => {
    const bot = await createBot(who.alice, { name: 'Long' });
    const before = await fingerprint();
    const response = await post('/v1/intent', { botId: bot.id, text: 'x'.repeat(VISITOR_TEXT_MAX + 1) });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ code: 'widget/text-too-long', message: expect.any(String) as string });
    expect(await fingerprint()).toBe(before);
    await ask(bot.id, 'y'.repeat(VISITOR_TEXT_MAX));
  });

  it('refuses malformed bodies with 4xx {code, message}, never 5xx, storing nothing', async () => {
    const bot = await createBot(who.alice, { name: 'Strict' });
    const before = await fingerprint();
    const bodies: Array<Body | string> = [
      {},
      { text: 'hi' },
      { botId: bot.id },
      { botId: bot.id, text: '' },
      { botId: bot.id, text: '   ' },
      { botId: bot.id, text: 42 },
      { botId: bot.id, text: ['hi'] },
      { botId: bot.id, text: 'hi', extra: true },
      { botId: bot.id, text: 'hi', language: 'not a language!' },
      { botId: bot.id, text: 'hi', conversationToken: '' },
      { botId: bot.id, text: 'hi', conversationToken: 7 },
      { botId: bot.id, text: 'hi', conversationToken: 'x'.repeat(600) },
      { botId: 'not-a-uuid', text: 'hi' },
      { botId: bot.id, text: 'a\u0000b' },
      '{"botId":',
      '[]',
      'null',
    ];
    for (const body of bodies) {
      const response = await post('/v1/intent', body);
      expect(response.statusCode, `${JSON.stringify(body)}: ${response.body}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, JSON.stringify(body)).toBeLessThan(500);
      expect(Object.keys(response.json<Body>()).sort()).toEqual(['code', 'message']);
    }
    expect(await fingerprint()).toBe(before);
  });

  it('answers a disabled bot, a disabled tenant’s bot and an unknown bot with the same 404', async () => {
    const off = await createBot(who.alice, { name: 'Off' });
    await injectAs(t, 'PATCH', `/v1/bots/${off.id}`, who.alice, { enabled: false });
    const ofBob = await createBot(who.bob, { name: 'Bob desk' });
    const token = (await ask(ofBob.id, 'hello')).conversationToken;
    await t.database.db.update(tenants).set({ isActive: false }).where(eq(tenants.tenantId, ids.b));
    const before = await fingerprint();
    const answers: unknown[] = [];
    try {
      for (const botId of [off.id, ofBob.id, randomUUID()]) {
        for (const [url, body] of [
          ['/v1/intent', { botId, text: 'hello' }],
          ['/v1/intent', { botId, text: 'hello', conversationToken: token }],
          ['/v1/feedback', { botId, conversationToken: token, messageId: randomUUID(), rating: 'button1' }],
        ] as const) {
          const response = await post(url, body);
          answers.push({ status: response.statusCode, body: response.json<unknown>() });
        }
      }
    } finally {
      await t.database.db.update(tenants).set({ isActive: true }).where(eq(tenants.tenantId, ids.b));
    }
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]).toMatchObject({ status: 404, body: { code: 'widget/bot-not-found' } });
    expect(await fingerprint()).toBe(before);
  });
});

describe('conversation tokens', () => {
  it('keeps a visitor out of conversations that are not theirs: tampered, another bot’s, unknown', async () => {
    const bot = await createBot(who.alice, { name: 'Mine' });
    const other = await createBot(who.alice, { name: 'Other' });
    const ofBob = await createBot(who.bob, { name: 'Bob other' });
    const mine = await ask(bot.id, 'hello');
    const theirs = await ask(other.id, 'hello');
    const bobs = await ask(ofBob.id, 'hello');
    const [version, id, mac] = mine.conversationToken.split('.');
    const flipped = `${mac?.slice(0, -1)}${mac?.endsWith('A') ? 'B' : 'A'}`;
    const forged = [
      `${version}.${id}.${flipped}`,
      `${version}.${conversationIdOf(theirs.conversationToken, other.id)}.${mac}`,
      theirs.conversationToken,
      bobs.conversationToken,
      tokens.sign(randomUUID(), bot.id),
      `c2.${id}.${mac}`,
      'garbage',
    ];
    const before = await fingerprint();
    for (const conversationToken of forged) {
      const intent = await post('/v1/intent', { botId: bot.id, text: 'let me in', conversationToken });
      expect(intent.statusCode, conversationToken).toBe(403);
      expect(intent.json()).toMatchObject({ code: 'widget/invalid-conversation' });
      const feedback = await post('/v1/feedback', {
        botId: bot.id,
        conversationToken,
        messageId: mine.messages[0]?.id,
        rating: 'button1',
      });
      expect(feedback.statusCode, conversationToken).toBe(403);
      expect(feedback.json()).toMatchObject({ code: 'widget/invalid-conversation' });
    }
    expect(await fingerprint()).toBe(before);
    // The other bot's own token still works with its bot, and tells nothing of the first conversation.
    const again = await ask(other.id, 'still there?', { conversationToken: theirs.conversationToken });
    expect(JSON.stringify(again)).not.toContain(mine.visitorMessage.id);
  });
});

describe('POST /v1/feedback', () => {
  it('records a rating for a bot message of the conversation, masked, the latest one winning', async () => {
    const bot = await createBot(who.alice, {
      name: 'Rated',
      config: { masking: { enableMasking: true } },
    });
    const reply = await ask(bot.id, 'hello');
    const messageId = reply.messages[0]?.id ?? '';
    const send = (body: Body) =>
      post('/v1/feedback', { botId: bot.id, conversationToken: reply.conversationToken, messageId, ...body });
    const first = await send({ rating: 'button1', comment: 'my pin 4321 did not work' });
    expect(first.statusCode, first.body).toBe(204);
    expect(first.body).toBe('');
    const second = await send({ rating: 'button3' });
    expect(second.statusCode, second.body).toBe(204);
    const rows = await t.database.db
      .select()
      .from(messageFeedback)
      .where(eq(messageFeedback.messageId, messageId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ rating: 'button3', comment: null, tenantId: ids.a, botId: bot.id });
    await send({ rating: 'button2', comment: 'my pin 4321 did not work' });
    const [masked] = await t.database.db
      .select()
      .from(messageFeedback)
      .where(eq(messageFeedback.messageId, messageId));
    expect(masked).toMatchObject({ rating: 'button2', comment: 'my pin **** did not work' });
  });

  it('refuses a message outside the conversation or not the bot’s with 404, and bad bodies with 400', async () => {
    const bot = await createBot(who.alice, { name: 'Rated badly' });
    const mine = await ask(bot.id, 'hello');
    const another = await ask(bot.id, 'hello again');
    const base = { botId: bot.id, conversationToken: mine.conversationToken, rating: 'button1' };
    const before = await fingerprint();
    for (const messageId of [mine.visitorMessage.id, another.messages[0]?.id, randomUUID()]) {
      const response = await post('/v1/feedback', { ...base, messageId });
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toMatchObject({ code: 'widget/unknown-message' });
    }
    const messageId = mine.messages[0]?.id;
    for (const body of [
      { ...base },
      { ...base, messageId, rating: 'button4' },
      { ...base, messageId, comment: 'c'.repeat(1001) },
      { ...base, messageId, extra: 1 },
      { ...base, messageId: 'nope' },
      { botId: bot.id, messageId, rating: 'button1' },
    ]) {
      const response = await post('/v1/feedback', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.json<Body>()).sort()).toEqual(['code', 'message']);
    }
    expect(await fingerprint()).toBe(before);
  });
});

describe('origins and CORS', () => {
  it('serves the bot’s allowed origins and our own, refuses any other, and records where it was used', async () => {
    const bot = await createBot(who.alice, {
      name: 'Embedded',
      config: { install: { allowedOrigins: [SITE] } },
    });
    const fromSite = await post('/v1/intent', { botId: bot.id, text: 'hello' }, { origin: SITE });
    expect(fromSite.statusCode, fromSite.body).toBe(200);
    expect(fromSite.headers['access-control-allow-origin']).toBe(SITE);
    expect(String(fromSite.headers.vary)).toMatch(/origin/i);
    const token = IntentReplySchema.parse(fromSite.json()).conversationToken;
    const [row] = await t.database.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, conversationIdOf(token, bot.id)));
    expect(row?.origin).toBe(SITE);
    await ask(bot.id, 'again', { conversationToken: token }, { origin: SITE });

    const own = await post('/v1/intent', { botId: bot.id, text: 'hello' }, { origin: TEST_ORIGIN });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.headers['access-control-allow-origin']).toBeUndefined();

    const before = await fingerprint();
    const evil = await post('/v1/intent', { botId: bot.id, text: 'hello' }, { origin: EVIL });
    expect(evil.statusCode).toBe(403);
    expect(evil.json()).toMatchObject({ code: 'widget/origin-not-allowed' });
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
    expect(String(evil.headers.vary)).toMatch(/origin/i);
    const evilFeedback = await post(
      '/v1/feedback',
      { botId: bot.id, conversationToken: token, messageId: randomUUID(), rating: 'button1' },
      { origin: EVIL },
    );
    expect(evilFeedback.statusCode).toBe(403);
    expect(evilFeedback.json()).toMatchObject({ code: 'widget/origin-not-allowed' });
    expect(await fingerprint()).toBe(before);

    const origins = await injectAs(t, 'GET', `/v1/bots/${bot.id}/origins`, who.alice);
    expect(origins.statusCode, origins.body).toBe(200);
    const list = BotOriginListSchema.parse(origins.json());
    // Counted once per conversation a site starts, not per message.
    expect(list.items.map((item) => [item.origin, item.hits])).toEqual([
      [TEST_ORIGIN, 1],
      [SITE, 1],
    ]);
    expect((await injectAs(t, 'GET', `/v1/bots/${bot.id}/origins`, who.bob)).statusCode).toBe(404);
    expect((await injectAs(t, 'GET', `/v1/bots/${bot.id}/origins`, {})).statusCode).toBe(401);
  });

  it('answers CORS preflights only for allowed origins', async () => {
    await createBot(who.alice, { name: 'Preflight', config: { install: { allowedOrigins: [SITE] } } });
    const preflight = (url: string, origin?: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          ...(origin === undefined ? {} : { origin }),
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    for (const url of ['/v1/intent', '/v1/feedback']) {
      const allowed = await preflight(url, SITE);
      expect(allowed.statusCode, allowed.body).toBe(204);
      expect(allowed.headers['access-control-allow-origin']).toBe(SITE);
      expect(String(allowed.headers['access-control-allow-methods'])).toContain('POST');
      expect(String(allowed.headers['access-control-allow-headers'])).toContain('content-type');
      expect(String(allowed.headers.vary)).toMatch(/origin/i);
      for (const origin of [EVIL, undefined]) {
        const refused = await preflight(url, origin);
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ code: 'widget/origin-not-allowed' });
        expect(refused.headers['access-control-allow-origin']).toBeUndefined();
      }
    }
  });

  it('lists the origins of the last 30 days only, most recent first', async () => {
    const bot = await createBot(who.alice, { name: 'Historic' });
    const day = 86_400_000;
    await t.database.db.insert(botOrigins).values([
      {
        tenantId: ids.a,
        botId: bot.id,
        origin: 'https://old.example',
        lastSeen: new Date(Date.now() - 40 * day),
      },
      {
        tenantId: ids.a,
        botId: bot.id,
        origin: 'https://b.example',
        lastSeen: new Date(Date.now() - 2 * day),
      },
      { tenantId: ids.a, botId: bot.id, origin: 'https://a.example', lastSeen: new Date(Date.now() - day) },
    ]);
    const list = BotOriginListSchema.parse(
      (await injectAs(t, 'GET', `/v1/bots/${bot.id}/origins`, who.alice)).json(),
    );
    expect(list.items.map((item) => item.origin)).toEqual(['https://a.example', 'https://b.example']);
  });
});

describe('the host page of a conversation', () => {
  const originsOf = async (botId: string) =>
    BotOriginListSchema.parse(
      (await injectAs(t, 'GET', `/v1/bots/${botId}/origins`, who.alice)).json(),
    ).items.map((item) => item.origin);
  const originOfConversation = async (token: string, botId: string) => {
    const [row] = await t.database.db
      .select({ origin: conversations.origin })
      .from(conversations)
      .where(eq(conversations.id, conversationIdOf(token, botId)));
    return row?.origin;
  };

  it('is the page the frame names when the bot allows it, and nothing when it does not', async () => {
    const bot = await createBot(who.alice, {
      name: 'Framed',
      config: { install: { allowedOrigins: [SITE] } },
    });
    // The frame calls from our own origin and names the page that embeds it.
    const framed = await ask(bot.id, 'hello', { hostOrigin: SITE }, { origin: TEST_ORIGIN });
    expect(await originOfConversation(framed.conversationToken, bot.id)).toBe(SITE);
    await ask(
      bot.id,
      'again',
      { conversationToken: framed.conversationToken, hostOrigin: SITE },
      { origin: TEST_ORIGIN },
    );
    const forged = await ask(bot.id, 'hello', { hostOrigin: EVIL }, { origin: TEST_ORIGIN });
    expect(await originOfConversation(forged.conversationToken, bot.id)).toBeNull();
    // A page calling directly is named by its browser, whatever the body says.
    const direct = await ask(bot.id, 'hello', { hostOrigin: EVIL }, { origin: SITE });
    expect(await originOfConversation(direct.conversationToken, bot.id)).toBe(SITE);
    const list = BotOriginListSchema.parse(
      (await injectAs(t, 'GET', `/v1/bots/${bot.id}/origins`, who.alice)).json(),
    );
    expect(list.items.map((item) => [item.origin, item.hits])).toEqual([[SITE, 2]]);

    const before = await fingerprint();
    for (const hostOrigin of ['javascript:alert(1)', `${SITE}/page`, 'x'.repeat(400), 7]) {
      const refused = await post('/v1/intent', { botId: bot.id, text: 'hello', hostOrigin });
      expect(refused.statusCode, String(hostOrigin)).toBe(400);
      const error = refused.json<{ code?: unknown; message?: unknown }>();
      expect([typeof error.code, typeof error.message]).toEqual(['string', 'string']);
    }
    expect(await fingerprint()).toBe(before);
  });

  it('is listed when the loader reports a site it may not run on, at most SIGHTINGS_PER_ADDRESS a minute per address', async () => {
    const bot = await createBot(who.alice, { name: 'Reported' });
    const address = nextAddress();
    const report = (origin: string | undefined, from = address, botId = bot.id) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/widget/${botId}/sightings`,
        remoteAddress: from,
        headers: origin === undefined ? {} : { origin },
      });
    expect((await report(SITE)).statusCode).toBe(204);
    expect(await originsOf(bot.id)).toEqual([SITE]);

    for (let index = 1; index < SIGHTINGS_PER_ADDRESS; index++)
      expect((await report(`https://made-up-${String(index)}.example`)).statusCode).toBe(204);
    const over = await report('https://one-too-many.example');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 'widget/rate-limited' });
    expect(await originsOf(bot.id)).not.toContain('https://one-too-many.example');
    // Another address has its own budget.
    expect((await report('https://one-too-many.example', nextAddress())).statusCode).toBe(204);
    expect(await originsOf(bot.id)).toContain('https://one-too-many.example');

    const noOrigin = await report(undefined, nextAddress());
    expect(noOrigin.statusCode).toBe(400);
    expect(noOrigin.json()).toMatchObject({ code: 'widget/no-origin' });
    const own = await report(TEST_ORIGIN, nextAddress());
    expect(own.statusCode).toBe(204);
    expect(await originsOf(bot.id)).not.toContain(TEST_ORIGIN);
    const unknown = await report(SITE, nextAddress(), randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'widget/bot-not-found' });
  });

  it('keeps the most recently seen sites: a real new site is listed after ORIGINS_PER_BOT_MAX made-up ones', async () => {
    const bot = await createBot(who.alice, { name: 'Flooded' });
    const minute = 60_000;
    await t.database.db.insert(botOrigins).values(
      Array.from({ length: ORIGINS_PER_BOT_MAX }, (_, index) => ({
        tenantId: ids.a,
        botId: bot.id,
        origin: `https://fake-${String(index)}.example`,
        lastSeen: new Date(Date.now() - (ORIGINS_PER_BOT_MAX - index) * minute),
      })),
    );
    const reported = await t.app.inject({
      method: 'POST',
      url: `/v1/widget/${bot.id}/sightings`,
      remoteAddress: nextAddress(),
      headers: { origin: SITE },
    });
    expect(reported.statusCode).toBe(204);
    const kept = await t.database.db
      .select({ origin: botOrigins.origin })
      .from(botOrigins)
      .where(eq(botOrigins.botId, bot.id));
    const origins = kept.map((row) => row.origin);
    expect(origins).toHaveLength(ORIGINS_PER_BOT_MAX);
    expect(origins).toContain(SITE);
    // The one seen longest ago made room.
    expect(origins).not.toContain('https://fake-0.example');
    expect(origins).toContain('https://fake-1.example');
  });
});

describe('rate limits', () => {
  it('limits the messages of one address, with Retry-After', async () => {
    const bot = await createBot(who.alice, { name: 'Busy' });
    const address = nextAddress();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < LIMIT_IP + 1; i++) {
      // Each message starts a new conversation from the same address; the address budget is what runs out.
      last = await post('/v1/intent', { botId: bot.id, text: `hello ${i}` }, { address });
      statuses.push(last.statusCode);
    }
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(last?.statusCode).toBe(429);
    expect(last?.json()).toMatchObject({ code: 'widget/rate-limited' });
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    await ask(bot.id, 'hello');
  });

  it('limits the messages of one conversation whatever the address', async () => {
    const bot = await createBot(who.alice, { name: 'Chatty' });
    const first = await ask(bot.id, 'hello');
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT_CONVERSATION + 1; i++) {
      const response = await post('/v1/intent', {
        botId: bot.id,
        text: `more ${i}`,
        conversationToken: first.conversationToken,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, LIMIT_CONVERSATION - 1).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const stored = await messagesOf(conversationIdOf(first.conversationToken, bot.id));
    expect(stored).toHaveLength(2 * (statuses.filter((status) => status === 200).length + 1));
    const limited = await t.database.db
      .select()
      .from(conversations)
      .where(and(eq(conversations.botId, bot.id)));
    expect(limited).toHaveLength(1);
  });
});
