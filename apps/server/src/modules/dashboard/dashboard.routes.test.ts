import { randomUUID } from 'node:crypto';
import { BotStatsSchema, ConversationListSchema, ConversationSchema } from '@omnibot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, injectAs, tablesFingerprint, type TestApp } from '../../test/app';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { insertConversation, utcDayStart, utcDayText } from './dashboard.test-support';

let t: TestApp;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'dash-a', b: 'dash-b', noRag: 'dash-norag' };
const bots = { helper: '', sales: '', bobs: '' };
const convs = { today: '', twoDaysAgo: '', old: '', percent: '', underscore: '', bobs: '', otherBot: '' };

const TABLES = ['conversations', 'conversation_messages', 'message_feedback', 'bots', 'audit_log'];
const get = (url: string, caller: Caller) => injectAs(t, 'GET', url, caller);

async function createBot(caller: Caller, body: Record<string, unknown>) {
  const response = await injectAs(t, 'POST', '/v1/bots', caller, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}

beforeAll(async () => {
  t = await createTestApp();
  Object.assign(who, await makeOmniragTenants(t, ids));
  bots.helper = await createBot(who.alice, {
    name: 'Helper',
    config: { feedback: { button1Text: 'Great', button2Text: 'Meh', button3Text: 'Wrong' } },
  });
  bots.sales = await createBot(who.alice, { name: 'Sales' });
  bots.bobs = await createBot(who.bob, { name: 'Helper' });

  const source = {
    n: 1,
    title: 'Returns policy',
    url: 'https://shop.example.com/returns',
    chunk_id: null,
    source_id: null,
    score: 0.8,
  };
  // Today: one answered question rated button1 with a comment, one fallback rated button3.
  convs.today = (
    await insertConversation(t, {
      tenantId: ids.a,
      botId: bots.helper,
      startedAt: utcDayStart(0, 1),
      messages: [
        { role: 'visitor', text: 'My PIN is **** and I want a refund', at: utcDayStart(0, 1) },
        {
          role: 'bot',
          text: 'Items can be returned within 30 days [1].',
          at: utcDayStart(0, 1),
          sources: [source],
          feedback: { rating: 'button1', comment: 'Thanks ****' },
        },
        { role: 'visitor', text: 'What about gift cards?', at: utcDayStart(0, 5) },
        {
          role: 'bot',
          text: 'Sorry, I do not know.',
          at: utcDayStart(0, 6),
          fallback: true,
          trace: {
            engine: 'builtin',
            error: { code: 'rag/none', reason: 'No RAG is set.' },
            answer_id: null,
            ms: 3,
          },
          feedback: { rating: 'button3' },
        },
      ],
    })
  ).id;
  // Two days ago: an answer rated button2.
  convs.twoDaysAgo = (
    await insertConversation(t, {
      tenantId: ids.a,
      botId: bots.helper,
      startedAt: utcDayStart(-2, 3600),
      messages: [
        { role: 'visitor', text: 'Opening hours?' },
        { role: 'bot', text: 'From nine to five.', feedback: { rating: 'button2' } },
      ],
    })
  ).id;
  // Forty days ago: outside 30 days, inside 90.
  convs.old = (
    await insertConversation(t, {
      tenantId: ids.a,
      botId: bots.helper,
      startedAt: utcDayStart(-40, 60),
      messages: [
        { role: 'visitor', text: 'Hello there' },
        { role: 'bot', text: 'Hi!', fallback: true },
      ],
    })
  ).id;
  // Wildcards as literal text: only these match a search for % or _.
  convs.percent = (
    await insertConversation(t, {
      tenantId: ids.a,
      botId: bots.helper,
      startedAt: utcDayStart(-5, 60),
      messages: [{ role: 'visitor', text: 'Is there a 100% refund?' }],
    })
  ).id;
  convs.underscore = (
    await insertConversation(t, {
      tenantId: ids.a,
      botId: bots.helper,
      startedAt: utcDayStart(-6, 60),
      messages: [{ role: 'visitor', text: 'My order is ab_12 ' + 'x'.repeat(300) }],
    })
  ).id;
  // Tomorrow (a clock ahead): counted in no period.
  await insertConversation(t, {
    tenantId: ids.a,
    botId: bots.helper,
    startedAt: utcDayStart(1, 60),
    messages: [{ role: 'visitor', text: 'From the future refund' }],
  });
  // The same words on another bot of A and on B's bot: never in Helper's figures or log.
  convs.otherBot = (
    await insertConversation(t, {
      tenantId: ids.a,
      botId: bots.sales,
      startedAt: utcDayStart(0, 2),
      messages: [
        { role: 'visitor', text: 'I want a refund' },
        { role: 'bot', text: 'Sure.', feedback: { rating: 'button1' } },
      ],
    })
  ).id;
  convs.bobs = (
    await insertConversation(t, {
      tenantId: ids.b,
      botId: bots.bobs,
      startedAt: utcDayStart(0, 2),
      messages: [
        { role: 'visitor', text: 'I want a refund' },
        { role: 'bot', text: 'Sure.', feedback: { rating: 'button1' } },
      ],
    })
  ).id;
});
afterAll(async () => {
  await t.close();
});

describe('GET /v1/bots/:id/stats', () => {
  it('gives every UTC day of the period, zeros included, with answered, fallback and feedback counts', async () => {
    const response = await get(`/v1/bots/${bots.helper}/stats?days=7`, who.alice);
    expect(response.statusCode, response.body).toBe(200);
    const stats = BotStatsSchema.parse(response.json());
    expect(stats).toMatchObject({ bot_id: bots.helper, days: 7, from: utcDayText(-6), to: utcDayText(0) });
    expect(stats.items.map((item) => item.day)).toEqual(
      [-6, -5, -4, -3, -2, -1, 0].map((d) => utcDayText(d)),
    );
    const day = (offset: number) => stats.items.find((item) => item.day === utcDayText(offset));
    expect(day(0)).toEqual({
      day: utcDayText(0),
      conversations: 1,
      visitor_messages: 2,
      bot_messages: 2,
      answered: 1,
      fallback: 1,
      feedback: { button1: 1, button2: 0, button3: 1 },
    });
    expect(day(-2)).toMatchObject({ conversations: 1, visitor_messages: 1, answered: 1, fallback: 0 });
    expect(day(-2)?.feedback).toEqual({ button1: 0, button2: 1, button3: 0 });
    expect(day(-1)).toEqual({
      day: utcDayText(-1),
      conversations: 0,
      visitor_messages: 0,
      bot_messages: 0,
      answered: 0,
      fallback: 0,
      feedback: { button1: 0, button2: 0, button3: 0 },
    });
    expect(day(-5)).toMatchObject({ conversations: 1, visitor_messages: 1, bot_messages: 0 });
    expect(stats.totals).toEqual({
      conversations: 4,
      visitor_messages: 5,
      bot_messages: 3,
      answered: 2,
      fallback: 1,
      feedback: { button1: 1, button2: 1, button3: 1 },
    });
    expect(stats.feedback_labels).toEqual({ button1: 'Great', button2: 'Meh', button3: 'Wrong' });
  });

  it('defaults to 30 days, and reaches older days within 90', async () => {
    const thirty = BotStatsSchema.parse((await get(`/v1/bots/${bots.helper}/stats`, who.alice)).json());
    expect(thirty.items).toHaveLength(30);
    expect(thirty.totals.conversations).toBe(4);
    const ninety = BotStatsSchema.parse(
      (await get(`/v1/bots/${bots.helper}/stats?days=90`, who.alice)).json(),
    );
    expect(ninety.items).toHaveLength(90);
    expect(ninety.totals).toMatchObject({ conversations: 5, fallback: 2 });
    expect(ninety.items.find((item) => item.day === utcDayText(-40))).toMatchObject({ conversations: 1 });
    const one = BotStatsSchema.parse((await get(`/v1/bots/${bots.helper}/stats?days=1`, who.alice)).json());
    expect(one.items.map((item) => item.day)).toEqual([utcDayText(0)]);
  });

  it('gives a bot without conversations a period of zeros with its default button texts', async () => {
    const id = await createBot(who.alice, { name: 'Quiet' });
    const stats = BotStatsSchema.parse((await get(`/v1/bots/${id}/stats?days=7`, who.alice)).json());
    expect(stats.items).toHaveLength(7);
    expect(stats.items.every((item) => item.conversations === 0 && item.bot_messages === 0)).toBe(true);
    expect(stats.feedback_labels).toEqual({
      button1: 'Helpful',
      button2: 'Not sure',
      button3: 'Not helpful',
    });
  });

  it("answers another tenant's bot exactly like an unknown one, and refuses bad periods with 400", async () => {
    const theirs = await get(`/v1/bots/${bots.bobs}/stats`, who.alice);
    const unknown = await get(`/v1/bots/${randomUUID()}/stats`, who.alice);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(unknown.body);
    expect((await get(`/v1/bots/${bots.helper}/stats`, {})).statusCode).toBe(401);
    for (const query of [
      'days=0',
      'days=91',
      'days=abc',
      'days=1.5',
      'days=-1',
      'days=30&extra=1',
      'days=1e400',
    ]) {
      const response = await get(`/v1/bots/${bots.helper}/stats?${query}`, who.alice);
      expect([query, response.statusCode, Object.keys(response.json<object>()).sort()]).toEqual([
        query,
        400,
        ['code', 'message'],
      ]);
    }
    const malformed = await get('/v1/bots/not-a-uuid/stats', who.alice);
    expect(malformed.statusCode).toBe(400);
  });
});

describe('GET /v1/bots/:id/conversations', () => {
  const list = async (query: string, caller: Caller = who.alice, bot = bots.helper) => {
    const response = await get(`/v1/bots/${bot}/conversations${query}`, caller);
    expect(response.statusCode, response.body).toBe(200);
    return ConversationListSchema.parse(response.json());
  };

  it('lists the log newest first with counts, the first visitor message and feedback', async () => {
    const page = await list('');
    expect(page.total).toBe(6);
    expect(page.items.map((item) => item.id).slice(1)).toEqual([
      convs.today,
      convs.twoDaysAgo,
      convs.percent,
      convs.underscore,
      convs.old,
    ]);
    const today = page.items.find((item) => item.id === convs.today);
    expect(today).toMatchObject({
      bot_id: bots.helper,
      origin: 'https://shop.example.com',
      message_count: 4,
      fallback_count: 1,
      first_visitor_text: 'My PIN is **** and I want a refund',
      feedback: { button1: 1, button2: 0, button3: 1 },
    });
    const long = page.items.find((item) => item.id === convs.underscore);
    expect(long?.first_visitor_text).toHaveLength(160);
    expect(long?.first_visitor_text?.endsWith('…')).toBe(true);
    // Another bot's and another tenant's conversations never appear.
    expect(page.items.map((item) => item.id)).not.toContain(convs.otherBot);
    expect(page.items.map((item) => item.id)).not.toContain(convs.bobs);
  });

  it('pages', async () => {
    const first = await list('?page_size=2');
    const second = await list('?page_size=2&page=2');
    const fourth = await list('?page_size=2&page=4');
    expect(first).toMatchObject({ total: 6, page: 1, page_size: 2 });
    expect(second.items.map((item) => item.id)).toEqual([convs.twoDaysAgo, convs.percent]);
    expect(first.items.map((item) => item.id)).not.toContain(second.items[0]?.id);
    expect(fourth).toMatchObject({ total: 6, items: [] });
  });

  it('searches the messages, case-insensitively, with % and _ as literal characters', async () => {
    const ids = async (q: string) => (await list(`?q=${encodeURIComponent(q)}`)).items.map((item) => item.id);
    expect(await ids('REFUND')).toEqual(expect.arrayContaining([convs.today, convs.percent]));
    expect(await ids('refund')).toHaveLength(3);
    expect(await ids('%')).toEqual([convs.percent]);
    expect(await ids('100%')).toEqual([convs.percent]);
    expect(await ids('_')).toEqual([convs.underscore]);
    expect(await ids('b_1')).toEqual([convs.underscore]);
    // Unescaped, these would match "100% refund" as wildcards.
    expect(await ids('1_0')).toEqual([]);
    expect(await ids('%refund')).toEqual([]);
    expect(await ids('\\')).toEqual([]);
    expect(await ids('days [1]')).toEqual([convs.today]);
    expect(await ids('****')).toEqual([convs.today]);
    expect(await ids('nothing like this')).toEqual([]);
  });

  it('filters by the UTC days the conversations started, both included', async () => {
    const ids = async (query: string) => (await list(query)).items.map((item) => item.id);
    expect(await ids(`?from=${utcDayText(-2)}&to=${utcDayText(-2)}`)).toEqual([convs.twoDaysAgo]);
    expect(await ids(`?from=${utcDayText(-6)}&to=${utcDayText(-5)}`)).toEqual([
      convs.percent,
      convs.underscore,
    ]);
    expect(await ids(`?to=${utcDayText(-30)}`)).toEqual([convs.old]);
    expect((await list(`?from=${utcDayText(0)}&q=refund`)).total).toBe(2);
  });

  it('refuses bad queries with 400 and foreign bots like unknown ones', async () => {
    const bad = [
      `q=${'x'.repeat(201)}`,
      'q=a%00b',
      'from=2026-02-30',
      'from=yesterday',
      'to=2026-1-5',
      `from=${utcDayText(0)}&to=${utcDayText(-1)}`,
      'page=0',
      'page_size=101',
      'page=abc',
      'sort=name',
    ];
    for (const query of bad) {
      const response = await get(`/v1/bots/${bots.helper}/conversations?${query}`, who.alice);
      expect([query, response.statusCode, Object.keys(response.json<object>()).sort()]).toEqual([
        query,
        400,
        ['code', 'message'],
      ]);
    }
    const theirs = await get(`/v1/bots/${bots.bobs}/conversations?q=refund`, who.alice);
    const unknown = await get(`/v1/bots/${randomUUID()}/conversations?q=refund`, who.alice);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(unknown.body);
    expect((await list('?q=refund', who.bob, bots.bobs)).items.map((item) => item.id)).toEqual([convs.bobs]);
  });
});

describe('GET /v1/conversations/:id', () => {
  it('gives the messages in order with masked text as stored, sources, fallback, trace and feedback labels', async () => {
    const response = await get(`/v1/conversations/${convs.today}`, who.alice);
    expect(response.statusCode, response.body).toBe(200);
    const transcript = ConversationSchema.parse(response.json());
    expect(transcript).toMatchObject({
      id: convs.today,
      bot_id: bots.helper,
      bot_name: 'Helper',
      message_total: 4,
    });
    expect(transcript.messages.map((message) => [message.role, message.text])).toEqual([
      ['visitor', 'My PIN is **** and I want a refund'],
      ['bot', 'Items can be returned within 30 days [1].'],
      ['visitor', 'What about gift cards?'],
      ['bot', 'Sorry, I do not know.'],
    ]);
    const [, answer, , fallback] = transcript.messages;
    expect(answer).toMatchObject({
      fallback: false,
      sources: [{ n: 1, title: 'Returns policy', url: 'https://shop.example.com/returns' }],
      trace: { engine: 'builtin', error: null, ms: 12 },
      feedback: { rating: 'button1', label: 'Great', comment: 'Thanks ****' },
    });
    expect(fallback).toMatchObject({
      fallback: true,
      trace: { engine: 'builtin', error: { code: 'rag/none', reason: 'No RAG is set.' } },
      feedback: { rating: 'button3', label: 'Wrong', comment: null },
    });
    expect(transcript.messages[0]?.feedback).toBeNull();
    // The trace is summarised: the stored answer id and the sources' chunk ids stay on the server.
    expect(response.body).not.toContain('answer_id');
    expect(response.body).not.toContain('chunk_id');
  });

  it("refuses another tenant's conversation like an unknown one, reads nothing into the tables, and 400s bad ids", async () => {
    const before = await tablesFingerprint(t, TABLES);
    const theirs = await get(`/v1/conversations/${convs.bobs}`, who.alice);
    const unknown = await get(`/v1/conversations/${randomUUID()}`, who.alice);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(unknown.body);
    expect(theirs.json()).toEqual({ code: 'not_found', message: 'Conversation not found' });
    expect((await get(`/v1/conversations/${convs.bobs}`, who.bob)).statusCode).toBe(200);
    expect((await get(`/v1/conversations/${convs.today}`, who.noRag)).statusCode).toBe(404);
    expect((await get(`/v1/conversations/${convs.today}`, {})).statusCode).toBe(401);
    expect((await get('/v1/conversations/not-a-uuid', who.alice)).statusCode).toBe(400);
    expect((await get(`/v1/conversations/${convs.today}?x=1`, who.alice)).statusCode).toBe(400);
    expect(await tablesFingerprint(t, TABLES)).toBe(before);
  });
});
