import { BotSchema, createSseParser, IntentReplySchema, LiveMessageSchema } from '@omnibot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../app';
import { loadAuthSecret } from '../../bootstrap';
import { type Database, openDatabase } from '../../db/client';
import { type Caller, captureLogs, createTestApp, injectAs, type TestApp } from '../../test/app';
import { defined } from '../../test/defined';
import { makeOmniragTenants, makeSignedInUser } from '../accounts/accounts.fixtures';
import { createConversationTokens } from '../widget/conversation-token';

/*
 * No message lost or repeated while both live streams of a conversation handed to a person are cut at random and
 * resumed: the visitor's (`POST /v1/conversation/events` with `after`) and the agent's (`GET /v1/inbox/events` of
 * the conversation, with Last-Event-ID), over real HTTP, while the visitor (`/v1/intent`) and the agent
 * (`/v1/inbox/:id/messages`) both write. On PGlite one server; on PostgreSQL (TEST_DATABASE_URL) the visitor talks
 * to one server process and the agent to another, so every message crosses processes through notifications.
 */

const SITE = 'https://relay.example.com';
const ids = { a: 'relay-a', b: 'relay-b', noRag: 'relay-norag' };
const owner: Caller = {};
const agent: Caller = {};
/** Messages each side writes: together over 100. */
const PER_SIDE = 60;
/** A stream is cut after a random time between these, then opened again from the last id it received. */
const CUT_MIN_MS = 20;
const CUT_MAX_MS = 250;
/** A stream is also cut after this many messages (picked at random in the range on each connection). */
const CUT_AFTER_MIN = 3;
const CUT_AFTER_MAX = 12;
const WAIT_MS = 20_000;

let t: TestApp;
let base = '';
let botId = '';
let tokens: ReturnType<typeof createConversationTokens>;

/** A server listening on loopback; its base URL. */
async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

interface Received {
  id: number;
  text: string;
}

/**
 * A reader that keeps one stream of the conversation open, cuts it after a random time and opens it again from the
 * last event id it received (as a client whose connection dropped), recording every message each time it arrives.
 */
function cutAndResume(open: (after: number, signal: AbortSignal) => Promise<Response>) {
  const messages: Received[] = [];
  const ids: number[] = [];
  let lastId = 0;
  let cuts = 0;
  let dropped = 0;
  let stopped = false;
  let current: AbortController | null = null;
  const once = async () => {
    const abort = new AbortController();
    current = abort;
    const cut = setTimeout(() => abort.abort(), CUT_MIN_MS + Math.random() * (CUT_MAX_MS - CUT_MIN_MS));
    // Also cut after a few messages, so the streams are cut while messages flow however fast the server relays.
    let untilCut = CUT_AFTER_MIN + Math.floor(Math.random() * (CUT_AFTER_MAX - CUT_AFTER_MIN + 1));
    let response: Response;
    try {
      response = await open(lastId, abort.signal);
    } catch {
      // Cut before the answer came, or the connection failed: opened again from the same id.
      if (abort.signal.aborted) cuts += 1;
      else dropped += 1;
      clearTimeout(cut);
      return;
    }
    if (response.status !== 200) {
      clearTimeout(cut);
      throw new Error(`stream answered ${response.status}: ${await response.text()}`);
    }
    const parser = createSseParser(({ event, data, id }) => {
      if (id === null) return;
      ids.push(Number(id));
      lastId = Number(id);
      if (event !== 'message') return;
      const parsed = JSON.parse(data) as { message?: unknown };
      const message = LiveMessageSchema.parse(parsed.message ?? parsed);
      messages.push({ id: Number(id), text: message.text });
      untilCut -= 1;
      if (untilCut === 0) abort.abort();
    });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of defined(response.body) as unknown as AsyncIterable<Uint8Array>) {
        parser.push(decoder.decode(chunk, { stream: true }));
      }
    } catch {
      if (abort.signal.aborted) cuts += 1;
      else dropped += 1;
    } finally {
      clearTimeout(cut);
    }
  };
  let failure: Error | null = null;
  const running = (async () => {
    while (!stopped) await once();
  })().catch((error: unknown) => {
    failure = error instanceof Error ? error : new Error('the reader stopped');
  });
  return {
    messages,
    ids,
    get cuts() {
      return cuts;
    },
    get dropped() {
      return dropped;
    },
    /** Throws what stopped the reader (a stream refused), if anything did. */
    check() {
      if (failure) throw failure;
    },
    async stop() {
      stopped = true;
      current?.abort();
      await running;
    },
  };
}

async function until(check: () => boolean, what: string) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > WAIT_MS) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Hands a new conversation to the agent, then writes PER_SIDE messages from each side at once while both streams are
 * cut and resumed; every message must reach each stream exactly once, in the order written.
 */
async function relayWithCuts(visitorBase: string, agentBase: string) {
  const visitorPost = async (path: string, body: Record<string, unknown>) => {
    const response = await fetch(`${visitorBase}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', origin: SITE },
      body: JSON.stringify({ botId, ...body }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return response.json();
  };
  const agentPost = async (path: string, body?: Record<string, unknown>) => {
    const response = await fetch(`${agentBase}/v1/inbox${path}`, {
      method: 'POST',
      headers: {
        cookie: defined(agent.cookie),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect([200, 201]).toContain(response.status);
  };

  const first = IntentReplySchema.parse(await visitorPost('/v1/intent', { text: 'I need a person.' }));
  const token = first.conversationToken;
  const id = defined(tokens.verify(token, botId));
  await visitorPost('/v1/handover', { conversationToken: token });
  await agentPost(`/${id}/claim`);

  const visitorStream = cutAndResume((after, signal) =>
    fetch(`${visitorBase}/v1/conversation/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', origin: SITE },
      body: JSON.stringify({ botId, conversationToken: token, after: String(after) }),
      signal,
    }),
  );
  const agentStream = cutAndResume((after, signal) =>
    fetch(`${agentBase}/v1/inbox/events?conversation=${id}`, {
      headers: { cookie: defined(agent.cookie), 'last-event-id': String(after) },
      signal,
    }),
  );

  const fromVisitor = Array.from({ length: PER_SIDE }, (_, index) => `visitor ${index}`);
  const fromAgent = Array.from({ length: PER_SIDE }, (_, index) => `agent ${index}`);
  await Promise.all([
    (async () => {
      for (const text of fromVisitor) await visitorPost('/v1/intent', { conversationToken: token, text });
    })(),
    (async () => {
      for (const text of fromAgent) await agentPost(`/${id}/messages`, { text });
    })(),
  ]);
  const written = new Set([...fromVisitor, ...fromAgent]);
  const relayed = (stream: typeof visitorStream) =>
    stream.messages.filter((message) => written.has(message.text));
  try {
    for (const [stream, what] of [
      [visitorStream, 'the visitor'],
      [agentStream, 'the agent'],
    ] as const) {
      await until(() => {
        stream.check();
        return new Set(relayed(stream).map((m) => m.text)).size === written.size;
      }, `${what}'s stream`);
    }
    // A moment more, for a repeat that would come late.
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    await visitorStream.stop();
    await agentStream.stop();
  }

  for (const stream of [visitorStream, agentStream]) {
    const texts = relayed(stream).map((message) => message.text);
    // 0 lost, 0 repeated: every message once.
    expect(texts.length).toBe(written.size);
    expect(new Set(texts).size).toBe(written.size);
    // In the order each side wrote them, and every event id once, rising across connections.
    expect(texts.filter((text) => text.startsWith('visitor '))).toEqual(fromVisitor);
    expect(texts.filter((text) => text.startsWith('agent '))).toEqual(fromAgent);
    expect(stream.ids).toEqual([...new Set(stream.ids)].sort((x, y) => x - y));
    // The streams really were cut, many times, while messages flowed.
    expect(stream.cuts).toBeGreaterThanOrEqual(10);
  }
  return {
    cuts: { visitor: visitorStream.cuts, agent: agentStream.cuts },
    dropped: { visitor: visitorStream.dropped, agent: agentStream.dropped },
  };
}

beforeAll(async () => {
  t = await createTestApp({
    env: {
      WIDGET_RATE_LIMIT_CONVERSATION: '100000',
      WIDGET_RATE_LIMIT_IP: '100000',
      RATE_LIMIT_MAX: '1000000',
    },
  });
  const tenants = await makeOmniragTenants(t, ids);
  Object.assign(owner, tenants.alice);
  agent.cookie = (await makeSignedInUser(t, ids.a, 'relay-agent@a.test', 'agent')).cookie;
  const made = await injectAs(t, 'POST', '/v1/bots', owner, {
    name: 'Relay under cuts',
    config: {
      engines: {
        botEngine: 'builtin',
        fallbackText: 'A person will help.',
        enableliveagent: true,
        liveagent: 'inbox',
      },
      install: { allowedOrigins: [SITE] },
    },
  });
  expect(made.statusCode, made.body).toBe(201);
  botId = BotSchema.parse(made.json()).id;
  const enabled = await injectAs(t, 'PATCH', `/v1/bots/${botId}`, owner, { enabled: true });
  expect(enabled.statusCode, enabled.body).toBe(200);
  tokens = createConversationTokens(await loadAuthSecret(t.database.db, t.env));
  base = await listen(t.app);
});
afterAll(() => t.close());

describe('live streams cut at random and resumed', () => {
  it('lose and repeat none of over 100 messages, both ways, on one server', async () => {
    const cuts = await relayWithCuts(base, base);
    console.log(`relay under cuts, one server: ${2 * PER_SIDE} messages, ${JSON.stringify(cuts)}`);
  }, 120_000);

  it.runIf(process.env.OMNIBOT_TEST_DB === 'postgres')(
    'lose and repeat none of over 100 messages with the visitor on one process and the agent on another',
    async () => {
      const database: Database = await openDatabase({ kind: 'postgres', url: defined(t.database.url) });
      const other = await buildApp({
        env: t.env,
        database,
        consoleDir: null,
        widgetDir: null,
        logStream: captureLogs().logStream,
      });
      try {
        const cuts = await relayWithCuts(await listen(other), base);
        console.log(`relay under cuts, two processes: ${2 * PER_SIDE} messages, ${JSON.stringify(cuts)}`);
      } finally {
        const closing = other.close();
        other.server.closeAllConnections();
        await closing;
        await database.close();
      }
    },
    120_000,
  );
});
