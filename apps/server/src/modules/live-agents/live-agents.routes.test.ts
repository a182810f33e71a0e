import {
  BotSchema,
  ConversationStatusSchema,
  createSseParser,
  InboxConversationSchema,
  InboxListSchema,
  InboxSummarySchema,
  InboxTranscriptSchema,
  IntentReplySchema,
  LiveMessageSchema,
} from '@omnibot/contracts';
import { and, asc, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app';
import { loadAuthSecret } from '../../bootstrap';
import { openDatabase } from '../../db/client';
import { conversationEvents, conversationMessages, conversations } from '../../db/schema';
import { captureLogs, type Caller, createTestApp, injectAs, type TestApp } from '../../test/app';
import { defined } from '../../test/defined';
import { makeOmniragTenants, makeSignedInUser } from '../accounts/accounts.fixtures';
import { createConversationTokens } from '../widget/conversation-token';
import { startOpenAICompatibleServer } from '../../test/openai-compatible-server';
import { makeChatModel } from '../rag/rags.test-support';
import { LIVE_CHANNEL, type LiveNotice, parseNotice } from './live-events';

/*
 * Hand-over to a person through the built-in inbox, against the real app (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): the visitor's routes and live stream over real HTTP, the inbox routes of signed-in people.
 * The bots here have no engine, so the bot answers with its fallback text.
 */

const SITE = 'https://shop.example.com';
const FALLBACK = 'I cannot answer that; a person can.';
const ids = { a: 'live-a', b: 'live-b', noRag: 'live-norag' };
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const agents: Record<'ann' | 'andy' | 'bert', Caller> = { ann: {}, andy: {}, bert: {} };
/** The display name the fixtures give the user ann@a.test. */
const ANN = 'Person ann@a.test';

let t: TestApp;
let base: string;
let address = 0;
const nextAddress = () => `10.9.${Math.floor(++address / 250)}.${(address % 250) + 1}`;

type Body = Record<string, unknown>;

function visitorPost(app: App, url: string, payload: Body) {
  return app.inject({
    method: 'POST',
    url,
    remoteAddress: nextAddress(),
    headers: { 'content-type': 'application/json', origin: SITE },
    payload: JSON.stringify(payload),
  });
}

async function ask(botId: string, text: string, conversationToken?: string, app = t.app) {
  const response = await visitorPost(app, '/v1/intent', {
    botId,
    text,
    ...(conversationToken === undefined ? {} : { conversationToken }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return IntentReplySchema.parse(response.json());
}

async function makeBot(caller: Caller, engines: Body) {
  const response = await injectAs(t, 'POST', '/v1/bots', caller, {
    name: `Live ${Math.random().toString(36).slice(2, 8)}`,
    config: {
      engines: { botEngine: 'builtin', fallbackText: FALLBACK, ...engines },
      install: { allowedOrigins: [SITE] },
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const bot = BotSchema.parse(response.json());
  const enabled = await injectAs(t, 'PATCH', `/v1/bots/${bot.id}`, caller, { enabled: true });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return bot.id;
}

const inbox = (caller: Caller, method: 'GET' | 'POST', path: string, payload?: Body) =>
  injectAs(t, method, `/v1/inbox${path}`, caller, payload);

interface LiveEventRead {
  id: string | null;
  event: string;
  data: unknown;
}

/** The visitor's live stream over real HTTP: events as they arrive, read until the test has what it waits for. */
async function openLive(botId: string, conversationToken: string, after?: string, url = base) {
  const abort = new AbortController();
  const response = await fetch(`${url}/v1/conversation/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', origin: SITE },
    body: JSON.stringify({ botId, conversationToken, ...(after === undefined ? {} : { after }) }),
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  const received: LiveEventRead[] = [];
  const parser = createSseParser(({ event, data, id }) => {
    received.push({ id, event, data: JSON.parse(data) as unknown });
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
    received,
    async until(check: (events: LiveEventRead[]) => boolean, what: string) {
      const started = Date.now();
      while (!check(received)) {
        if (Date.now() - started > 10_000) throw new Error(`no ${what} in ${JSON.stringify(received)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      abort.abort();
      await pump;
    },
  };
}

const messagesOf = (events: LiveEventRead[]) =>
  events.filter((event) => event.event === 'message').map((event) => LiveMessageSchema.parse(event.data));
const statusesOf = (events: LiveEventRead[]) =>
  events
    .filter((event) => event.event === 'status')
    .map((event) => ConversationStatusSchema.parse(event.data));

async function botMessagesAfter(conversationId: string, since: Date) {
  const rows = await t.database.db
    .select()
    .from(conversationMessages)
    .where(
      and(eq(conversationMessages.conversationId, conversationId), eq(conversationMessages.role, 'bot')),
    );
  return rows.filter((row) => row.createdAt > since);
}

let liveBot = '';
let quietBot = '';
let tokens: ReturnType<typeof createConversationTokens>;

beforeAll(async () => {
  t = await createTestApp({
    env: { WIDGET_RATE_LIMIT_CONVERSATION: '200', FETCH_ALLOW_ADDRESSES: '127.0.0.1' },
  });
  Object.assign(who, await makeOmniragTenants(t, ids));
  for (const [key, user] of [
    ['ann', await makeSignedInUser(t, ids.a, 'ann@a.test', 'agent')],
    ['andy', await makeSignedInUser(t, ids.a, 'andy@a.test', 'agent')],
    ['bert', await makeSignedInUser(t, ids.b, 'bert@b.test', 'agent')],
  ] as const) {
    agents[key].cookie = user.cookie;
  }
  liveBot = await makeBot(who.alice, { enableliveagent: true, liveagent: 'inbox' });
  quietBot = await makeBot(who.alice, { enableliveagent: false });
  tokens = createConversationTokens(await loadAuthSecret(t.database.db, t.env));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const listening = t.app.server.address();
  if (!listening || typeof listening === 'string') throw new Error('no address');
  base = `http://127.0.0.1:${listening.port}`;
});
afterAll(() => t.close());

describe('hand-over to the inbox', () => {
  it('refuses a hand-over the bot does not offer, changing nothing', async () => {
    const first = await ask(quietBot, 'Hello?');
    expect(first.handoverOffered).toBe(false);
    const response = await visitorPost(t.app, '/v1/handover', {
      botId: quietBot,
      conversationToken: first.conversationToken,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      code: 'handover/not-offered',
      message: 'This bot does not hand over to a person.',
    });
    const id = defined(tokens.verify(first.conversationToken, quietBot));
    const [row] = await t.database.db.select().from(conversations).where(eq(conversations.id, id));
    expect(row?.state).toBe('bot');
  });

  it('queues, lets a person claim and answer, relays both ways with typing, hands back and ends', async () => {
    const first = await ask(liveBot, 'Can I change my delivery address?');
    expect(first.fallback).toBe(true);
    expect(first.handoverOffered).toBe(true);
    const token = first.conversationToken;
    const id = defined(tokens.verify(token, liveBot));

    const queued = await visitorPost(t.app, '/v1/handover', { botId: liveBot, conversationToken: token });
    expect(queued.statusCode, queued.body).toBe(200);
    expect(queued.json()).toEqual({ state: 'queued', position: 1, agent: null });

    const live = await openLive(liveBot, token);
    await live.until((events) => statusesOf(events).length > 0, 'status');
    expect(statusesOf(live.received)[0]).toEqual({ state: 'queued', position: 1, agent: null });

    const listed = InboxListSchema.parse((await inbox(agents.ann, 'GET', '')).json());
    const item = defined(listed.items.find((entry) => entry.id === id));
    expect(item).toMatchObject({ state: 'queued', reason: 'visitor', agent: null, language: 'en' });
    expect(InboxSummarySchema.parse((await inbox(agents.ann, 'GET', '/summary')).json())).toMatchObject({
      live_agents: true,
    });

    const claimed = await inbox(agents.ann, 'POST', `/${id}/claim`);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(InboxConversationSchema.parse(claimed.json()).agent?.name).toBe(ANN);
    await live.until(
      (events) => statusesOf(events).some((status) => status.state === 'agent'),
      'the agent joining',
    );
    expect(statusesOf(live.received).at(-1)).toEqual({
      state: 'agent',
      position: null,
      agent: { name: ANN },
    });
    expect(messagesOf(live.received).at(-1)).toMatchObject({
      role: 'system',
      text: `${ANN} joined the conversation.`,
    });

    const typing = await inbox(agents.ann, 'POST', `/${id}/typing`);
    expect(typing.statusCode).toBe(204);
    await live.until((events) => events.some((event) => event.event === 'typing'), 'typing');
    expect(live.received.find((event) => event.event === 'typing')?.data).toEqual({
      role: 'agent',
      name: ANN,
    });

    const said = await inbox(agents.ann, 'POST', `/${id}/messages`, { text: 'Yes: which address?' });
    expect(said.statusCode, said.body).toBe(201);
    await live.until((events) => messagesOf(events).some((m) => m.role === 'agent'), 'the agent message');
    expect(messagesOf(live.received).find((m) => m.role === 'agent')).toMatchObject({
      text: 'Yes: which address?',
      author: ANN,
    });

    // While a person answers, the bot says nothing: the visitor's message goes to the person.
    const since = new Date();
    const relayed = await ask(liveBot, '12 Baker Street, please.', token);
    expect(relayed.messages).toEqual([]);
    expect(relayed.fallback).toBe(false);
    expect(relayed.handover).toEqual({ state: 'agent', position: null, agent: { name: ANN } });
    expect(await botMessagesAfter(id, since)).toEqual([]);
    const transcript = InboxTranscriptSchema.parse((await inbox(agents.ann, 'GET', `/${id}`)).json());
    expect(transcript.messages.map((m) => m.role)).toEqual(['visitor', 'bot', 'system', 'agent', 'visitor']);
    expect(transcript.messages.at(-1)?.text).toBe('12 Baker Street, please.');

    // Another agent can neither claim nor answer it; an agent of another organisation cannot even see it.
    expect((await inbox(agents.andy, 'POST', `/${id}/claim`)).json()).toMatchObject({
      code: 'inbox/already-claimed',
    });
    expect((await inbox(agents.andy, 'POST', `/${id}/messages`, { text: 'Me too' })).statusCode).toBe(409);
    for (const path of [`/${id}`, `/${id}/claim`, `/${id}/release`, `/${id}/close`]) {
      const response = await inbox(agents.bert, path === `/${id}` ? 'GET' : 'POST', path);
      expect(response.statusCode, path).toBe(404);
    }
    expect(InboxListSchema.parse((await inbox(agents.bert, 'GET', '')).json()).items).toEqual([]);

    const released = await inbox(agents.ann, 'POST', `/${id}/release`);
    expect(released.json()).toMatchObject({ state: 'bot', agent: null });
    await live.until((events) => statusesOf(events).at(-1)?.state === 'bot', 'the hand-back');
    const again = await ask(liveBot, 'Thanks! And the opening hours?', token);
    expect(again.messages.map((m) => m.text)).toEqual([FALLBACK]);
    expect(again.handover).toBeUndefined();

    // Asked again, queued again; the person closes it and the stream ends.
    await visitorPost(t.app, '/v1/handover', { botId: liveBot, conversationToken: token });
    expect((await inbox(agents.andy, 'POST', `/${id}/claim`)).statusCode).toBe(200);
    expect((await inbox(agents.andy, 'POST', `/${id}/close`)).json()).toMatchObject({ state: 'closed' });
    await live.until((events) => events.some((event) => event.event === 'ended'), 'the end');
    await live.close();
    const closed = await visitorPost(t.app, '/v1/intent', {
      botId: liveBot,
      conversationToken: token,
      text: 'Hello again',
    });
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({ code: 'handover/closed' });
  });

  it('resumes after the last event id seen: nothing lost, nothing repeated', async () => {
    const first = await ask(liveBot, 'I need a person.');
    const token = first.conversationToken;
    const id = defined(tokens.verify(token, liveBot));
    await visitorPost(t.app, '/v1/handover', { botId: liveBot, conversationToken: token });
    await inbox(agents.ann, 'POST', `/${id}/claim`);
    for (const text of ['one', 'two', 'three']) await inbox(agents.ann, 'POST', `/${id}/messages`, { text });
    const whole = await openLive(liveBot, token);
    await whole.until((events) => messagesOf(events).length >= 4, 'the messages');
    await whole.close();
    const stored = await t.database.db
      .select({ id: conversationEvents.id })
      .from(conversationEvents)
      .where(eq(conversationEvents.conversationId, id));
    const second = defined(stored[1]).id;
    // Dropped after the second stored event: the next connection starts after it.
    const resumed = await openLive(liveBot, token, String(second));
    for (const text of ['four', 'five']) await inbox(agents.ann, 'POST', `/${id}/messages`, { text });
    await resumed.until((events) => messagesOf(events).some((m) => m.text === 'five'), 'the new messages');
    await resumed.close();
    const texts = messagesOf(resumed.received).map((m) => m.text);
    const before = messagesOf(whole.received).map((m) => m.text);
    const all = [...new Set([...before, ...texts])];
    expect(all.filter((text) => ['one', 'two', 'three', 'four', 'five'].includes(text))).toEqual([
      'one',
      'two',
      'three',
      'four',
      'five',
    ]);
    // Only stored events after the second one, each once and in order (the opening status has no id).
    const resumedIds = resumed.received.filter((event) => event.id !== null).map((event) => Number(event.id));
    expect(resumedIds.every((eventId) => eventId > second)).toBe(true);
    expect(resumedIds).toEqual([...new Set(resumedIds)].sort((x, y) => x - y));
    expect(texts).not.toContain(`${ANN} joined the conversation.`);
  });

  it('names the event before each notice exactly while both sides race for the conversation', async () => {
    const first = await ask(liveBot, 'Many messages at once, please.');
    const token = first.conversationToken;
    const id = defined(tokens.verify(token, liveBot));
    await visitorPost(t.app, '/v1/handover', { botId: liveBot, conversationToken: token });
    await inbox(agents.ann, 'POST', `/${id}/claim`);
    const before = defined(
      (await t.database.db.select().from(conversations).where(eq(conversations.id, id)))[0],
    );
    const notices: LiveNotice[] = [];
    const unlisten = await t.database.listen(
      LIVE_CHANNEL,
      (payload) => {
        const notice = parseNotice(payload);
        if (notice?.conversationId === id) notices.push(notice);
      },
      () => undefined,
    );
    try {
      // Each message is one statement that waits for the row lock while others hold it (PostgreSQL's pool runs ten
      // at once): a notice naming the event before it from a snapshot older than the lock would leave a gap.
      const each = 30;
      const answers = await Promise.all(
        Array.from({ length: each }, (_, index) => [
          inbox(agents.ann, 'POST', `/${id}/messages`, { text: `agent ${index}` }),
          visitorPost(t.app, '/v1/intent', {
            botId: liveBot,
            conversationToken: token,
            text: `visitor ${index}`,
          }),
        ]).flat(),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([
        ...Array<number>(each).fill(200),
        ...Array<number>(each).fill(201),
      ]);
      const started = Date.now();
      while (notices.length < 2 * each && Date.now() - started < 10_000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(notices).toHaveLength(2 * each);
      // Delivered in commit order: each names the one before it, and carries its event.
      let previous = before.lastEventId;
      for (const notice of notices) {
        expect(notice.previousId).toBe(previous);
        expect(notice.events?.map((event) => event.id)).toEqual([notice.lastId]);
        previous = defined(notice.lastId);
      }
      const stored = await t.database.db
        .select({ id: conversationEvents.id })
        .from(conversationEvents)
        .where(and(eq(conversationEvents.conversationId, id), gt(conversationEvents.id, before.lastEventId)))
        .orderBy(asc(conversationEvents.id));
      expect(stored.map((row) => row.id)).toEqual(notices.map((notice) => notice.lastId));
      const after = defined(
        (await t.database.db.select().from(conversations).where(eq(conversations.id, id)))[0],
      );
      expect(after.lastEventId).toBe(previous);
      expect(after.messageCount).toBe(before.messageCount + 2 * each);
    } finally {
      await unlisten();
      await inbox(agents.ann, 'POST', `/${id}/close`);
    }
  });

  it('lets exactly one of two agents claiming at once win', async () => {
    for (let round = 0; round < 5; round += 1) {
      const first = await ask(liveBot, `Round ${round}`);
      const id = defined(tokens.verify(first.conversationToken, liveBot));
      await visitorPost(t.app, '/v1/handover', {
        botId: liveBot,
        conversationToken: first.conversationToken,
      });
      const answers = await Promise.all([
        inbox(agents.ann, 'POST', `/${id}/claim`),
        inbox(agents.andy, 'POST', `/${id}/claim`),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      await inbox(agents.ann, 'POST', `/${id}/close`);
      await inbox(agents.andy, 'POST', `/${id}/close`);
    }
  });

  it('hands over by itself after as many fallbacks in a row as the bot allows', async () => {
    const bot = await makeBot(who.alice, {
      enableliveagent: true,
      liveagent: 'inbox',
      handoverAfterFallbacks: 2,
    });
    const first = await ask(bot, 'Something it cannot answer');
    expect(first.handover).toBeUndefined();
    const second = await ask(bot, 'Something else it cannot answer', first.conversationToken);
    expect(second.messages.map((m) => m.text)).toEqual([FALLBACK]);
    expect(second.handover).toMatchObject({ state: 'queued' });
    const id = defined(tokens.verify(first.conversationToken, bot));
    const [row] = await t.database.db.select().from(conversations).where(eq(conversations.id, id));
    expect(row).toMatchObject({ state: 'queued', handoverReason: 'fallbacks' });
    await inbox(agents.ann, 'POST', `/${id}/close`);
  });

  it('asks no engine while a person holds the conversation: the chat model hears nothing of it', async () => {
    const model = await startOpenAICompatibleServer({ reply: 'A model answer.' });
    try {
      const made = await makeChatModel(t, {
        name: `Counted ${Math.random().toString(36).slice(2, 8)}`,
        base_url: model.baseUrl,
        api_key: 'sk-live-agents-test',
        tenant_ids: [ids.a],
      });
      const bot = await makeBot(who.alice, {
        enableliveagent: true,
        liveagent: 'inbox',
        botEngine: 'openai',
        model_id: made.id,
      });
      const first = await ask(bot, 'Hello model');
      expect(first.messages.map((m) => m.text)).toEqual(['A model answer.']);
      const asked = model.requests.length;
      const id = defined(tokens.verify(first.conversationToken, bot));
      await visitorPost(t.app, '/v1/handover', { botId: bot, conversationToken: first.conversationToken });
      const waiting = await ask(bot, 'Still there?', first.conversationToken);
      expect(waiting.messages).toEqual([]);
      await inbox(agents.ann, 'POST', `/${id}/claim`);
      const answered = await ask(bot, 'Hello person', first.conversationToken);
      expect(answered.messages).toEqual([]);
      expect(model.requests.length).toBe(asked);
      await inbox(agents.ann, 'POST', `/${id}/close`);
    } finally {
      await model.close();
    }
  });

  it('refuses the inbox to callers who are not signed-in people, and bad input with 4xx', async () => {
    const first = await ask(liveBot, 'Anyone there?');
    const id = defined(tokens.verify(first.conversationToken, liveBot));
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/v1/inbox/${id}/messages`,
      payload: { text: 'I am an agent' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await inbox(agents.ann, 'POST', `/${id}/messages`, { text: '' })).statusCode).toBe(400);
    expect((await inbox(agents.ann, 'POST', `/${id}/messages`, { text: 'x'.repeat(4001) })).statusCode).toBe(
      400,
    );
    expect((await inbox(agents.ann, 'GET', '/not-a-uuid')).statusCode).toBe(400);
    expect((await inbox(agents.ann, 'POST', `/${id}/claim`)).json()).toMatchObject({
      code: 'inbox/not-waiting',
    });
    const forged = await visitorPost(t.app, '/v1/handover', { botId: liveBot, conversationToken: 'c1.x.y' });
    expect(forged.statusCode).toBe(403);
    const bad = await visitorPost(t.app, '/v1/conversation/events', {
      botId: liveBot,
      conversationToken: first.conversationToken,
      after: 'yesterday',
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe.runIf(process.env.OMNIBOT_TEST_DB === 'postgres')('two server processes on one PostgreSQL', () => {
  it('relays between a visitor on one process and an agent on the other', async () => {
    const database = await openDatabase({ kind: 'postgres', url: defined(t.database.url) });
    const other = await buildApp({
      env: t.env,
      database,
      consoleDir: null,
      widgetDir: null,
      logStream: captureLogs().logStream,
    });
    try {
      await other.listen({ port: 0, host: '127.0.0.1' });
      const listening = other.server.address();
      if (!listening || typeof listening === 'string') throw new Error('no address');
      const otherBase = `http://127.0.0.1:${listening.port}`;
      const first = await ask(liveBot, 'Across processes, please.', undefined, other);
      const token = first.conversationToken;
      const id = defined(tokens.verify(token, liveBot));
      await visitorPost(other, '/v1/handover', { botId: liveBot, conversationToken: token });
      const live = await openLive(liveBot, token, undefined, otherBase);
      await live.until((events) => statusesOf(events).length > 0, 'status');
      // The agent acts on the first process; the visitor's stream is on the second.
      await inbox(agents.ann, 'POST', `/${id}/claim`);
      await inbox(agents.ann, 'POST', `/${id}/messages`, { text: 'Hello from the other process' });
      await live.until(
        (events) => messagesOf(events).some((m) => m.text === 'Hello from the other process'),
        'the relayed message',
      );
      await live.close();
      await inbox(agents.ann, 'POST', `/${id}/close`);
    } finally {
      const closing = other.close();
      other.server.closeAllConnections();
      await closing;
      await database.close();
    }
  });
});
