import { BotSchema, LIVE_AGENT_ERRORS, presetPattern } from '@omnibot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type AppDeps } from '../../app';
import { loadAuthSecret } from '../../bootstrap';
import { openDatabase } from '../../db/client';
import { liveProviderSessions } from '../../db/schema';
import { createGuardedWebFetch } from '../../lib/guarded-http/guarded-fetch';
import { createGuardedSocketOpener } from '../../lib/guarded-http/guarded-websocket';
import { captureLogs, type Caller, createTestApp, injectAs, type TestApp } from '../../test/app';
import { defined } from '../../test/defined';
import {
  type FakeGenesysServer,
  type FakeGenesysSession,
  startGenesysWebMessagingServer,
} from '../../test/genesys-web-messaging-server';
import { makeOmniragTenants, makeSignedInUser } from '../accounts/accounts.fixtures';
import { createGenesysProvider } from '../integrations/providers/genesys';
import { createConversationTokens } from '../widget/conversation-token';
import type { ProviderResolver } from './provider-sessions';
import { messagesOf, statusesOf, until, visitorSide } from './relay-journey.test-support';

/*
 * Hand-over to Genesys Cloud through the relay, against the real app (PGlite, or PostgreSQL with TEST_DATABASE_URL)
 * and a local server speaking the Web Messaging guest protocol: the visitor's routes and live stream over real HTTP,
 * the fake playing the contact centre's agent.
 */

const SITE = 'https://shop.example.com';
const FALLBACK = 'I cannot answer that; write to help@shop.example.com or ask a person.';
/** The tenant's contact-centre integration the bot names (settings pointing at the fake). */
let integration = '';
const ids = { a: 'gen-a', b: 'gen-b', noRag: 'gen-norag' };
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const agent: Caller = {};

let fake: FakeGenesysServer;
let t: TestApp;
let base: string;
let bot = '';
let tokens: ReturnType<typeof createConversationTokens>;

const network = {
  fetch: createGuardedWebFetch({ allowAddresses: ['127.0.0.1'] }),
  openSocket: createGuardedSocketOpener({ allowAddresses: ['127.0.0.1'] }),
};
const providers: ProviderResolver = (_tenantId, integrationId) => {
  if (integrationId !== integration) return Promise.reject(new Error('unknown integration'));
  return Promise.resolve(
    createGenesysProvider(
      { server_url: fake.serverUrl, deployment_id: fake.deploymentId, origin: fake.allowedOrigin },
      network,
      { answerTimeoutMs: 1000, reorderMs: 30 },
    ),
  );
};
const relayTimings = { leaseMs: 1500, pollMs: 100, resumeDelaysMs: [30, 60, 120, 240] };

const { visitorPost, ask, openLive, conversationRow, messagesIn } = visitorSide({
  site: SITE,
  bot: () => bot,
  app: () => t.app,
  base: () => base,
  db: () => t.database.db,
});

/** A conversation handed over: its token, id and the fake's session once the relay started it. */
async function handedOver(app = t.app): Promise<{ token: string; id: string; session: FakeGenesysSession }> {
  const first = await ask('Where is my parcel? Mail me at jo@example.com', undefined, app);
  expect(first.handoverOffered).toBe(true);
  const token = first.conversationToken;
  const id = defined(tokens.verify(token, bot));
  const queued = await visitorPost(app, '/v1/handover', { botId: bot, conversationToken: token });
  expect(queued.statusCode, queued.body).toBe(200);
  expect(queued.json()).toMatchObject({ state: 'queued' });
  const session = await fake.waitFor(() => fake.sessionFor(id));
  return { token, id, session };
}

beforeAll(async () => {
  fake = await startGenesysWebMessagingServer({ allowedOrigin: SITE });
  t = await createTestApp({
    env: { WIDGET_RATE_LIMIT_CONVERSATION: '2000', FETCH_ALLOW_ADDRESSES: '127.0.0.1' },
    liveAgentProviders: providers,
    liveRelay: relayTimings,
  });
  Object.assign(who, await makeOmniragTenants(t, ids));
  agent.cookie = (await makeSignedInUser(t, ids.a, 'ann@a.test', 'agent')).cookie;
  const stored = await injectAs(t, 'POST', '/v1/integrations', who.alice, {
    kind: 'ccaas',
    engine: 'genesys',
    name: 'Local Genesys',
    settings: {
      server_url: fake.serverUrl,
      deployment_id: fake.deploymentId,
      origin: fake.allowedOrigin,
    },
  });
  expect(stored.statusCode, stored.body).toBe(201);
  integration = stored.json<{ id: string }>().id;
  const created = await injectAs(t, 'POST', '/v1/bots', who.alice, {
    name: 'Genesys hand-over',
    config: {
      engines: {
        botEngine: 'builtin',
        fallbackText: FALLBACK,
        enableliveagent: true,
        liveagent: 'genesys',
        liveagent_integration_id: integration,
      },
      install: { allowedOrigins: [SITE] },
      masking: { enableMasking: true, patterns: [presetPattern('email')] },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  bot = BotSchema.parse(created.json()).id;
  const enabled = await injectAs(t, 'PATCH', `/v1/bots/${bot}`, who.alice, { enabled: true });
  expect(enabled.statusCode, enabled.body).toBe(200);
  tokens = createConversationTokens(await loadAuthSecret(t.database.db, t.env));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const listening = t.app.server.address();
  if (!listening || typeof listening === 'string') throw new Error('no address');
  base = `http://127.0.0.1:${listening.port}`;
});
afterEach(() => {
  fake.configureFailure = null;
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

describe('hand-over to Genesys Cloud', () => {
  it('queues, the agent joins by name, messages and typing go both ways, the agent ends and the bot answers again', async () => {
    const { token, id, session } = await handedOver();
    const handedAt = new Date();
    // The agent reads the conversation with the bot first, masked with the bot's patterns.
    const opening = defined(session.texts[0]);
    expect(opening.text).toContain('Visitor: Where is my parcel?');
    expect(opening.text).toContain('Bot: I cannot answer that');
    expect(opening.text).not.toContain('jo@example.com');
    expect(opening.text).not.toContain('help@shop.example.com');
    expect(opening.customAttributes).toMatchObject({ omnibot_conversation_id: id, omnibot_language: 'en' });
    const stored = await until(
      async () =>
        (
          await t.database.db
            .select()
            .from(liveProviderSessions)
            .where(eq(liveProviderSessions.conversationId, id))
        ).find((row) => row.status === 'active'),
      'the stored session, started',
    );
    // The token is a credential: stored only sealed.
    expect(stored.sealedState).not.toContain(session.token);
    expect(stored.status).toBe('active');
    // Genesys's agents answer it: the built-in inbox neither lists, counts nor lets anyone claim it.
    const inbox = await injectAs(t, 'GET', '/v1/inbox', agent);
    expect(inbox.json<{ items: { id: string }[] }>().items.map((item) => item.id)).not.toContain(id);
    expect((await injectAs(t, 'GET', '/v1/inbox/summary', agent)).json()).toMatchObject({ queued: 0 });
    const claim = await injectAs(t, 'POST', `/v1/inbox/${id}/claim`, agent);
    expect(claim.statusCode).toBe(409);
    expect(claim.json()).toMatchObject({ code: 'inbox/not-waiting' });

    const live = await openLive(token);
    await live.until((events) => statusesOf(events).some((s) => s.state === 'queued'), 'queued');
    fake.join(session.token, 'Dana');
    await live.until(
      (events) => statusesOf(events).some((s) => s.state === 'agent' && s.agent?.name === 'Dana'),
      'Dana joining',
    );
    expect(
      messagesOf(live.received).some(
        (m) => m.role === 'system' && m.text === 'Dana joined the conversation.',
      ),
    ).toBe(true);

    fake.type(session.token);
    await live.until((events) => events.some((event) => event.event === 'typing'), 'the agent typing');
    fake.say(session.token, 'Hello, I am Dana. Which parcel?');
    await live.until(
      (events) =>
        messagesOf(events).some(
          (m) => m.role === 'agent' && m.author === 'Dana' && m.text === 'Hello, I am Dana. Which parcel?',
        ),
      'the agent message',
    );

    const typing = await visitorPost(t.app, '/v1/conversation/typing', {
      botId: bot,
      conversationToken: token,
    });
    expect(typing.statusCode).toBe(204);
    await fake.waitFor(() => session.typings > 0);
    const relayed = await ask('Parcel 1234 please', token);
    expect(relayed.messages).toEqual([]);
    await fake.waitFor(() => session.texts.some((text) => text.text === 'Parcel 1234 please'));
    await until(
      async () => (await messagesIn(id)).find((m) => m.text === 'Parcel 1234 please')?.delivery === 'sent',
      'the message marked sent',
    );

    fake.end(session.token);
    await live.until((events) => statusesOf(events).some((s) => s.state === 'bot'), 'back to the bot');
    expect(
      messagesOf(live.received).some(
        (m) => m.role === 'system' && m.text === 'Dana ended the conversation. The bot answers again.',
      ),
    ).toBe(true);
    await live.close();
    // Not one bot reply while the contact centre held the conversation.
    const botWhileHeld = (await messagesIn(id)).filter((m) => m.role === 'bot' && m.createdAt > handedAt);
    expect(botWhileHeld).toHaveLength(0);
    await until(
      async () =>
        (
          await t.database.db
            .select()
            .from(liveProviderSessions)
            .where(eq(liveProviderSessions.conversationId, id))
        ).length === 0,
      'the session gone',
    );
    const again = await ask('One more question', token);
    expect(again.messages.map((m) => m.text)).toEqual([FALLBACK]);
    expect((await conversationRow(id)).state).toBe('bot');
  });

  it.each([
    [{ status: 401 }, 'handover/provider-refused'],
    [{ status: 403 }, 'handover/provider-refused'],
    [{ status: 429 }, 'handover/provider-busy'],
    [{ status: 500 }, 'handover/provider-unavailable'],
    ['hang' as const, 'handover/provider-unavailable'],
  ] as const)(
    'gives the conversation back to the bot when Genesys answers %j, in plain words',
    async (failure, code) => {
      fake.configureFailure = failure;
      const first = await ask('I need a person');
      const token = first.conversationToken;
      const id = defined(tokens.verify(token, bot));
      const live = await openLive(token);
      const queued = await visitorPost(t.app, '/v1/handover', { botId: bot, conversationToken: token });
      expect(queued.json()).toMatchObject({ state: 'queued' });
      await live.until(
        (events) => messagesOf(events).some((m) => m.role === 'system' && m.text === LIVE_AGENT_ERRORS[code]),
        'the failure in plain words',
      );
      expect(statusesOf(live.received).map((s) => s.state)).toEqual(['bot', 'queued', 'bot']);
      await live.close();
      expect((await conversationRow(id)).state).toBe('bot');
      expect(
        await t.database.db
          .select()
          .from(liveProviderSessions)
          .where(eq(liveProviderSessions.conversationId, id)),
      ).toEqual([]);
      expect(t.logs.some((line) => JSON.stringify(line).includes('fake-jwt'))).toBe(false);
    },
  );

  it('gives the conversation back to the bot when the resume keeps failing', async () => {
    const { token, id, session } = await handedOver();
    fake.join(session.token, 'Dana');
    await until(async () => (await conversationRow(id)).state === 'agent', 'the agent state');
    fake.configureFailure = { status: 500 };
    fake.drop(session.token);
    await until(async () => (await conversationRow(id)).state === 'bot', 'back to the bot');
    const last = (await messagesIn(id)).at(-1);
    expect(last).toMatchObject({ role: 'system', text: LIVE_AGENT_ERRORS['handover/provider-unavailable'] });
    const again = await ask('Still there?', token);
    expect(again.messages.map((m) => m.text)).toEqual([FALLBACK]);
  });

  it('ends the Genesys session when an agent of ours closes the waiting conversation', async () => {
    const { id, session } = await handedOver();
    await until(
      async () =>
        (
          await t.database.db
            .select()
            .from(liveProviderSessions)
            .where(
              and(eq(liveProviderSessions.conversationId, id), eq(liveProviderSessions.status, 'active')),
            )
        ).length === 1,
      'an active session',
    );
    const closed = await injectAs(t, 'POST', `/v1/inbox/${id}/close`, agent);
    expect(closed.statusCode, closed.body).toBe(200);
    await fake.waitFor(() => session.guestEnded);
    await until(
      async () =>
        (
          await t.database.db
            .select()
            .from(liveProviderSessions)
            .where(eq(liveProviderSessions.conversationId, id))
        ).length === 0,
      'the session gone',
    );
  });

  it('relays over 100 messages each way through random socket drops and resumed streams: none lost, none twice', async () => {
    const { token, id, session } = await handedOver();
    fake.join(session.token, 'Dana');
    const COUNT = 110;
    const streams: Awaited<ReturnType<typeof openLive>>[] = [await openLive(token)];
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const agentTexts: string[] = [];
    const visitorTexts: string[] = [];
    for (let index = 0; index < COUNT; index += 1) {
      const agentText = `agent ${index}`;
      agentTexts.push(agentText);
      fake.say(session.token, agentText);
      const visitorText = `visitor ${index}`;
      visitorTexts.push(visitorText);
      await ask(visitorText, token);
      if (random() < 0.08) fake.drop(session.token);
      if (random() < 0.06) {
        const current = defined(streams.at(-1));
        const after = current.lastId();
        await current.close();
        streams.push(await openLive(token, after));
      }
    }
    await fake.waitFor(
      () => visitorTexts.every((text) => session.texts.some((sent) => sent.text === text)),
      30_000,
    );
    await until(
      async () => (await messagesIn(id)).filter((m) => m.role === 'agent').length >= COUNT,
      'every agent message stored',
      30_000,
    );
    await defined(streams.at(-1)).until(
      (events) => messagesOf(events).some((m) => m.text === agentTexts.at(-1)),
      'the last agent message on the stream',
      30_000,
    );
    for (const stream of streams) await stream.close();

    // The contact centre got each visitor message exactly once, in order.
    const received = session.texts.map((text) => text.text).filter((text) => text.startsWith('visitor '));
    expect(received).toEqual(visitorTexts);
    // Each agent message is stored once and read once across the resumed streams.
    const stored = (await messagesIn(id)).filter((m) => m.role === 'agent').map((m) => m.text);
    expect([...stored].sort()).toEqual([...agentTexts].sort());
    const streamed = streams
      .flatMap((stream) => messagesOf(stream.received))
      .filter((m) => m.role === 'agent');
    expect(streamed.map((m) => m.text).sort()).toEqual([...agentTexts].sort());
    expect(new Set(streamed.map((m) => m.id)).size).toBe(streamed.length);
    // Every visitor message ends up confirmed as sent.
    await until(
      async () =>
        (await messagesIn(id)).filter((m) => m.role === 'visitor' && m.delivery === 'sent').length === COUNT,
      'every visitor message marked sent',
    );
    expect((await messagesIn(id)).filter((m) => m.delivery === 'pending' || m.delivery === 'failed')).toEqual(
      [],
    );
    expect(fake.upgrades).toBeGreaterThan(1);
    fake.end(session.token);
    await until(async () => (await conversationRow(id)).state === 'bot', 'back to the bot');
  }, 120_000);
});

describe.runIf(process.env.OMNIBOT_TEST_DB === 'postgres')('two server processes on one PostgreSQL', () => {
  async function process(deps: Partial<AppDeps>) {
    const database = await openDatabase({ kind: 'postgres', url: defined(t.database.url) });
    const app = await buildApp({
      env: t.env,
      database,
      consoleDir: null,
      widgetDir: null,
      logStream: captureLogs().logStream,
      liveAgentProviders: providers,
      ...deps,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const listening = app.server.address();
    if (!listening || typeof listening === 'string') throw new Error('no address');
    return {
      app,
      url: `http://127.0.0.1:${listening.port}`,
      async close() {
        const closing = app.close();
        app.server.closeAllConnections();
        await closing;
        await database.close();
      },
    };
  }

  it('the visitor on one process, the session on another; a killed holder is taken over and resumed', async () => {
    // The test's own app holds no sessions here: its relay gives them back.
    await t.app.liveRelay?.stop();
    const visitor = await process({ liveRelay: false });
    const holder = await process({ liveRelay: relayTimings });
    let successor: Awaited<ReturnType<typeof process>> | null = null;
    try {
      const { token, id, session } = await handedOver(visitor.app);
      await until(() => holder.app.liveRelay?.held().includes(id), 'the holder holding it');
      const live = await openLive(token, undefined, visitor.url);
      fake.join(session.token, 'Dana');
      fake.say(session.token, 'From the contact centre');
      await live.until(
        (events) => messagesOf(events).some((m) => m.text === 'From the contact centre'),
        'the agent message',
      );
      await ask('From the visitor', token, visitor.app);
      await fake.waitFor(() => session.texts.some((text) => text.text === 'From the visitor'));

      // The holder dies: its socket is cut and its lease is left to lapse.
      holder.app.liveRelay?.abandon();
      fake.say(session.token, 'While nobody held it');
      await ask('Also while nobody held it', token, visitor.app);
      successor = await process({ liveRelay: relayTimings });
      await until(() => successor?.app.liveRelay?.held().includes(id), 'the take-over', 15_000);
      await live.until(
        (events) => messagesOf(events).some((m) => m.text === 'While nobody held it'),
        'the back-filled message',
      );
      await fake.waitFor(() => session.texts.some((text) => text.text === 'Also while nobody held it'));
      fake.say(session.token, 'After the take-over');
      await live.until(
        (events) => messagesOf(events).some((m) => m.text === 'After the take-over'),
        'the resumed socket',
      );
      const agentTexts = messagesOf(live.received)
        .filter((m) => m.role === 'agent')
        .map((m) => m.text);
      expect(agentTexts).toEqual(['From the contact centre', 'While nobody held it', 'After the take-over']);
      expect(session.texts.filter((text) => text.text === 'From the visitor')).toHaveLength(1);
      await live.close();
      fake.end(session.token);
      await until(async () => (await conversationRow(id)).state === 'bot', 'back to the bot');
    } finally {
      await visitor.close();
      await holder.close();
      await successor?.close();
    }
  });
});
