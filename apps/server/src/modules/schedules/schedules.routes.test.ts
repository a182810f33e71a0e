import {
  BotSchema,
  ConversationStatusSchema,
  IntentReplySchema,
  PublicWidgetConfigSchema,
  ScheduleCalendarSchema,
  ScheduleListSchema,
  ScheduleSchema,
  scheduleStateAt,
} from '@omnibot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, injectAs, tablesFingerprint, type TestApp } from '../../test/app';
import { makeOmniragTenants, makeSignedInUser } from '../accounts/accounts.fixtures';

/*
 * Business hours over HTTP (PGlite, or PostgreSQL with TEST_DATABASE_URL): the schedule routes, a bot following a
 * schedule, and the widget out of hours (its public configuration and POST /v1/handover). A schedule with no hours
 * is closed whatever the time and one open 24x7 is open, so these tests do not depend on the clock.
 */

const SITE = 'https://shop.example.com';
const OFFLINE = 'We are closed. Our team is back on Monday at nine.';
const ids = { a: 'sched-a', b: 'sched-b', noRag: 'sched-norag' };
const who: Record<'alice' | 'bob' | 'noRag' | 'agent', Caller> = { alice: {}, bob: {}, noRag: {}, agent: {} };

let t: TestApp;
let address = 0;
const nextAddress = () => `10.7.${Math.floor(++address / 250)}.${(address % 250) + 1}`;

const office = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  time_zone: 'Europe/Berlin',
  weekly: {
    mon: [{ from: '09:00', to: '17:00' }],
    fri: [{ from: '22:00', to: '06:00' }],
  },
  exceptions: [{ date: '2026-12-25', label: 'Christmas Day', closed: true }],
  ...extra,
});

async function makeSchedule(caller: Caller, body: Record<string, unknown>) {
  const response = await injectAs(t, 'POST', '/v1/schedules', caller, body);
  expect(response.statusCode, response.body).toBe(201);
  return ScheduleSchema.parse(response.json());
}

async function makeBot(caller: Caller, engines: Record<string, unknown>) {
  const response = await injectAs(t, 'POST', '/v1/bots', caller, {
    name: `Hours ${Math.random().toString(36).slice(2, 8)}`,
    config: {
      engines: { botEngine: 'builtin', fallbackText: 'I cannot answer that.', ...engines },
      install: { allowedOrigins: [SITE] },
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const bot = BotSchema.parse(response.json());
  const enabled = await injectAs(t, 'PATCH', `/v1/bots/${bot.id}`, caller, { enabled: true });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return bot;
}

const visitorPost = (url: string, payload: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url,
    remoteAddress: nextAddress(),
    headers: { 'content-type': 'application/json', origin: SITE },
    payload: JSON.stringify(payload),
  });

const publicConfig = async (botId: string) => {
  const response = await t.app.inject({ method: 'GET', url: `/v1/widget/${botId}/config` });
  expect(response.statusCode, response.body).toBe(200);
  return { config: PublicWidgetConfigSchema.parse(response.json()), headers: response.headers };
};

beforeAll(async () => {
  t = await createTestApp();
  Object.assign(who, await makeOmniragTenants(t, ids));
  who.agent = { cookie: (await makeSignedInUser(t, ids.a, 'agent@a.test', 'agent')).cookie };
});
afterAll(async () => {
  await t.close();
});

describe('schedules', () => {
  it('creates, lists, reads, changes and deletes a schedule of the caller only', async () => {
    const made = await makeSchedule(who.alice, office('Office'));
    expect(made.weekly.fri).toEqual([{ from: '22:00', to: '06:00' }]);
    expect(made.weekly.tue).toEqual([]);
    expect(made.exceptions).toEqual([
      { date: '2026-12-25', label: 'Christmas Day', closed: true, ranges: [] },
    ]);
    expect(made.bots).toEqual([]);
    // The state shown is the contracts' evaluation of the stored hours now.
    const expected = scheduleStateAt(made, new Date());
    expect(made.state.open).toBe(expected.open);

    const list = ScheduleListSchema.parse((await injectAs(t, 'GET', '/v1/schedules', who.alice)).json());
    expect(list.items.map((item) => item.name)).toContain('Office');
    const bobs = ScheduleListSchema.parse((await injectAs(t, 'GET', '/v1/schedules', who.bob)).json());
    expect(bobs.items.map((item) => item.id)).not.toContain(made.id);
    expect((await injectAs(t, 'GET', `/v1/schedules/${made.id}`, who.bob)).statusCode).toBe(404);
    expect(
      (await injectAs(t, 'PATCH', `/v1/schedules/${made.id}`, who.bob, { name: 'Mine' })).statusCode,
    ).toBe(404);
    expect((await injectAs(t, 'DELETE', `/v1/schedules/${made.id}`, who.bob)).statusCode).toBe(404);

    const changed = await injectAs(t, 'PATCH', `/v1/schedules/${made.id}`, who.alice, {
      always_open: true,
      time_zone: 'Asia/Kolkata',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(ScheduleSchema.parse(changed.json())).toMatchObject({
      always_open: true,
      time_zone: 'Asia/Kolkata',
      state: { open: true },
    });
    expect((await injectAs(t, 'DELETE', `/v1/schedules/${made.id}`, who.alice)).statusCode).toBe(204);
    expect((await injectAs(t, 'GET', `/v1/schedules/${made.id}`, who.alice)).statusCode).toBe(404);
  });

  it('refuses a taken name, bad hours and unknown fields with a 4xx that changes nothing', async () => {
    await makeSchedule(who.alice, office('Taken'));
    const before = await tablesFingerprint(t, ['schedules', 'audit_log']);
    const taken = await injectAs(t, 'POST', '/v1/schedules', who.alice, office('Taken'));
    expect([taken.statusCode, taken.json<{ code: string }>().code]).toEqual([409, 'schedule/name-taken']);
    for (const body of [
      office('Bad zone', { time_zone: 'Mars/Olympus' }),
      office('Bad time', { weekly: { mon: [{ from: '25:00', to: '26:00' }] } }),
      office('Overlap', {
        weekly: {
          mon: [
            { from: '09:00', to: '12:00' },
            { from: '11:00', to: '13:00' },
          ],
        },
      }),
      office('Bad date', { exceptions: [{ date: '2026-02-30', label: 'x', closed: true }] }),
      office('Owner', { tenant_id: ids.b }),
    ]) {
      const response = await injectAs(t, 'POST', '/v1/schedules', who.alice, body);
      expect(response.statusCode, response.body).toBe(400);
      expect(Object.keys(response.json<object>()).sort()).toEqual(['code', 'message']);
    }
    expect(await tablesFingerprint(t, ['schedules', 'audit_log'])).toBe(before);
    const mine = await makeSchedule(who.alice, office('Month'));
    const badMonth = await injectAs(t, 'GET', `/v1/schedules/${mine.id}/calendar?month=2026-13`, who.alice);
    expect(badMonth.statusCode).toBe(400);
    const badId = await injectAs(t, 'GET', '/v1/schedules/not-an-id', who.alice);
    expect(badId.statusCode).toBeLessThan(500);
  });

  it('lets an agent read schedules but change none', async () => {
    const made = await makeSchedule(who.alice, office('Agents read'));
    expect((await injectAs(t, 'GET', `/v1/schedules/${made.id}`, who.agent)).statusCode).toBe(200);
    expect((await injectAs(t, 'POST', '/v1/schedules', who.agent, office('Agent made'))).statusCode).toBe(
      403,
    );
    expect(
      (await injectAs(t, 'PATCH', `/v1/schedules/${made.id}`, who.agent, { name: 'x' })).statusCode,
    ).toBe(403);
    expect((await injectAs(t, 'DELETE', `/v1/schedules/${made.id}`, who.agent)).statusCode).toBe(403);
  });

  it('shows a month with the exceptions and the overnight ranges', async () => {
    const made = await makeSchedule(who.alice, office('Calendar'));
    const response = await injectAs(t, 'GET', `/v1/schedules/${made.id}/calendar?month=2026-12`, who.alice);
    expect(response.statusCode, response.body).toBe(200);
    const calendar = ScheduleCalendarSchema.parse(response.json());
    expect(calendar.days).toHaveLength(31);
    expect(calendar.days[24]).toMatchObject({
      date: '2026-12-25',
      source: 'exception',
      label: 'Christmas Day',
      ranges: [],
    });
    expect(calendar.days[3]).toMatchObject({
      date: '2026-12-04',
      weekday: 'fri',
      ranges: [{ from: '22:00', to: '06:00' }],
    });
    const foreign = await injectAs(t, 'GET', `/v1/schedules/${made.id}/calendar?month=2026-12`, who.bob);
    expect(foreign.statusCode).toBe(404);
  });
});

describe('a bot following a schedule', () => {
  it("takes only a schedule of the caller's own organisation", async () => {
    const mine = await makeSchedule(who.alice, office('Bot hours'));
    const theirs = await makeSchedule(who.bob, office('Their hours'));
    const foreign = await injectAs(t, 'POST', '/v1/bots', who.alice, {
      name: 'Foreign hours',
      config: { engines: { schedule_id: theirs.id } },
    });
    expect([foreign.statusCode, foreign.json<{ code: string }>().code]).toEqual([
      400,
      'bot/unknown-schedule',
    ]);
    const bot = await makeBot(who.alice, { schedule_id: mine.id });
    expect(bot.config.engines.schedule_id).toBe(mine.id);
  });

  it('cannot lose its schedule: deleting it is 409 naming the bots, and changes nothing', async () => {
    const hours = await makeSchedule(who.alice, office('In use'));
    const first = await makeBot(who.alice, { schedule_id: hours.id });
    const second = await makeBot(who.alice, { schedule_id: hours.id });
    const shown = ScheduleSchema.parse(
      (await injectAs(t, 'GET', `/v1/schedules/${hours.id}`, who.alice)).json(),
    );
    expect(shown.bots.map((bot) => bot.id).sort()).toEqual([first.id, second.id].sort());
    const before = await tablesFingerprint(t, ['schedules', 'bots', 'audit_log']);
    const refused = await injectAs(t, 'DELETE', `/v1/schedules/${hours.id}`, who.alice);
    expect(refused.statusCode).toBe(409);
    const body = refused.json<{ code: string; message: string }>();
    expect(body.code).toBe('schedule/in-use');
    expect(body.message).toContain(first.name);
    expect(body.message).toContain(second.name);
    expect(await tablesFingerprint(t, ['schedules', 'bots', 'audit_log'])).toBe(before);
  });
});

describe('the widget out of hours', () => {
  it('offers a person in hours, and the offline text instead out of hours', async () => {
    const open = await makeSchedule(who.alice, { name: 'Always', time_zone: 'UTC', always_open: true });
    const closed = await makeSchedule(who.alice, { name: 'Never', time_zone: 'America/New_York' });
    const live = { enableliveagent: true, liveagent: 'inbox', offlineText: OFFLINE };
    const inHours = await makeBot(who.alice, { ...live, schedule_id: open.id });
    const outOfHours = await makeBot(who.alice, { ...live, schedule_id: closed.id });
    const noSchedule = await makeBot(who.alice, live);

    expect((await publicConfig(inHours.id)).config.liveAgent).toEqual({ enabled: true, offlineText: null });
    expect((await publicConfig(noSchedule.id)).config.liveAgent).toEqual({
      enabled: true,
      offlineText: null,
    });
    const offline = await publicConfig(outOfHours.id);
    expect(offline.config.liveAgent).toEqual({ enabled: false, offlineText: OFFLINE });
    expect(JSON.stringify(offline.config)).not.toContain(closed.id);

    // When the schedule opens, the configuration changes at once: a new ETag, not a kept copy.
    const etag = String(offline.headers.etag);
    await injectAs(t, 'PATCH', `/v1/schedules/${closed.id}`, who.alice, { always_open: true });
    const reopened = await t.app.inject({
      method: 'GET',
      url: `/v1/widget/${outOfHours.id}/config`,
      headers: { 'if-none-match': etag },
    });
    expect(reopened.statusCode).toBe(200);
    expect(PublicWidgetConfigSchema.parse(reopened.json()).liveAgent.enabled).toBe(true);
    await injectAs(t, 'PATCH', `/v1/schedules/${closed.id}`, who.alice, { always_open: false });
  });

  it('refuses POST /v1/handover out of hours with 409 and the offline text, changing nothing', async () => {
    const closed = await makeSchedule(who.alice, { name: 'Closed now', time_zone: 'Asia/Kolkata' });
    const bot = await makeBot(who.alice, {
      enableliveagent: true,
      liveagent: 'inbox',
      offlineText: OFFLINE,
      schedule_id: closed.id,
      handoverAfterFallbacks: 1,
    });
    const asked = await visitorPost('/v1/intent', { botId: bot.id, text: 'Where is my parcel?' });
    expect(asked.statusCode, asked.body).toBe(200);
    const reply = IntentReplySchema.parse(asked.json());
    // The bot fell back, but out of hours it neither offers a person nor hands over after the fallback.
    expect(reply.fallback).toBe(true);
    expect(reply.handoverOffered).toBe(false);
    expect(reply.handover).toBeUndefined();

    const before = await tablesFingerprint(t, [
      'conversations',
      'conversation_messages',
      'conversation_events',
    ]);
    const refused = await visitorPost('/v1/handover', {
      botId: bot.id,
      conversationToken: reply.conversationToken,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ code: 'handover/out-of-hours', message: OFFLINE });
    expect(
      await tablesFingerprint(t, ['conversations', 'conversation_messages', 'conversation_events']),
    ).toBe(before);

    // In hours the same conversation is queued.
    await injectAs(t, 'PATCH', `/v1/schedules/${closed.id}`, who.alice, { always_open: true });
    const queued = await visitorPost('/v1/handover', {
      botId: bot.id,
      conversationToken: reply.conversationToken,
    });
    expect(queued.statusCode, queued.body).toBe(200);
    expect(ConversationStatusSchema.parse(queued.json()).state).toBe('queued');
  });
});
