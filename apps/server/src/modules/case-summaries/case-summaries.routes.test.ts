import {
  BotSchema,
  CaseSummaryConfigListSchema,
  CaseSummaryConfigSchema,
  ConversationSchema,
  InboxTranscriptSchema,
  IntentReplySchema,
} from '@omnibot/contracts';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthSecret } from '../../bootstrap';
import { caseSummaryConfigs, conversations, conversationSummaries } from '../../db/schema';
import { type Caller, createTestApp, injectAs, type TestApp } from '../../test/app';
import { defined } from '../../test/defined';
import {
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
} from '../../test/openai-compatible-server';
import { makeSignedInUser, makeTenant, platformTenantId } from '../accounts/accounts.fixtures';
import { insertConversation, utcDayStart } from '../dashboard/dashboard.test-support';
import { makeChatModel } from '../rag/rags.test-support';
import { createConversationTokens } from '../widget/conversation-token';

/*
 * Case-summary configurations and the summaries they write, against the real app (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL); the chat model is the local server that speaks the OpenAI-compatible chat protocol.
 */

const SITE = 'https://shop.example.com';
const CARD = '4111 1111 1111 1111';
const EMAIL = 'jane.doe@example.com';
const ids = { a: 'cs-a', b: 'cs-b', plain: 'cs-plain' };
const who = {} as Record<'alice' | 'agent' | 'bob' | 'plain', Caller>;

let t: TestApp;
let model: OpenAICompatibleServer;
let modelId = '';
let maskedBot = '';
let otherBot = '';
let liveBot = '';
let bobBot = '';
let address = 0;

type Body = Record<string, unknown>;

async function makeBot(caller: Caller, name: string, config: Body) {
  const response = await injectAs(t, 'POST', '/v1/bots', caller, { name, config });
  expect(response.statusCode, response.body).toBe(201);
  const bot = BotSchema.parse(response.json());
  const enabled = await injectAs(t, 'PATCH', `/v1/bots/${bot.id}`, caller, { enabled: true });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return bot.id;
}

const masking = {
  enableMasking: true,
  patterns: [
    { name: 'Card', regExpression: '', preset: 'card' },
    { name: 'E-mail', regExpression: '', preset: 'email' },
  ],
};

async function createConfig(caller: Caller, body: Body) {
  return injectAs(t, 'POST', '/v1/case-summary-configs', caller, body);
}

async function configCount() {
  const [row] = await t.database.db.select({ n: count() }).from(caseSummaryConfigs);
  return row?.n ?? 0;
}

/** A conversation written straight to the tables as if masking had been off when it was stored, then queued. */
async function rawConversation(botId: string) {
  const { id } = await insertConversation(t, {
    tenantId: ids.a,
    botId,
    startedAt: utcDayStart(0, 10),
    messages: [
      { role: 'visitor', text: 'Hello' },
      { role: 'bot', text: 'Hello! How can I help you?' },
      { role: 'visitor', text: `My card ${CARD} was charged twice for order 5521. This is unacceptable!` },
      {
        role: 'bot',
        text: 'Double charges are refunded within five working days. You can see refunds under Orders. Anything else?',
      },
      { role: 'visitor', text: `Can you send the refund confirmation to ${EMAIL}?` },
      { role: 'bot', text: 'Sorry, I do not know that.', fallback: true },
    ],
  });
  await t.database.db
    .update(conversations)
    .set({ state: 'queued', queuedAt: new Date(), handoverReason: 'visitor' })
    .where(eq(conversations.id, id));
  return id;
}

beforeAll(async () => {
  t = await createTestApp({
    env: { FETCH_ALLOW_ADDRESSES: '127.0.0.1', WIDGET_RATE_LIMIT_CONVERSATION: '200' },
  });
  const platform = await platformTenantId(t);
  await makeTenant(t, {
    tenantId: ids.a,
    parent: platform,
    type: '3',
    domain: 'cs-a.test',
    codes: ['casesummary'],
  });
  await makeTenant(t, {
    tenantId: ids.b,
    parent: platform,
    type: '3',
    domain: 'cs-b.test',
    codes: ['casesummary'],
  });
  await makeTenant(t, {
    tenantId: ids.plain,
    parent: platform,
    type: '3',
    domain: 'cs-plain.test',
    codes: ['omnirag'],
  });
  who.alice = { cookie: (await makeSignedInUser(t, ids.a, 'alice@cs-a.test', 'user')).cookie };
  who.agent = { cookie: (await makeSignedInUser(t, ids.a, 'agent@cs-a.test', 'agent')).cookie };
  who.bob = { cookie: (await makeSignedInUser(t, ids.b, 'bob@cs-b.test', 'user')).cookie };
  who.plain = { cookie: (await makeSignedInUser(t, ids.plain, 'plain@cs-plain.test', 'user')).cookie };
  model = await startOpenAICompatibleServer();
  modelId = (await makeChatModel(t, { name: 'Summariser', base_url: model.baseUrl, tenant_ids: [ids.a] })).id;
  maskedBot = await makeBot(who.alice, 'Masked', { masking });
  otherBot = await makeBot(who.alice, 'Other', { masking });
  liveBot = await makeBot(who.alice, 'Live', {
    masking,
    engines: {
      botEngine: 'builtin',
      fallbackText: 'I cannot answer that.',
      enableliveagent: true,
      liveagent: 'inbox',
    },
    install: { allowedOrigins: [SITE] },
  });
  bobBot = await makeBot(who.bob, 'Bobs', {});
});
afterAll(async () => {
  await model?.close();
  await t?.close();
});

describe('case-summary configurations', () => {
  it('creates with defaults, lists, reads, changes and deletes, naming the bots and the model', async () => {
    const created = await createConfig(who.alice, { name: 'Support', bot_ids: [maskedBot] });
    expect(created.statusCode, created.body).toBe(201);
    const config = CaseSummaryConfigSchema.parse(created.json());
    expect(config).toMatchObject({
      tenant_id: ids.a,
      name: 'Support',
      bots: [{ id: maskedBot, name: 'Masked' }],
      model_id: null,
      model_name: null,
      sections: ['issue', 'answers', 'open', 'sentiment'],
      max_chars: 800,
      triggers: ['handover'],
    });
    const list = CaseSummaryConfigListSchema.parse(
      (await injectAs(t, 'GET', '/v1/case-summary-configs', who.alice)).json(),
    );
    expect(list.items.map((item) => item.id)).toEqual([config.id]);
    const patched = await injectAs(t, 'PATCH', `/v1/case-summary-configs/${config.id}`, who.alice, {
      model_id: modelId,
      bot_ids: [maskedBot, otherBot],
      sections: ['open', 'issue'],
      max_chars: 300,
      triggers: ['handover', 'close'],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(CaseSummaryConfigSchema.parse(patched.json())).toMatchObject({
      model_id: modelId,
      model_name: 'Summariser',
      bots: [
        { id: maskedBot, name: 'Masked' },
        { id: otherBot, name: 'Other' },
      ],
      sections: ['open', 'issue'],
      max_chars: 300,
      triggers: ['handover', 'close'],
    });
    const read = await injectAs(t, 'GET', `/v1/case-summary-configs/${config.id}`, who.agent);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(patched.json());
    const deleted = await injectAs(t, 'DELETE', `/v1/case-summary-configs/${config.id}`, who.alice);
    expect(deleted.statusCode).toBe(204);
    expect((await injectAs(t, 'GET', `/v1/case-summary-configs/${config.id}`, who.alice)).statusCode).toBe(
      404,
    );
  });

  it('refuses bad input with a 400 naming it, and changes nothing', async () => {
    const before = await configCount();
    for (const [body, code] of [
      [{ name: 'x', bot_ids: [] }, 'invalid_argument'],
      [{ name: '', bot_ids: [maskedBot] }, 'invalid_argument'],
      [{ name: 'x', bot_ids: [maskedBot], sections: ['issue', 'issue'] }, 'invalid_argument'],
      [{ name: 'x', bot_ids: [maskedBot], sections: ['mood'] }, 'invalid_argument'],
      [{ name: 'x', bot_ids: [maskedBot], max_chars: 50 }, 'invalid_argument'],
      [{ name: 'x', bot_ids: [maskedBot], max_chars: 99_999 }, 'invalid_argument'],
      [{ name: 'x', bot_ids: [maskedBot], triggers: [] }, 'invalid_argument'],
      [{ name: 'x', bot_ids: [maskedBot], tenant_id: ids.b }, 'invalid_argument'],
      [{ name: 'x', bot_ids: ['not-a-uuid'] }, 'invalid_argument'],
      [{ name: 'x', bot_ids: [bobBot] }, 'case-summary/unknown-bot'],
      [
        { name: 'x', bot_ids: [maskedBot], model_id: '00000000-0000-4000-8000-000000000000' },
        'case-summary/unknown-model',
      ],
    ] as const) {
      const response = await createConfig(who.alice, body);
      expect([JSON.stringify(body), response.statusCode, response.json<{ code: string }>().code]).toEqual([
        JSON.stringify(body),
        400,
        code,
      ]);
    }
    expect(await configCount()).toBe(before);
  });

  it('keeps a bot in one configuration and names unique per organisation (409)', async () => {
    const first = await createConfig(who.alice, { name: 'One', bot_ids: [maskedBot] });
    expect(first.statusCode).toBe(201);
    const taken = await createConfig(who.alice, { name: 'Two', bot_ids: [otherBot, maskedBot] });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      code: 'case-summary/bot-taken',
      message: 'The bot Masked is already summarised by the configuration One; take it out there first.',
    });
    const sameName = await createConfig(who.alice, { name: 'One', bot_ids: [otherBot] });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json<{ code: string }>().code).toBe('case-summary/name-taken');
    // Another organisation may use the same name.
    const bobs = await createConfig(who.bob, { name: 'One', bot_ids: [bobBot] });
    expect(bobs.statusCode).toBe(201);
    // Another organisation's configuration answers like an unknown one.
    const foreign = await injectAs(
      t,
      'GET',
      `/v1/case-summary-configs/${CaseSummaryConfigSchema.parse(bobs.json()).id}`,
      who.alice,
    );
    expect(foreign.statusCode).toBe(404);
    await injectAs(
      t,
      'DELETE',
      `/v1/case-summary-configs/${CaseSummaryConfigSchema.parse(first.json()).id}`,
      who.alice,
    );
  });

  it('answers 403 without the casesummary subscription, and agents only read', async () => {
    const plain = await injectAs(t, 'GET', '/v1/case-summary-configs', who.plain);
    expect(plain.statusCode).toBe(403);
    const agentWrite = await createConfig(who.agent, { name: 'Agent', bot_ids: [otherBot] });
    expect(agentWrite.statusCode).toBe(403);
    expect((await injectAs(t, 'GET', '/v1/case-summary-configs', who.agent)).statusCode).toBe(200);
  });
});

const inboxSummaryOf = async (id: string) => {
  const response = await injectAs(t, 'GET', `/v1/inbox/${id}`, who.agent);
  expect(response.statusCode, response.body).toBe(200);
  return InboxTranscriptSchema.parse(response.json()).summary;
};

async function summarise(id: string) {
  t.app.caseSummaries.handedOver({ tenantId: ids.a, id });
  await t.app.caseSummaries.flush();
  return inboxSummaryOf(id);
}

const mustHide = (text: string) => {
  expect(text).not.toContain(CARD);
  expect(text).not.toContain('4111');
  expect(text).not.toContain(EMAIL);
  expect(text).not.toContain('jane.doe');
};

describe('summaries', () => {
  let configId = '';
  beforeAll(async () => {
    const created = await createConfig(who.alice, { name: 'Summaries', bot_ids: [maskedBot] });
    expect(created.statusCode, created.body).toBe(201);
    configId = CaseSummaryConfigSchema.parse(created.json()).id;
  });
  const configure = async (body: Body) => {
    const response = await injectAs(t, 'PATCH', `/v1/case-summary-configs/${configId}`, who.alice, body);
    expect(response.statusCode, response.body).toBe(200);
  };

  it('writes an extractive summary without a model: issue, answers, what is open, sentiment, masked', async () => {
    await configure({ model_id: null, max_chars: 800 });
    const id = await rawConversation(maskedBot);
    const summary = defined(await summarise(id));
    expect(summary).toMatchObject({ trigger: 'handover', method: 'extractive', model_name: null });
    expect(summary.sections.issue).toBe(
      `My card ******************* was charged twice for order 5521. This is unacceptable! Can you send the refund confirmation to ********************?`,
    );
    expect(summary.sections.answers).toBe(
      'Double charges are refunded within five working days. You can see refunds under Orders.',
    );
    expect(summary.sections.open).toBe(
      '"Can you send the refund confirmation to ********************?" The bot could not answer once. The visitor asked for a person.',
    );
    expect(summary.sections.sentiment).toBe('negative');
    expect(summary.text.split('\n').map((line) => line.split(':')[0])).toEqual([
      'Issue',
      'Bot answered',
      'Still open',
      'Sentiment',
    ]);
    mustHide(JSON.stringify(summary));
    // Asking again while it waits writes no second one; the dashboard's transcript shows the same summary.
    expect((await summarise(id))?.id).toBe(summary.id);
    const transcript = ConversationSchema.parse(
      (await injectAs(t, 'GET', `/v1/conversations/${id}`, who.alice)).json(),
    );
    expect(transcript.summaries).toEqual([summary]);
  });

  it('keeps the whole text within the length limit, cut at a whole sentence or word', async () => {
    await configure({ model_id: null, max_chars: 200, sections: ['issue', 'answers', 'open', 'sentiment'] });
    const summary = defined(await summarise(await rawConversation(maskedBot)));
    expect(summary.text.length).toBeLessThanOrEqual(200);
    for (const value of [summary.sections.issue, summary.sections.answers, summary.sections.open]) {
      expect(defined(value)).toMatch(/[.!?"…]$/u);
    }
    expect(summary.sections.sentiment).toBe('negative');
    mustHide(summary.text);
  });

  it('writes only the chosen sections, in the product order', async () => {
    await configure({ model_id: null, max_chars: 800, sections: ['sentiment', 'issue'] });
    const summary = defined(await summarise(await rawConversation(maskedBot)));
    expect(Object.keys(summary.sections).sort()).toEqual(['issue', 'sentiment']);
    expect(summary.text.split('\n').map((line) => line.split(':')[0])).toEqual(['Issue', 'Sentiment']);
  });

  it('has the chat model write it from masked text only, and masks what the model says', async () => {
    await configure({
      model_id: modelId,
      max_chars: 800,
      sections: ['issue', 'answers', 'open', 'sentiment'],
    });
    model.requests.length = 0;
    model.reply = JSON.stringify({
      issue: `The visitor was charged twice and wants the confirmation at ${EMAIL}.`,
      answers: 'Refunds take five working days.',
      open: 'Sending the refund confirmation.',
      sentiment: 'Negative',
    });
    const summary = defined(await summarise(await rawConversation(maskedBot)));
    expect(summary).toMatchObject({ method: 'model', model_name: 'Summariser' });
    expect(summary.sections).toEqual({
      issue: 'The visitor was charged twice and wants the confirmation at ********************.',
      answers: 'Refunds take five working days.',
      open: 'Sending the refund confirmation.',
      sentiment: 'negative',
    });
    mustHide(summary.text);
    const calls = model.requests.filter((request) => request.path === '/chat/completions');
    expect(calls).toHaveLength(1);
    const sent = JSON.stringify(calls[0]?.body);
    mustHide(sent);
    expect(sent).toContain('My card ******************* was charged twice');
    expect(sent).toContain('\\"issue\\"');
  });

  it('falls back to an extractive summary when the model fails, logging no transcript', async () => {
    await configure({ model_id: modelId });
    model.failure = 'server-error';
    const logsBefore = t.logs.length;
    try {
      const summary = defined(await summarise(await rawConversation(maskedBot)));
      expect(summary.method).toBe('extractive');
      mustHide(summary.text);
    } finally {
      model.failure = 'none';
    }
    const logged = JSON.stringify(t.logs.slice(logsBefore));
    expect(logged).toContain('provider/error');
    expect(logged).not.toContain('charged twice');
    mustHide(logged);
  });

  it('writes nothing for a bot without a configuration or a tenant without the subscription', async () => {
    const id = await rawConversation(otherBot);
    expect(await summarise(id)).toBeNull();
    const [row] = await t.database.db
      .select({ n: count() })
      .from(conversationSummaries)
      .where(eq(conversationSummaries.conversationId, id));
    expect(row?.n).toBe(0);
  });
});

describe('the hand-over journey', () => {
  it('summarises at hand-over for the inbox and again at close, both in the dashboard transcript', async () => {
    const created = await createConfig(who.alice, {
      name: 'Live summaries',
      bot_ids: [liveBot],
      triggers: ['handover', 'close'],
      max_chars: 600,
    });
    expect(created.statusCode, created.body).toBe(201);
    const post = (url: string, payload: Body) =>
      t.app.inject({
        method: 'POST',
        url,
        remoteAddress: `10.77.0.${++address}`,
        headers: { 'content-type': 'application/json', origin: SITE },
        payload: JSON.stringify(payload),
      });
    const first = await post('/v1/intent', {
      botId: liveBot,
      text: `My card ${CARD} was declined twice, why?`,
    });
    expect(first.statusCode, first.body).toBe(200);
    const token = IntentReplySchema.parse(first.json()).conversationToken;
    const tokens = createConversationTokens(await loadAuthSecret(t.database.db, t.env));
    const id = defined(tokens.verify(token, liveBot));
    const handover = await post('/v1/handover', { botId: liveBot, conversationToken: token });
    expect(handover.statusCode, handover.body).toBe(200);
    await t.app.caseSummaries.flush();
    const atHandover = defined(await inboxSummaryOf(id));
    expect(atHandover.trigger).toBe('handover');
    expect(atHandover.sections.issue).toBe('My card ******************* was declined twice, why?');
    mustHide(atHandover.text);

    expect((await injectAs(t, 'POST', `/v1/inbox/${id}/claim`, who.agent)).statusCode).toBe(200);
    expect(
      (
        await injectAs(t, 'POST', `/v1/inbox/${id}/messages`, who.agent, {
          text: `I will write to ${EMAIL}.`,
        })
      ).statusCode,
    ).toBe(201);
    expect((await injectAs(t, 'POST', `/v1/inbox/${id}/close`, who.agent)).statusCode).toBe(200);
    await t.app.caseSummaries.flush();
    const transcript = ConversationSchema.parse(
      (await injectAs(t, 'GET', `/v1/conversations/${id}`, who.alice)).json(),
    );
    expect(transcript.summaries.map((summary) => summary.trigger)).toEqual(['handover', 'close']);
    expect(transcript.summaries[1]?.sections.open).not.toContain('declined twice');
    mustHide(JSON.stringify(transcript.summaries));
  });
});
