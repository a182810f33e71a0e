import { generateKeyPairSync } from 'node:crypto';
import { BotSchema, IntegrationSchema, IntentReplySchema } from '@omnibot/contracts';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { conversationMessages } from '../../db/schema';
import { type Caller, createTestApp, injectAs, type TestApp } from '../../test/app';
import {
  type DialogflowCxServer,
  type DialogflowFailureMode,
  serviceAccountKeyFile,
  startDialogflowCxServer,
} from '../../test/dialogflow-cx-server';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { createConversationTokens } from '../widget/conversation-token';
import { loadAuthSecret } from '../../bootstrap';

/*
 * Bots answering with a Dialogflow CX integration through the real POST /v1/intent (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL), against test/dialogflow-cx-server.ts, a local server speaking the Dialogflow CX v3 REST
 * protocol and Google's OAuth2 JWT-bearer token exchange, which verifies each assertion with the public half of
 * the key pair made here.
 */

const FALLBACK = 'Sorry, I cannot help with that here.';
const PROJECT = 'shop-project-42';
const EMAIL = 'omnibot@shop-project-42.iam.gserviceaccount.com';
const AGENTS = {
  main: { agentId: '1111aaaa-0000-4000-8000-000000000001', displayName: 'Shop main agent' },
  backup: { agentId: '2222bbbb-0000-4000-8000-000000000002', displayName: 'Shop backup agent' },
  french: { agentId: '3333cccc-0000-4000-8000-000000000003', displayName: 'Shop French agent' },
};

let t: TestApp;
let df: DialogflowCxServer;
let tokens: ReturnType<typeof createConversationTokens>;
let keyCount = 0;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'dfcx-a', b: 'dfcx-b', noRag: 'dfcx-norag' };
let lastAddress = 0;

/** A fresh key pair registered with the fake: each integration has its own key, so no token is shared. */
function newKey(email = EMAIL, projects = [PROJECT]): string {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const address = email.replace('@', `-${++keyCount}@`);
  df.registerAccount(address, publicKey, projects);
  return serviceAccountKeyFile({
    email: address,
    projectId: PROJECT,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    tokenUri: df.tokenUri,
  });
}

const agent = (name: string, which: keyof typeof AGENTS, location = 'europe-west1') => ({
  agentName: name,
  agentId: AGENTS[which].agentId,
  projectId: PROJECT,
  location,
});

async function dialogflowBot(settings: Record<string, unknown> = {}, engines: Record<string, unknown> = {}) {
  const made = await injectAs(t, 'POST', '/v1/integrations', who.alice, {
    name: `Dialogflow ${++keyCount}`,
    engine: 'dialogflowcx',
    settings: {
      service_account_key: newKey(),
      agents: [agent('support', 'main'), agent('backup', 'backup'), agent('support-fr', 'french')],
      default_agent: 'support',
      endpoint: df.url,
      ...settings,
    },
  });
  expect(made.statusCode, made.body).toBe(201);
  const integration = IntegrationSchema.parse(made.json());
  const bot = await injectAs(t, 'POST', '/v1/bots', who.alice, {
    name: `Dialogflow bot ${keyCount}`,
    config: {
      engines: {
        botEngine: 'dialogflowcx',
        integration_id: integration.id,
        fallbackText: FALLBACK,
        ...engines,
      },
    },
  });
  expect(bot.statusCode, bot.body).toBe(201);
  return BotSchema.parse(bot.json()).id;
}

async function ask(botId: string, text: string, extra: Record<string, unknown> = {}) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/intent',
    remoteAddress: `10.9.${Math.floor(++lastAddress / 250)}.${(lastAddress % 250) + 1}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ botId, text, ...extra }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return IntentReplySchema.parse(response.json());
}

async function storedBotMessages(botId: string, token: string) {
  const conversationId = tokens.verify(token, botId) ?? 'none';
  return t.database.db
    .select()
    .from(conversationMessages)
    .where(eq(conversationMessages.conversationId, conversationId))
    .orderBy(asc(conversationMessages.createdAt), asc(conversationMessages.id));
}

const detectCalls = () => df.requests.filter((request) => request.path.endsWith(':detectIntent'));

beforeAll(async () => {
  t = await createTestApp({
    env: {
      FETCH_ALLOW_ADDRESSES: '127.0.0.1',
      RAG_MODEL_TIMEOUT_MS: '800',
      WIDGET_RATE_LIMIT_CONVERSATION: '200',
    },
  });
  df = await startDialogflowCxServer([
    { projectId: PROJECT, location: 'europe-west1', ...AGENTS.main },
    { projectId: PROJECT, location: 'europe-west1', ...AGENTS.backup },
    { projectId: PROJECT, location: 'europe-west1', ...AGENTS.french, defaultLanguageCode: 'fr' },
  ]);
  tokens = createConversationTokens(await loadAuthSecret(t.database.db, t.env));
  Object.assign(who, await makeOmniragTenants(t, ids));
});
beforeEach(() => {
  df.failures.clear();
  df.tokenFailure = null;
});
afterAll(async () => {
  await df.close();
  await t.close();
});

describe('a bot answering with Dialogflow CX through /v1/intent', () => {
  it('holds a scripted conversation of 22 turns: several messages, one session, language and hand-over', async () => {
    const botId = await dialogflowBot({}, { enableliveagent: true, liveagent: 'inbox' });
    const tokensBefore = df.tokensIssued;
    const first = await ask(botId, 'hello', { language: 'en' });
    expect(first.messages.map((message) => message.text)).toEqual([
      'Hello! I am the shop assistant.',
      'How can I help you today?',
    ]);
    expect(first).toMatchObject({ fallback: false, handoverOffered: false, language: 'en' });
    const token = first.conversationToken;
    const say = async (text: string, language = 'en') =>
      ask(botId, text, { conversationToken: token, language });

    const script: Array<[string, string[]]> = [
      ['my name is Ada', ['Nice to meet you, Ada.']],
      ['what is my name', ['Your name is Ada.']],
      [
        'where is my order',
        [
          'Your order ships tomorrow.',
          '[Track the parcel](https://shop.example.com/track/42)\n[Returns](https://shop.example.com/returns)',
        ],
      ],
      ['options', ['Choose one of these.']],
      ['custom', ['Noted in your file.']],
      ['which agent', ['You are talking to Shop main agent.']],
      ['audio', ['Spoken and written.']],
      ['what do you know', ['language=en country= turns=9']],
      ['hi', ['Hello! I am the shop assistant.', 'How can I help you today?']],
      ['what is my name', ['Your name is Ada.']],
      ['my name is Grace', ['Nice to meet you, Grace.']],
      ['what is my name', ['Your name is Grace.']],
      ['which agent', ['You are talking to Shop main agent.']],
      ['where is my order', ['Your order ships tomorrow.']],
      ['options', ['Choose one of these.']],
      ['what do you know', ['language=en country= turns=17']],
    ];
    for (const [text, expected] of script) {
      const reply = await say(text);
      expect(reply.conversationToken).toBe(token);
      expect(reply.fallback, text).toBe(false);
      expect(reply.messages.map((message) => message.text).slice(0, expected.length), text).toEqual(expected);
    }

    // No match: the bot's own fallback text (never the agent's "sorry"), with the reason stored on the turn.
    const missed = await say('the weather on mars');
    expect(missed).toMatchObject({ fallback: true, messages: [{ text: FALLBACK }], handoverOffered: true });

    // French: the French agent's answer in French, the language passed to Dialogflow and stored.
    const french = await say('bonjour', 'fr');
    expect(french.messages[0]?.text).toBe('Bonjour ! Je suis l’assistant de la boutique.');
    expect(french.language).toBe('fr');

    // The goodbye ends the Dialogflow session: what it knew is forgotten.
    const bye = await say('bye');
    expect(bye.messages.map((message) => message.text)).toEqual(['Goodbye!']);
    const after = await say('what is my name');
    expect(after.messages[0]?.text).toBe('I do not know your name yet.');

    // The agent's hand-off starts a hand-over to the inbox.
    const handoff = await say('agent');
    expect(handoff.messages.map((message) => message.text)).toEqual(['Let me find a person for you.']);
    expect(handoff.handover).toBeDefined();

    const calls = detectCalls().slice(-22);
    expect(calls).toHaveLength(22);
    const sessions = new Set(calls.map((call) => call.path.split('/sessions/')[1]?.split(':')[0]));
    // One Dialogflow session for the whole conversation, at most 36 characters.
    expect(sessions.size).toBe(1);
    for (const session of sessions) expect(session?.length).toBeLessThanOrEqual(36);
    expect(calls.filter((call) => call.path.includes(AGENTS.french.agentId))).toHaveLength(0);
    expect(calls[0]?.path).toMatch(
      new RegExp(`^/v3/projects/${PROJECT}/locations/europe-west1/agents/${AGENTS.main.agentId}/sessions/`),
    );
    expect(calls[0]?.body).toEqual({
      queryInput: { text: { text: 'hello' }, languageCode: 'en' },
      queryParams: { parameters: { language: 'en' } },
    });
    expect(calls.find((call) => JSON.stringify(call.body).includes('bonjour'))?.body).toMatchObject({
      queryInput: { languageCode: 'fr' },
    });
    // One token served the whole conversation.
    expect(df.tokensIssued - tokensBefore).toBe(1);

    const stored = await storedBotMessages(botId, token);
    const noMatch = stored.find((message) => message.role === 'bot' && message.fallback);
    expect(noMatch?.trace).toMatchObject({
      engine: 'dialogflowcx',
      error: { code: 'dialogflow/no-match', reason: 'The Dialogflow agent support matched no intent.' },
    });
    expect(stored.filter((message) => message.role === 'visitor')).toHaveLength(22);
  });

  it('answers a French visitor with the agent of their language when agent_per_language is on', async () => {
    const botId = await dialogflowBot({ agent_per_language: true, languages: ['en', 'fr'] });
    const reply = await ask(botId, 'which agent', { language: 'fr-FR' });
    expect(reply.messages[0]?.text).toBe('You are talking to Shop French agent.');
    expect(detectCalls().at(-1)?.body).toMatchObject({ queryInput: { languageCode: 'fr' } });
    const other = await ask(botId, 'which agent', { language: 'de' });
    expect(other.messages[0]?.text).toBe('You are talking to Shop main agent.');
    // German is not among the agent's languages: the default language is sent.
    expect(detectCalls().at(-1)?.body).toMatchObject({ queryInput: { languageCode: 'en' } });
  });

  it('without live agents, a hand-off neither hands over nor offers a person', async () => {
    const botId = await dialogflowBot();
    const reply = await ask(botId, 'human');
    expect(reply).toMatchObject({ fallback: false, handoverOffered: false });
    expect(reply.handover).toBeUndefined();
  });

  it('sends the environment in the session path', async () => {
    const botId = await dialogflowBot({ environment: 'prod-env' });
    await ask(botId, 'hello');
    expect(detectCalls().at(-1)?.path).toContain(
      `/agents/${AGENTS.main.agentId}/environments/prod-env/sessions/`,
    );
  });

  it('asks the fallback agent when the default one fails, and records why', async () => {
    const botId = await dialogflowBot({ fallback_agent: 'backup' });
    df.failures.set(AGENTS.main.agentId, 'unavailable');
    const reply = await ask(botId, 'which agent');
    expect(reply).toMatchObject({
      fallback: false,
      messages: [{ text: 'You are talking to Shop backup agent.' }],
    });
    const [, answer] = await storedBotMessages(botId, reply.conversationToken);
    expect(answer?.trace).toMatchObject({
      engine: 'dialogflowcx',
      error: { code: 'dialogflow/fallback-agent' },
    });
    expect(answer?.trace?.error?.reason).toMatch(/support: Dialogflow failed \(503 UNAVAILABLE/u);
  });

  const modes: Array<[DialogflowFailureMode, string, RegExp]> = [
    ['unauthenticated', 'provider/unauthorized', /refused the access token \(401 UNAUTHENTICATED/u],
    ['permission-denied', 'dialogflow/forbidden', /403 PERMISSION_DENIED.*Dialogflow API Client role/u],
    ['not-found', 'dialogflow/not-found', /does not know this agent/u],
    ['rate-limited', 'provider/rate-limited', /limiting requests \(429 RESOURCE_EXHAUSTED: Quota exceeded/u],
    ['internal', 'provider/error', /failed \(500 INTERNAL/u],
    ['unavailable', 'provider/error', /failed \(503 UNAVAILABLE/u],
    ['hang', 'provider/timeout', /did not answer within 0.8 s/u],
    ['not-json', 'provider/bad-response', /not JSON/u],
    ['no-query-result', 'provider/bad-response', /without a queryResult/u],
  ];
  it.each(modes)(
    'a %s failure of both agents answers the fallback text with the reason',
    async (mode, code, reason) => {
      const botId = await dialogflowBot(
        { fallback_agent: 'backup' },
        { enableliveagent: true, liveagent: 'inbox' },
      );
      df.failures.set('*', mode);
      const reply = await ask(botId, 'hello');
      expect(reply).toMatchObject({ fallback: true, messages: [{ text: FALLBACK }], handoverOffered: true });
      const [, answer] = await storedBotMessages(botId, reply.conversationToken);
      expect(answer?.trace).toMatchObject({ engine: 'fallback', error: { code } });
      expect(answer?.trace?.error?.reason).toMatch(reason);
      expect(answer?.trace?.error?.reason).toMatch(/^support: .* Then backup: /u);
    },
  );

  it('a refused token exchange, a project the account may not use and a refused address answer the fallback', async () => {
    const refused = await dialogflowBot();
    df.tokenFailure = 'invalid_grant';
    const first = await ask(refused, 'hello');
    expect(first.fallback).toBe(true);
    const [, answer] = await storedBotMessages(refused, first.conversationToken);
    expect(answer?.trace?.error).toMatchObject({ code: 'provider/unauthorized' });
    expect(answer?.trace?.error?.reason).toMatch(
      /token endpoint refused the service account key \(400 invalid_grant/u,
    );
    df.tokenFailure = null;

    const elsewhere = await dialogflowBot({
      agents: [
        {
          agentName: 'support',
          agentId: AGENTS.main.agentId,
          projectId: 'other-project-9',
          location: 'europe-west1',
        },
      ],
    });
    const second = await ask(elsewhere, 'hello');
    expect(second.fallback).toBe(true);

    const blocked = await dialogflowBot({ endpoint: 'http://10.255.255.1:9' });
    const third = await ask(blocked, 'hello');
    expect(third.fallback).toBe(true);
    const [, refusedAnswer] = await storedBotMessages(blocked, third.conversationToken);
    expect(refusedAnswer?.trace?.error?.code).toBe('provider/unreachable');
  });

  it('no answer of any failure is a 5xx, and the key never reaches a log line', () => {
    const statuses = t.logs.map((line) => (line.res as { statusCode?: number } | undefined)?.statusCode ?? 0);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    for (const line of t.logs) {
      expect(JSON.stringify(line)).not.toContain('PRIVATE KEY');
      expect(JSON.stringify(line)).not.toContain('ya29.fake');
    }
  });
});
