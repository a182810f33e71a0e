import {
  AgentPreferencesSchema,
  BotSchema,
  createSseParser,
  InboxTranscriptSchema,
  IntentReplySchema,
  type LiveMessage,
  LiveMessageSchema,
} from '@omnibot/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { conversationMessages, conversations } from '../../db/schema';
import { type Caller, createTestApp, injectAs, type TestApp } from '../../test/app';
import { defined } from '../../test/defined';
import { type LibreTranslateServer, startLibreTranslateServer } from '../../test/libretranslate-server';
import { makeOmniragTenants, makeSignedInUser } from '../accounts/accounts.fixtures';
import { loadAuthSecret } from '../../bootstrap';
import { createConversationTokens } from '../widget/conversation-token';

/*
 * Automatic translation between a visitor and the person answering them, against the real app (PGlite, or PostgreSQL
 * with TEST_DATABASE_URL) and the local LibreTranslate-protocol server: the visitor's message reaches the agent in the
 * agent's language and the agent's reply reaches the visitor in theirs, both texts kept; a translator that fails or
 * hangs never loses or holds up a message; a bot without the switch never calls the translator.
 */

const SITE = 'https://shop.example.com';
const FALLBACK = 'I cannot answer that; a person can.';
const LIBRE_KEY = 'libre-agent-key';
/** A translation waits this long before its message goes untranslated (the test's hanging translator). */
const TRANSLATE_TIMEOUT_MS = 400;
const ids = { a: 'tr-a', b: 'tr-b', noRag: 'tr-norag' };
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const agents: Record<'ann' | 'andy', Caller> = { ann: {}, andy: {} };

let t: TestApp;
let base: string;
let libre: LibreTranslateServer;
let tokens: ReturnType<typeof createConversationTokens>;
let translatingBot = '';
let quietBot = '';
let address = 0;
const nextAddress = () => `10.8.${Math.floor(++address / 250)}.${(address % 250) + 1}`;

type Body = Record<string, unknown>;

function visitorPost(url: string, payload: Body) {
  return t.app.inject({
    method: 'POST',
    url,
    remoteAddress: nextAddress(),
    headers: { 'content-type': 'application/json', origin: SITE },
    payload: JSON.stringify(payload),
  });
}

async function ask(botId: string, text: string, conversationToken?: string, language?: string) {
  const response = await visitorPost('/v1/intent', {
    botId,
    text,
    ...(conversationToken === undefined ? {} : { conversationToken }),
    ...(language === undefined ? {} : { language }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return IntentReplySchema.parse(response.json());
}

const inbox = (caller: Caller, method: 'GET' | 'POST' | 'PUT', path: string, payload?: Body) =>
  injectAs(t, method, `/v1/inbox${path}`, caller, payload);

async function makeBot(config: Body) {
  const response = await injectAs(t, 'POST', '/v1/bots', who.alice, {
    name: `Translating ${Math.random().toString(36).slice(2, 8)}`,
    config: {
      engines: {
        botEngine: 'builtin',
        fallbackText: FALLBACK,
        enableliveagent: true,
        liveagent: 'inbox',
        translateEngine: 'libretranslate',
      },
      libretranslate: { url: libre.url, apiKey: LIBRE_KEY },
      install: { allowedOrigins: [SITE] },
      masking: { enableMasking: true },
      ...config,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const bot = BotSchema.parse(response.json());
  const enabled = await injectAs(t, 'PATCH', `/v1/bots/${bot.id}`, who.alice, { enabled: true });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return bot.id;
}

/** A conversation in French, handed over and claimed by `agent`. */
async function answeredConversation(botId: string, agent: Caller = agents.ann) {
  const first = await ask(botId, 'I need a person.', undefined, 'fr');
  const token = first.conversationToken;
  const id = defined(tokens.verify(token, botId));
  const queued = await visitorPost('/v1/handover', { botId, conversationToken: token });
  expect(queued.statusCode, queued.body).toBe(200);
  const claimed = await inbox(agent, 'POST', `/${id}/claim`);
  expect(claimed.statusCode, claimed.body).toBe(200);
  return { token, id };
}

/** The visitor's live stream over real HTTP, read until the test has what it waits for. */
async function openLive(botId: string, conversationToken: string) {
  const abort = new AbortController();
  const response = await fetch(`${base}/v1/conversation/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', origin: SITE },
    body: JSON.stringify({ botId, conversationToken }),
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  const messages: LiveMessage[] = [];
  const parser = createSseParser(({ event, data }) => {
    if (event === 'message') messages.push(LiveMessageSchema.parse(JSON.parse(data)));
  });
  const body = defined(response.body) as unknown as AsyncIterable<Uint8Array>;
  const decoder = new TextDecoder();
  const pump = (async () => {
    try {
      for await (const chunk of body) parser.push(decoder.decode(chunk, { stream: true }));
    } catch {
      // The test closed the stream.
    }
  })();
  return {
    async message(check: (message: LiveMessage) => boolean, what: string) {
      const started = Date.now();
      for (;;) {
        const found = messages.find(check);
        if (found) return found;
        if (Date.now() - started > 10_000) throw new Error(`no ${what} in ${JSON.stringify(messages)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      abort.abort();
      await pump;
    },
  };
}

async function transcriptOf(id: string, agent: Caller = agents.ann) {
  const response = await inbox(agent, 'GET', `/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return InboxTranscriptSchema.parse(response.json()).messages;
}

const translateCalls = () => libre.requests.filter((request) => request.path === '/translate');

beforeAll(async () => {
  libre = await startLibreTranslateServer({ apiKey: LIBRE_KEY });
  t = await createTestApp({
    env: {
      WIDGET_RATE_LIMIT_CONVERSATION: '200',
      FETCH_ALLOW_ADDRESSES: '127.0.0.1',
      LIVE_TRANSLATE_TIMEOUT_MS: String(TRANSLATE_TIMEOUT_MS),
    },
  });
  Object.assign(who, await makeOmniragTenants(t, ids));
  agents.ann.cookie = (await makeSignedInUser(t, ids.a, 'ann@a.test', 'agent')).cookie;
  agents.andy.cookie = (await makeSignedInUser(t, ids.a, 'andy@a.test', 'agent')).cookie;
  translatingBot = await makeBot({ language: { autoAgentTranslate: true } });
  quietBot = await makeBot({ language: { autoAgentTranslate: false } });
  tokens = createConversationTokens(await loadAuthSecret(t.database.db, t.env));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const listening = t.app.server.address();
  if (!listening || typeof listening === 'string') throw new Error('no address');
  base = `http://127.0.0.1:${listening.port}`;
});
afterAll(async () => {
  await t.close();
  await libre.close();
});
beforeEach(() => {
  libre.failure = 'none';
});

describe('the agent language', () => {
  it('is English until the person chooses one, and each person has their own', async () => {
    const read = async (caller: Caller) =>
      AgentPreferencesSchema.parse((await inbox(caller, 'GET', '/preferences')).json());
    expect(await read(agents.andy)).toEqual({ language: 'en' });
    const saved = await inbox(agents.andy, 'PUT', '/preferences', { language: 'es' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ language: 'es' });
    expect(await read(agents.andy)).toEqual({ language: 'es' });
    expect(await read(agents.ann)).toEqual({ language: 'en' });
    const bad = await inbox(agents.andy, 'PUT', '/preferences', { language: 'not a language' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: expect.any(String) as string });
    expect(await read(agents.andy)).toEqual({ language: 'es' });
    await inbox(agents.andy, 'PUT', '/preferences', { language: 'en' });
  });
});

describe('automatic translation between visitor and agent', () => {
  it('translates the visitor into the agent language and the agent into the visitor language, keeping both texts', async () => {
    const { token, id } = await answeredConversation(translatingBot);
    const live = await openLive(translatingBot, token);

    const relayed = await ask(translatingBot, 'bonjour', token);
    expect(relayed.messages).toEqual([]);
    const visitorLine = defined((await transcriptOf(id)).at(-1));
    expect(visitorLine).toMatchObject({
      role: 'visitor',
      text: 'bonjour',
      language: 'fr',
      translation: { text: 'hello', language: 'en' },
    });
    expect(visitorLine.untranslated).toBeUndefined();
    expect(translateCalls().at(-1)?.body).toMatchObject({ q: 'bonjour', source: 'auto', target: 'en' });

    const said = await inbox(agents.ann, 'POST', `/${id}/messages`, { text: 'thank you' });
    expect(said.statusCode, said.body).toBe(201);
    expect(LiveMessageSchema.parse(said.json())).toMatchObject({
      role: 'agent',
      text: 'thank you',
      language: 'en',
      translation: { text: 'merci', language: 'fr' },
    });
    expect(translateCalls().at(-1)?.body).toMatchObject({ q: 'thank you', source: 'en', target: 'fr' });
    const received = await live.message((m) => m.role === 'agent', 'the agent message');
    expect(received).toMatchObject({ text: 'thank you', translation: { text: 'merci', language: 'fr' } });

    // Both texts are stored with their languages.
    const [stored] = await t.database.db
      .select()
      .from(conversationMessages)
      .where(and(eq(conversationMessages.conversationId, id), eq(conversationMessages.role, 'agent')));
    expect(stored).toMatchObject({
      text: 'thank you',
      language: 'en',
      translatedText: 'merci',
      translatedLanguage: 'fr',
      translationFailed: false,
    });

    // Another agent language: the next visitor message is translated into it.
    expect((await inbox(agents.ann, 'PUT', '/preferences', { language: 'de' })).statusCode).toBe(200);
    await ask(translatingBot, 'merci', token);
    expect((await transcriptOf(id)).at(-1)).toMatchObject({
      text: 'merci',
      translation: { text: 'danke', language: 'de' },
    });
    await inbox(agents.ann, 'PUT', '/preferences', { language: 'en' });
    await live.close();
    await inbox(agents.ann, 'POST', `/${id}/close`);
  });

  it("applies the bot's masks to what the translator receives, and keeps the agent's original", async () => {
    const { token, id } = await answeredConversation(translatingBot);
    const said = await inbox(agents.ann, 'POST', `/${id}/messages`, { text: 'Your PIN is 1234' });
    expect(said.statusCode, said.body).toBe(201);
    expect(translateCalls().at(-1)?.body).toMatchObject({ q: 'Your PIN is ****', target: 'fr' });
    expect(said.json()).toMatchObject({
      text: 'Your PIN is 1234',
      translation: { text: '[fr] Your PIN is ****', language: 'fr' },
    });
    const sentBefore = libre.requests.length;
    await ask(translatingBot, 'mon code est 9876', token);
    const sent = libre.requests.slice(sentBefore).map((request) => request.body.q);
    expect(sent).toEqual(['mon code est ****']);
    await inbox(agents.ann, 'POST', `/${id}/close`);
  });

  for (const failure of ['server-error', 'hang'] as const) {
    it(`delivers both ways untranslated when the translator ${failure === 'hang' ? 'does not answer' : 'answers 500'}`, async () => {
      const { token, id } = await answeredConversation(translatingBot);
      const live = await openLive(translatingBot, token);
      libre.failure = failure;

      const started = Date.now();
      const said = await inbox(agents.ann, 'POST', `/${id}/messages`, { text: 'thank you' });
      expect(said.statusCode, said.body).toBe(201);
      expect(Date.now() - started).toBeLessThan(TRANSLATE_TIMEOUT_MS + 3000);
      const agentLine = LiveMessageSchema.parse(said.json());
      expect(agentLine).toMatchObject({ text: 'thank you', untranslated: true });
      expect(agentLine.translation).toBeUndefined();
      expect(await live.message((m) => m.id === agentLine.id, 'the untranslated message')).toMatchObject({
        text: 'thank you',
        untranslated: true,
      });

      const relayed = await ask(translatingBot, 'bonjour', token);
      expect(relayed.visitorMessage.text).toBe('bonjour');
      const visitorLine = defined((await transcriptOf(id)).at(-1));
      expect(visitorLine).toMatchObject({ role: 'visitor', text: 'bonjour', untranslated: true });
      expect(visitorLine.translation).toBeUndefined();
      const [row] = await t.database.db
        .select({ failed: conversationMessages.translationFailed })
        .from(conversationMessages)
        .where(eq(conversationMessages.id, visitorLine.id));
      expect(row?.failed).toBe(true);

      libre.failure = 'none';
      await live.close();
      await inbox(agents.ann, 'POST', `/${id}/close`);
    });
  }

  it('does not hold the conversation locked while the translator is asked', async () => {
    const { id } = await answeredConversation(translatingBot);
    libre.failure = 'hang';
    let sentAt = 0;
    const sending = inbox(agents.ann, 'POST', `/${id}/messages`, { text: 'thank you' }).then((response) => {
      sentAt = Date.now();
      return response;
    });
    while (
      !libre.requests.some((request) => request.body.q === 'thank you' && request.path === '/translate')
    ) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // Another change of the conversation takes its lock at once (it would fail with NOWAIT if it were held).
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select id from ${conversations} where id = ${id} for no key update nowait`);
    });
    const lockedAt = Date.now();
    const said = await sending;
    expect(said.statusCode, said.body).toBe(201);
    expect(lockedAt).toBeLessThan(sentAt);
    libre.failure = 'none';
    await inbox(agents.ann, 'POST', `/${id}/close`);
  }, 10_000);

  it('never calls the translator for a bot without automatic agent translation', async () => {
    const before = libre.requests.length;
    const { token, id } = await answeredConversation(quietBot);
    await ask(quietBot, 'bonjour', token);
    const said = await inbox(agents.ann, 'POST', `/${id}/messages`, { text: 'thank you' });
    expect(said.statusCode, said.body).toBe(201);
    const agentLine = LiveMessageSchema.parse(said.json());
    expect(agentLine.translation).toBeUndefined();
    expect(agentLine.untranslated).toBeUndefined();
    expect((await transcriptOf(id)).at(-1)).toMatchObject({ role: 'agent', text: 'thank you' });
    expect(libre.requests.length).toBe(before);
    await inbox(agents.ann, 'POST', `/${id}/close`);
  });

  it('asks nothing when the agent writes in the visitor language', async () => {
    const first = await ask(translatingBot, 'I need a person.', undefined, 'en');
    const id = defined(tokens.verify(first.conversationToken, translatingBot));
    await visitorPost('/v1/handover', { botId: translatingBot, conversationToken: first.conversationToken });
    await inbox(agents.ann, 'POST', `/${id}/claim`);
    const before = libre.requests.length;
    const said = await inbox(agents.ann, 'POST', `/${id}/messages`, { text: 'thank you' });
    expect(said.json()).toMatchObject({ text: 'thank you' });
    expect(LiveMessageSchema.parse(said.json()).translation).toBeUndefined();
    expect(libre.requests.length).toBe(before);
    await inbox(agents.ann, 'POST', `/${id}/close`);
  });
});
