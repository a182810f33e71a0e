import { BotSchema } from '@omnibot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadAuthSecret } from '../../bootstrap';
import { bots, ragAnswers, subscriptions } from '../../db/schema';
import { createSecretBox } from '../../lib/secret-box';
import { type Caller, createTestApp, injectAs, type TestApp } from '../../test/app';
import {
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
} from '../../test/openai-compatible-server';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import type { AnswerDeps } from '../rag/rag-answer';
import { makeChatModel, makeIndex, makeKnowledge, makePrompt } from '../rag/rags.test-support';
import { type BotReply, type BotRequest, engineFor } from './bot-engine';
import { createBotSecrets, type StoredBot } from './bots.service';
import { loopbackModelFetch, TEST_FETCH_ALLOW } from '../../test/loopback-fetch';

const FALLBACK = 'Nothing on that yet; try another question.';

let t: TestApp;
/** The local OpenAI-compatible server: it speaks the OpenAI chat-completions protocol over HTTP. */
let server: OpenAICompatibleServer;
let deps: AnswerDeps;
let open: (row: typeof bots.$inferSelect) => StoredBot;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'engine-a', b: 'engine-b', noRag: 'engine-norag' };
const refs = { rag: '', model: '', prompt: '' };

async function botOf(caller: Caller, body: Record<string, unknown>): Promise<StoredBot> {
  const response = await injectAs(t, 'POST', '/v1/bots', caller, body);
  expect(response.statusCode, response.body).toBe(201);
  const { id } = BotSchema.parse(response.json());
  const [row] = await t.database.db.select().from(bots).where(eq(bots.id, id));
  if (!row) throw new Error('the bot was not stored');
  return open(row);
}

async function respond(bot: StoredBot, text: string, extra: Partial<BotRequest> = {}): Promise<BotReply> {
  return engineFor(deps, bot).respond({ tenantId: bot.row.tenantId, bot, text, history: [], ...extra });
}

/** The last chat-completion request the local server received: its system and last user message, and the body. */
function lastChat(): { system: string; user: string; body: Record<string, unknown> } {
  const request = server.requests.filter((entry) => entry.path === '/chat/completions').at(-1);
  const body = (request?.body ?? {}) as { messages?: Array<{ role: string; content: string }> };
  const messages = body.messages ?? [];
  return {
    system: messages.find((message) => message.role === 'system')?.content ?? '',
    user: messages.filter((message) => message.role === 'user').at(-1)?.content ?? '',
    body,
  };
}

beforeAll(async () => {
  t = await createTestApp({ env: { RAG_MODEL_TIMEOUT_MS: '3000', FETCH_ALLOW_ADDRESSES: TEST_FETCH_ALLOW } });
  server = await startOpenAICompatibleServer({ reply: 'Parcels arrive in three days [1].' });
  const secret = await loadAuthSecret(t.database.db, t.env);
  deps = {
    db: t.database.db,
    secretBox: createSecretBox(secret, 'model-api-key'),
    modelFetch: loopbackModelFetch,
    log: t.app.log,
    sourceLinks: t.app.files.sourceLinks,
    modelTimeoutMs: 3000,
  };
  const secrets = createBotSecrets(secret);
  open = (row) => ({ row, config: secrets.open(row.config) });
  Object.assign(who, await makeOmniragTenants(t, ids));
  const kb = await makeKnowledge(t, who.alice, 'Help', [
    {
      type: 'text',
      title: 'Shipping',
      text: 'Parcels are shipped within one day. Delivery of parcels takes three working days in Europe.',
    },
  ]);
  const index = await makeIndex(t, ids.a, 'Main', [kb.id]);
  refs.model = (
    await makeChatModel(t, {
      name: 'Local',
      base_url: server.baseUrl,
      api_key: 'sk-local-test-key',
      tenant_ids: [ids.a, ids.noRag],
    })
  ).id;
  const rag = await injectAs(t, 'POST', '/v1/rags', who.alice, {
    name: 'Help',
    index_id: index,
    model_id: refs.model,
    fallback_text: FALLBACK,
  });
  expect(rag.statusCode, rag.body).toBe(201);
  refs.rag = rag.json<{ id: string }>().id;
  refs.prompt = (
    await makePrompt(t, who.alice, 'Pirate', 'You are {{bot_name}}, speak like a pirate in {{language}}.')
  ).id;
});
beforeEach(() => {
  server.failure = 'none';
});
afterAll(async () => {
  await server.close();
  await t.close();
});

describe('builtin engine', () => {
  it("answers from the bot's RAG with sources, stored as a widget answer", async () => {
    const bot = await botOf(who.alice, { name: 'Builtin', config: { engines: { rag_id: refs.rag } } });
    const result = await respond(bot, 'How long does delivery of parcels take?');
    expect(result.trace.engine).toBe('builtin');
    expect(result.fallback).toBe(false);
    expect(result.handoverOffered).toBe(false);
    expect(result.messages).toEqual([{ type: 'text', text: 'Parcels arrive in three days [1].' }]);
    expect(result.sources.map((source) => source.title)).toEqual(['Shipping']);
    const [stored] = await t.database.db
      .select()
      .from(ragAnswers)
      .where(eq(ragAnswers.id, result.trace.answerId ?? ''));
    expect(stored).toMatchObject({ channel: 'widget', createdBy: null, tenantId: ids.a });
  });

  it('streams the answer as it is made', async () => {
    const bot = await botOf(who.alice, { name: 'Streaming', config: { engines: { rag_id: refs.rag } } });
    let shown = '';
    const result = await respond(bot, 'How long does delivery of parcels take?', {
      stream: { delta: (text) => (shown += text), reset: () => (shown = '') },
    });
    expect(lastChat().body.stream).toBe(true);
    expect(shown).toBe(result.messages[0]?.text);
  });

  it("gives the bot's own fallback, not the RAG's, and offers an agent when nothing is found and the live agent is on", async () => {
    const bot = await botOf(who.alice, {
      name: 'Handover',
      config: {
        engines: {
          rag_id: refs.rag,
          enableliveagent: true,
          liveagent: 'inbox',
          fallbackText: 'The bot has no answer.',
        },
      },
    });
    const result = await respond(bot, 'Zebra xylophone quantum');
    expect(result).toMatchObject({ fallback: true, handoverOffered: true });
    expect(result.messages[0]?.text).toBe('The bot has no answer.');
    expect(result.messages[0]?.text).not.toBe(FALLBACK);
  });

  it("answers the bot's fallback once the organisation no longer holds omnirag", async () => {
    const bot = await botOf(who.alice, { name: 'Lapsed', config: { engines: { rag_id: refs.rag } } });
    const omnirag = and(eq(subscriptions.tenantId, ids.a), eq(subscriptions.code, 'omnirag'));
    await t.database.db.update(subscriptions).set({ status: 'cancelled' }).where(omnirag);
    try {
      const result = await respond(bot, 'How long does delivery take?');
      expect(result).toMatchObject({
        fallback: true,
        messages: [{ type: 'text', text: bot.config.engines.fallbackText }],
        trace: { engine: 'fallback', error: { code: 'forbidden' } },
      });
    } finally {
      await t.database.db.update(subscriptions).set({ status: 'active' }).where(omnirag);
    }
  });

  it("refuses a request whose tenant is not the bot's as an unknown bot", async () => {
    const bot = await botOf(who.alice, { name: 'Foreign', config: { engines: { rag_id: refs.rag } } });
    await expect(respond(bot, 'Delivery?', { tenantId: ids.b })).rejects.toMatchObject({
      statusCode: 404,
      code: 'not_found',
    });
  });
});

describe('openai engine', () => {
  it("answers with the bot's chat model and rendered prompt, without retrieval", async () => {
    const bot = await botOf(who.alice, {
      name: 'Pirate',
      config: {
        identity: { botName: 'Captain' },
        language: { default_language: 'fr' },
        engines: { botEngine: 'openai', model_id: refs.model, prompt_id: refs.prompt },
        openai: { max_tokens: 77, temperature: 0.2 },
      },
    });
    const result = await respond(bot, 'Where is my parcel?', {
      history: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Ahoy' },
      ],
    });
    expect(result).toMatchObject({ fallback: false, handoverOffered: false, sources: [] });
    expect(result.trace).toMatchObject({ engine: 'openai', error: null, answerId: null });
    expect(result.messages).toEqual([{ type: 'text', text: 'Parcels arrive in three days [1].' }]);
    const chat = lastChat();
    expect(chat.system).toBe('You are Captain, speak like a pirate in fr.');
    expect(chat.user).toBe('Where is my parcel?');
    expect(chat.body).toMatchObject({ max_tokens: 77, temperature: 0.2 });
    expect(JSON.stringify(chat.body)).toContain('Ahoy');
  });

  it('streams the model answer, and gives the fallback (with the reason) when the model fails', async () => {
    const bot = await botOf(who.alice, {
      name: 'Plain model',
      config: {
        engines: { botEngine: 'openai', model_id: refs.model, enableliveagent: true, liveagent: 'inbox' },
      },
    });
    let shown = '';
    const stream = { delta: (text: string) => (shown += text), reset: () => (shown = '') };
    const streamed = await respond(bot, 'Hi', { stream });
    expect(shown).toBe(streamed.messages[0]?.text);
    expect(lastChat().system).toContain('Omnibot');

    server.failure = 'server-error';
    shown = '';
    const failed = await respond(bot, 'Hi', { stream });
    expect(failed).toMatchObject({ fallback: true, handoverOffered: true, trace: { engine: 'fallback' } });
    expect(failed.trace.error?.code).toMatch(/^provider\//);
    expect(failed.messages[0]?.text).toBe(bot.config.engines.fallbackText);
    expect(shown).toBe(bot.config.engines.fallbackText);
  });
});

describe('a bot with neither', () => {
  it('answers its fallback text, offering an agent only when the live agent is on', async () => {
    const quiet = await botOf(who.bob, {
      name: 'Quiet',
      config: { engines: { fallbackText: 'Ask a human.' } },
    });
    const result = await respond(quiet, 'Anything?');
    expect(result).toMatchObject({
      messages: [{ type: 'text', text: 'Ask a human.' }],
      fallback: true,
      handoverOffered: false,
      trace: { engine: 'fallback', error: null },
    });
    const withAgent = await botOf(who.bob, {
      name: 'With agent',
      config: { engines: { botEngine: 'openai', enableliveagent: true, liveagent: 'inbox' } },
    });
    expect((await respond(withAgent, 'Anything?')).handoverOffered).toBe(true);
  });
});
