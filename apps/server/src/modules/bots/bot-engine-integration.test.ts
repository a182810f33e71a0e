import { BotSchema, IntegrationSchema } from '@omnibot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthSecret } from '../../bootstrap';
import { bots, integrations } from '../../db/schema';
import { createSecretBox } from '../../lib/secret-box';
import { type Caller, createTestApp, injectAs, type TestApp } from '../../test/app';
import {
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
} from '../../test/openai-compatible-server';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import type { AnswerDeps } from '../rag/rag-answer';
import { makeChatModel, makeIndex, makeKnowledge } from '../rag/rags.test-support';
import { type BotReply, type BotRequest, engineFor } from './bot-engine';
import { createBotSecrets, type StoredBot } from './bots.service';
import { loopbackModelFetch, TEST_FETCH_ALLOW } from '../../test/loopback-fetch';

/*
 * Bots that answer through a chatbot-engine integration. Two local OpenAI-compatible servers
 * (test/openai-compatible-server.ts, speaking the OpenAI chat-completions protocol) stand for the bot's own chat
 * model and the integration's endpoint, so a test can tell which one answered.
 */

const KEY = 'sk-integration-engine-key-0042';

let t: TestApp;
let own: OpenAICompatibleServer;
let remote: OpenAICompatibleServer;
let deps: AnswerDeps;
let open: (row: typeof bots.$inferSelect) => StoredBot;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'iengine-a', b: 'iengine-b', noRag: 'iengine-norag' };
const refs = { rag: '', model: '', openai: '', builtin: '' };

async function botOf(caller: Caller, body: Record<string, unknown>): Promise<StoredBot> {
  const response = await injectAs(t, 'POST', '/v1/bots', caller, body);
  expect(response.statusCode, response.body).toBe(201);
  const { id } = BotSchema.parse(response.json());
  const [row] = await t.database.db.select().from(bots).where(eq(bots.id, id));
  if (!row) throw new Error('the bot was not stored');
  return open(row);
}

async function integration(caller: Caller, body: Record<string, unknown>) {
  const response = await injectAs(t, 'POST', '/v1/integrations', caller, body);
  expect(response.statusCode, response.body).toBe(201);
  return IntegrationSchema.parse(response.json()).id;
}

const respond = (bot: StoredBot, text: string, extra: Partial<BotRequest> = {}): Promise<BotReply> =>
  engineFor(deps, bot).respond({ tenantId: bot.row.tenantId, bot, text, history: [], ...extra });

const lastChat = (server: OpenAICompatibleServer) =>
  server.requests.filter((entry) => entry.path === '/chat/completions').at(-1);

beforeAll(async () => {
  t = await createTestApp({ env: { FETCH_ALLOW_ADDRESSES: TEST_FETCH_ALLOW } });
  own = await startOpenAICompatibleServer({ reply: 'From the bot model.' });
  remote = await startOpenAICompatibleServer({ reply: 'From the integration endpoint.' });
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
    { type: 'text', title: 'Shipping', text: 'Delivery of parcels takes three working days in Europe.' },
  ]);
  const rag = await injectAs(t, 'POST', '/v1/rags', who.alice, {
    name: 'Help',
    index_id: await makeIndex(t, ids.a, 'Main', [kb.id]),
  });
  expect(rag.statusCode, rag.body).toBe(201);
  refs.rag = rag.json<{ id: string }>().id;
  refs.model = (
    await makeChatModel(t, {
      name: 'Own',
      base_url: own.baseUrl,
      api_key: 'sk-own-model-key',
      tenant_ids: [ids.a],
    })
  ).id;
  refs.openai = await integration(who.alice, {
    name: 'Remote',
    engine: 'openai',
    settings: {
      base_url: remote.baseUrl,
      model: 'remote-chat',
      api_key: KEY,
      max_tokens: 99,
      temperature: 0.3,
    },
  });
  refs.builtin = await integration(who.alice, {
    name: 'Help RAG',
    engine: 'builtin',
    settings: { rag_id: refs.rag },
  });
});
afterAll(async () => {
  await own.close();
  await remote.close();
  await t.close();
});

describe('a bot answering through an integration', () => {
  it("uses the openai integration's endpoint, model, key and limits instead of the bot's own model", async () => {
    const bot = await botOf(who.alice, {
      name: 'Remote bot',
      config: {
        identity: { botName: 'Remy' },
        engines: { botEngine: 'openai', model_id: refs.model, integration_id: refs.openai },
        openai: { max_tokens: 11, temperature: 1.5 },
      },
    });
    const ownCalls = own.requests.length;
    const result = await respond(bot, 'Where is my parcel?');
    expect(result).toMatchObject({
      fallback: false,
      messages: [{ type: 'text', text: 'From the integration endpoint.' }],
      trace: { engine: 'openai', error: null },
    });
    expect(own.requests.length).toBe(ownCalls);
    const chat = lastChat(remote);
    expect(chat?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(chat?.body).toMatchObject({ model: 'remote-chat', max_tokens: 99, temperature: 0.3 });
    expect(JSON.stringify(chat?.body)).toContain('Remy');

    let shown = '';
    const streamed = await respond(bot, 'Hi', {
      stream: { delta: (text) => (shown += text), reset: () => (shown = '') },
    });
    expect(shown).toBe(streamed.messages[0]?.text);
  });

  it('gives the fallback with the provider reason when the integration endpoint fails', async () => {
    const bot = await botOf(who.alice, {
      name: 'Failing remote',
      config: { engines: { integration_id: refs.openai, enableliveagent: true, liveagent: 'inbox' } },
    });
    remote.failure = 'unauthorized';
    try {
      const result = await respond(bot, 'Hi');
      expect(result).toMatchObject({
        fallback: true,
        handoverOffered: true,
        trace: { engine: 'fallback', error: { code: 'provider/unauthorized' } },
      });
      expect(result.messages[0]?.text).toBe(bot.config.engines.fallbackText);
    } finally {
      remote.failure = 'none';
    }
  });

  it("answers from the builtin integration's RAG with its sources", async () => {
    const bot = await botOf(who.alice, {
      name: 'RAG bot',
      config: { engines: { integration_id: refs.builtin } },
    });
    expect(bot.config.engines.rag_id).toBeNull();
    const result = await respond(bot, 'How long does delivery of parcels take?');
    expect(result.trace.engine).toBe('builtin');
    expect(result.fallback).toBe(false);
    expect(result.sources.map((source) => source.title)).toEqual(['Shipping']);
  });

  it('gives the fallback with the reason when the integration is gone', async () => {
    const bot = await botOf(who.alice, {
      name: 'Orphan',
      config: { engines: { integration_id: refs.builtin } },
    });
    const [row] = await t.database.db.select().from(integrations).where(eq(integrations.id, refs.builtin));
    if (!row) throw new Error('the integration was not stored');
    await t.database.db.delete(integrations).where(eq(integrations.id, refs.builtin));
    try {
      const result = await respond(bot, 'How long does delivery take?');
      expect(result).toMatchObject({
        fallback: true,
        trace: { engine: 'fallback', error: { code: 'bot/unknown-integration' } },
      });
    } finally {
      await t.database.db.insert(integrations).values(row);
    }
  });
});
