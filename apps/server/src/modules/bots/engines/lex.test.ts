import { BotSchema, IntegrationSchema, IntentReplySchema } from '@omnibot/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadAuthSecret } from '../../../bootstrap';
import { conversationMessages } from '../../../db/schema';
import { type Caller, createTestApp, injectAs, type TestApp } from '../../../test/app';
import { type LexRuntimeServer, startLexRuntimeServer } from '../../../test/lex-runtime-server';
import { makeOmniragTenants } from '../../accounts/accounts.fixtures';
import { parseEvents, streamedText } from '../../rag/rags.test-support';
import { createConversationTokens, type ConversationTokens } from '../../widget/conversation-token';

/*
 * Bots answering with Amazon Lex V2 through the real POST /v1/intent (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 * Lex is test/lex-runtime-server.ts, a local server speaking the Lex V2 runtime's REST-JSON API that verifies every
 * request's SigV4 signature; the official @aws-sdk/client-lex-runtime-v2 reaches it through the endpoint override.
 */

const FALLBACK = 'Sorry, the flower bot did not get that.';

let t: TestApp;
let lex: LexRuntimeServer;
let tokens: ConversationTokens;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'lex-a', b: 'lex-b', noRag: 'lex-norag' };
const refs = { integration: '', wrongKey: '' };
let lastAddress = 0;
const nextAddress = () => `10.9.${Math.floor(++lastAddress / 250)}.${(lastAddress % 250) + 1}`;

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

async function integration(caller: Caller, name: string, settings: Record<string, unknown>) {
  const response = await injectAs(t, 'POST', '/v1/integrations', caller, { name, engine: 'lex', settings });
  expect(response.statusCode, response.body).toBe(201);
  return IntegrationSchema.parse(response.json()).id;
}

async function makeBot(name: string, integrationId: string, engines: Record<string, unknown> = {}) {
  const response = await injectAs(t, 'POST', '/v1/bots', who.alice, {
    name,
    config: {
      identity: { botName: 'Flora' },
      engines: { botEngine: 'lex', integration_id: integrationId, fallbackText: FALLBACK, ...engines },
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return BotSchema.parse(response.json()).id;
}

async function traceOf(conversationId: string) {
  const rows = await t.database.db
    .select()
    .from(conversationMessages)
    .where(and(eq(conversationMessages.conversationId, conversationId), eq(conversationMessages.role, 'bot')))
    .orderBy(asc(conversationMessages.createdAt));
  return rows.at(-1)?.trace ?? null;
}

beforeAll(async () => {
  t = await createTestApp({
    env: {
      FETCH_ALLOW_ADDRESSES: '127.0.0.1',
      RAG_MODEL_TIMEOUT_MS: '1500',
      WIDGET_RATE_LIMIT_CONVERSATION: '100',
    },
  });
  lex = await startLexRuntimeServer();
  tokens = createConversationTokens(await loadAuthSecret(t.database.db, t.env));
  Object.assign(who, await makeOmniragTenants(t, ids));
  const settings = {
    region: lex.region,
    bot_id: lex.botId,
    bot_alias_id: lex.botAliasId,
    locale_id: lex.localeId,
    access_key_id: lex.keys.accessKeyId,
    secret_access_key: lex.keys.secretAccessKey,
    endpoint: lex.baseUrl,
  };
  refs.integration = await integration(who.alice, 'Flower shop', settings);
  refs.wrongKey = await integration(who.alice, 'Flower shop, old key', {
    ...settings,
    secret_access_key: 'not-the-lex-secret-0000000000000000000000',
  });
});
beforeEach(() => {
  lex.clearFailures();
});
afterAll(async () => {
  await lex.close();
  await t.close();
});

describe('a bot answering with Amazon Lex V2', () => {
  it('holds a scripted conversation of more than 20 turns in one Lex session through /v1/intent', async () => {
    const botId = await makeBot('Flowers', refs.integration, { enableliveagent: true, liveagent: 'inbox' });
    const first = await ask(botId, 'Hello', { language: 'de' });
    const token = first.conversationToken;
    const conversationId = tokens.verify(token, botId) ?? 'none';
    const turn = (text: string, extra: Record<string, unknown> = {}) =>
      ask(botId, text, { conversationToken: token, language: 'de', ...extra });
    // Several messages in one turn.
    expect(first.messages.map((message) => message.text)).toEqual([
      'Hello! I am the flower shop bot.',
      'What can I do for you?',
    ]);
    let turns = 1;
    const orders: [string, string][] = [
      ['roses', 'today'],
      ['tulips', 'tomorrow'],
      ['lilies', 'friday'],
      ['roses', 'monday'],
    ];
    for (const [flower, day] of orders) {
      // An ImageResponseCard: its title, subtitle and buttons as text.
      const card = await turn('I want to order flowers');
      expect(card.messages.map((message) => message.text)).toEqual([
        'Which flowers would you like?\nFresh every morning\n- Roses\n- Tulips\n- Lilies',
      ]);
      const asked = await turn(flower);
      expect(asked.messages[0]?.text).toBe(`When would you like to pick up the ${flower}?`);
      // Closing: PlainText, a CustomPayload (skipped) and SSML (as text).
      const done = await turn(day);
      expect(done.messages.map((message) => message.text)).toEqual([
        `Your ${flower} will be ready ${day}.`,
        'Thank you for your order & see you!',
      ]);
      const recalled = await turn('What did I order?');
      expect(recalled.messages[0]?.text).toBe(`You ordered ${flower} ${day}.`);
      turns += 4;
    }
    // The visitor's language reaches Lex as a session attribute.
    expect((await turn('Which language are we speaking?')).messages[0]?.text).toBe('We are speaking de.');
    // Lex forgets the session (its idle timeout): the state sent back keeps the dialog going.
    lex.forgetSessions();
    expect((await turn('What did I order?')).messages[0]?.text).toBe('You ordered roses monday.');
    // Nothing understood: the bot's fallback text, the reason on the turn.
    const lost = await turn('Purple monkey dishwasher');
    expect(lost).toMatchObject({ fallback: true, messages: [{ text: FALLBACK }] });
    expect(await traceOf(conversationId)).toMatchObject({
      engine: 'lex',
      error: { code: 'engine/no-match', reason: 'Lex matched no intent (FallbackIntent).' },
    });
    // Only a custom payload: nothing the widget can show, so the fallback text.
    expect(await turn('silence')).toMatchObject({ fallback: true, messages: [{ text: FALLBACK }] });
    turns += 4;
    // The hand-over intent hands the conversation to a person.
    const handed = await turn('Can I talk to an agent?');
    turns += 1;
    expect(handed.messages[0]?.text).toBe('Let me find a person for you.');
    expect(handed.handover?.state).toBe('queued');
    expect(turns).toBeGreaterThanOrEqual(20);

    const texts = lex.requests.filter((request) => request.text !== null);
    expect(texts).toHaveLength(turns);
    // One Lex session, named by the conversation, for every turn.
    expect(new Set(texts.map((request) => request.sessionId))).toEqual(new Set([conversationId]));
    expect(texts.every((request) => request.sessionAttributes.omnibot_language === 'de')).toBe(true);
    expect(texts.every((request) => request.sessionAttributes.omnibot_bot_name === 'Flora')).toBe(true);
    // From the second turn on the stored session state goes back with each turn.
    expect(texts.slice(1).every((request) => request.sentSessionState)).toBe(true);
  });

  it('streams the messages as deltas before the reply', async () => {
    const botId = await makeBot('Flowers streamed', refs.integration);
    const response = await post({ botId, text: 'hi' }, true);
    expect(response.statusCode).toBe(200);
    const events = parseEvents(response.body);
    expect(streamedText(events)).toBe('Hello! I am the flower shop bot.\n\nWhat can I do for you?\n\n');
    const reply = events.find((event) => event.event === 'reply');
    expect(IntentReplySchema.parse(reply?.data).messages).toHaveLength(2);
  });

  it('gives the hand-over intent as a plain answer when the bot offers no person', async () => {
    const botId = await makeBot('Flowers without agents', refs.integration);
    const reply = await ask(botId, 'a person please');
    expect(reply).toMatchObject({
      messages: [{ text: 'Let me find a person for you.' }],
      fallback: false,
      handoverOffered: false,
    });
    expect(reply.handover).toBeUndefined();
  });

  it('answers every failure with the fallback text and the reason on the turn, never a 5xx', async () => {
    const botId = await makeBot('Flowers failing', refs.integration);
    const cases: [Parameters<LexRuntimeServer['failNext']>[0], string, RegExp][] = [
      [401, 'provider/unauthorized', /HTTP 401 UnrecognizedClientException/u],
      [403, 'provider/unauthorized', /HTTP 403 AccessDeniedException, the access key is not allowed/u],
      [429, 'provider/rate-limited', /HTTP 429 ThrottlingException, too many requests/u],
      [500, 'provider/error', /HTTP 500 InternalServerException/u],
      ['hang', 'provider/timeout', /Amazon Lex did not answer within 1\.5 s/u],
      ['malformed', 'provider/bad-response', /Amazon Lex sent an answer that cannot be read/u],
    ];
    for (const [failure, code, reason] of cases) {
      lex.failNext(failure);
      const reply = await ask(botId, 'hello');
      expect(reply, String(failure)).toMatchObject({ fallback: true, messages: [{ text: FALLBACK }] });
      const trace = await traceOf(tokens.verify(reply.conversationToken, botId) ?? 'none');
      expect(trace?.error?.code, String(failure)).toBe(code);
      expect(trace?.error?.reason, String(failure)).toMatch(reason);
    }
    // A wrong secret: Lex refuses the signature, in plain words, and the secret is nowhere in the reason.
    const wrong = await makeBot('Flowers, wrong key', refs.wrongKey);
    const reply = await ask(wrong, 'hello');
    expect(reply.fallback).toBe(true);
    const trace = await traceOf(tokens.verify(reply.conversationToken, wrong) ?? 'none');
    expect(trace?.error).toMatchObject({ code: 'provider/unauthorized' });
    expect(trace?.error?.reason).toMatch(/InvalidSignatureException, the request signature does not match/u);
    expect(JSON.stringify(t.logs)).not.toContain(lex.keys.secretAccessKey);
    expect(JSON.stringify(t.logs)).not.toContain('not-the-lex-secret');
  });
});
