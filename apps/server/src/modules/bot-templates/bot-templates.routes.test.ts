import {
  BOT_TEMPLATE_GROUPS,
  BotSchema,
  BotTemplateListSchema,
  BotTemplateSchema,
  WidgetConfigSchema,
} from '@omnibot/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import { type Caller, createTestApp, injectAs, tablesFingerprint, type TestApp } from '../../test/app';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';

/* Bot templates over HTTP, on PGlite (and PostgreSQL with TEST_DATABASE_URL). */

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A secret a template may never hold, return or log. */
const MARKER = 'PLAINTEXT-TEMPLATE-SECRET-9b2c';
const SITE = 'https://shop.example.com';

let t: TestApp;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'tpl-a', b: 'tpl-b', noRag: 'tpl-norag' };
const bodies: string[] = [];
let source = '';

async function call(method: Method, url: string, caller: Caller, payload?: unknown) {
  const response = await injectAs(t, method, url, caller, payload);
  bodies.push(response.body);
  return response;
}

async function template(caller: Caller, body: Record<string, unknown>) {
  const response = await call('POST', '/v1/bot-templates', caller, body);
  expect(response.statusCode, response.body).toBe(201);
  return BotTemplateSchema.parse(response.json());
}

const fingerprint = () => tablesFingerprint(t, ['bot_templates', 'bots', 'audit_log']);

beforeAll(async () => {
  t = await createTestApp();
  Object.assign(who, await makeOmniragTenants(t, ids));
  const bot = await call('POST', '/v1/bots', who.alice, {
    name: 'Styled',
    config: {
      identity: { displayName: 'Shop desk', botName: 'Shopper' },
      welcome: { welcomeText: 'Welcome to the shop!', welcomeText_enabled: true },
      appearance: { colorScheme: 'dark', backgroundColorDark: '#101010' },
      launcher: { position: 'left', infoText: 'Ask the shop' },
      window: { width: 500 },
      engines: { fallbackText: 'No idea, sorry.' },
      install: { allowedOrigins: [SITE] },
      openai: { apiKey: `${MARKER}-openai-key` },
      aws: { key: `${MARKER}-aws`, secret: `${MARKER}-aws-secret` },
    },
  });
  expect(bot.statusCode, bot.body).toBe(201);
  source = BotSchema.parse(bot.json()).id;
});
afterAll(async () => {
  await t.close();
});

describe('bot templates', () => {
  it('saves only the appearance and texts of a bot, never engines, origins or secrets', async () => {
    const saved = await template(who.alice, {
      name: 'Shop look',
      description: 'Dark, left launcher',
      bot_id: source,
    });
    expect(Object.keys(saved.config).sort()).toEqual([...BOT_TEMPLATE_GROUPS].sort());
    expect(saved).toMatchObject({ tenant_id: ids.a, name: 'Shop look', description: 'Dark, left launcher' });
    expect(saved.config.identity).toMatchObject({ displayName: 'Shop desk', botName: 'Shopper' });
    expect(saved.config.welcome.welcomeText).toBe('Welcome to the shop!');
    expect(saved.config.appearance).toMatchObject({ colorScheme: 'dark', backgroundColorDark: '#101010' });
    expect(saved.config.launcher.position).toBe('left');
    expect(saved.config.window.width).toBe(500);

    const stored = rowsOf<{ config: string }>(
      await t.database.db.execute(
        sql`select config::text as config from bot_templates where id = ${saved.id}`,
      ),
    )[0]?.config;
    for (const hidden of [MARKER, SITE, 'engines', 'install', 'openai', 'aws', 'No idea, sorry.']) {
      expect(stored).not.toContain(hidden);
      expect(JSON.stringify(saved)).not.toContain(hidden);
    }
  });

  it('lists by name, reads, renames, changes the description and deletes, with audit rows', async () => {
    const b = await template(who.alice, { name: 'B look', bot_id: source });
    const a = await template(who.alice, { name: 'A look', bot_id: source });
    const list = BotTemplateListSchema.parse((await call('GET', '/v1/bot-templates', who.alice)).json());
    const names = list.items.map((item) => item.name);
    expect(names.indexOf('A look')).toBeLessThan(names.indexOf('B look'));
    expect(b.description).toBe('');

    const renamed = await call('PATCH', `/v1/bot-templates/${a.id}`, who.alice, {
      name: 'A2 look',
      description: 'Second',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(BotTemplateSchema.parse(renamed.json())).toMatchObject({ name: 'A2 look', description: 'Second' });
    const read = BotTemplateSchema.parse((await call('GET', `/v1/bot-templates/${a.id}`, who.alice)).json());
    expect(read).toMatchObject({ name: 'A2 look', config: a.config });

    expect((await call('DELETE', `/v1/bot-templates/${a.id}`, who.alice)).statusCode).toBe(204);
    expect((await call('GET', `/v1/bot-templates/${a.id}`, who.alice)).statusCode).toBe(404);
    const actions = rowsOf<{ action: string }>(
      await t.database.db.execute(
        sql`select action from audit_log where target = ${a.id} order by created_at, action`,
      ),
    ).map((row) => row.action);
    expect(actions).toEqual(['bot-template.create', 'bot-template.update', 'bot-template.delete']);
  });

  it('creates a bot from a template: its groups over the defaults, default engines, no origins or secrets', async () => {
    const saved = await template(who.alice, { name: 'For new bots', bot_id: source });
    const response = await call('POST', `/v1/bot-templates/${saved.id}/bots`, who.alice, {
      name: 'From template',
    });
    expect(response.statusCode, response.body).toBe(201);
    const bot = BotSchema.parse(response.json());
    const defaults = WidgetConfigSchema.parse({});
    expect(bot).toMatchObject({ tenant_id: ids.a, name: 'From template', enabled: true });
    for (const group of BOT_TEMPLATE_GROUPS) expect(bot.config[group]).toEqual(saved.config[group]);
    expect(bot.config.engines).toEqual(defaults.engines);
    expect(bot.config.install.allowedOrigins).toEqual([]);
    expect(bot.config.openai.apiKey).toBe('');
    expect(bot.config.aws.key).toBe('');

    const taken = await call('POST', `/v1/bot-templates/${saved.id}/bots`, who.alice, {
      name: 'From template',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'bot/name-taken' });
  });

  it("refuses another tenant's template and bot ids like unknown ones, changing nothing", async () => {
    const mine = await template(who.alice, { name: 'Private look', bot_id: source });
    const before = await fingerprint();
    for (const [method, url, payload] of [
      ['GET', `/v1/bot-templates/${mine.id}`, undefined],
      ['PATCH', `/v1/bot-templates/${mine.id}`, { name: 'Stolen' }],
      ['DELETE', `/v1/bot-templates/${mine.id}`, undefined],
      ['POST', `/v1/bot-templates/${mine.id}/bots`, { name: 'Stolen bot' }],
    ] as const) {
      const response = await call(method, url, who.bob, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ code: 'not_found', message: 'Template not found' });
    }
    const fromForeignBot = await call('POST', '/v1/bot-templates', who.bob, { name: 'Copy', bot_id: source });
    const fromUnknownBot = await call('POST', '/v1/bot-templates', who.bob, {
      name: 'Copy',
      bot_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(fromForeignBot.statusCode).toBe(400);
    expect(fromForeignBot.json()).toEqual(fromUnknownBot.json());
    expect(fromForeignBot.json()).toMatchObject({ code: 'bot-template/unknown-bot' });
    const list = BotTemplateListSchema.parse((await call('GET', '/v1/bot-templates', who.bob)).json());
    expect(list.items).toEqual([]);
    expect(await fingerprint()).toBe(before);
  });

  it('refuses bad input with 4xx {code, message} and stores nothing', async () => {
    const existing = await template(who.alice, { name: 'Existing look', bot_id: source });
    const other = await template(who.alice, { name: 'Other look', bot_id: source });
    const before = await fingerprint();
    const cases: Array<[Method, string, unknown, number, string?]> = [
      ['POST', '/v1/bot-templates', { name: '', bot_id: source }, 400],
      ['POST', '/v1/bot-templates', { name: 'x', bot_id: 'not-an-id' }, 400],
      ['POST', '/v1/bot-templates', { name: 'x' }, 400],
      ['POST', '/v1/bot-templates', { name: 'x', bot_id: source, config: { identity: {} } }, 400],
      ['POST', '/v1/bot-templates', { name: 'x', bot_id: source, tenant_id: ids.b }, 400],
      ['POST', '/v1/bot-templates', { name: 'x', bot_id: source, description: 'd'.repeat(501) }, 400],
      [
        'POST',
        '/v1/bot-templates',
        { name: 'Existing look', bot_id: source },
        409,
        'bot-template/name-taken',
      ],
      ['PATCH', `/v1/bot-templates/${other.id}`, { name: 'Existing look' }, 409, 'bot-template/name-taken'],
      ['PATCH', `/v1/bot-templates/${existing.id}`, { config: {} }, 400],
      ['PATCH', '/v1/bot-templates/nope', { name: 'x' }, 400],
      ['POST', `/v1/bot-templates/${existing.id}/bots`, { name: '' }, 400],
      ['POST', `/v1/bot-templates/${existing.id}/bots`, { name: 'x', config: {} }, 400],
      ['GET', '/v1/bot-templates?page=1', undefined, 400],
    ];
    for (const [method, url, payload, status, code] of cases) {
      const response = await call(method, url, who.alice, payload);
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(payload)}: ${response.body}`).toBe(
        status,
      );
      const body = response.json<Record<string, unknown>>();
      expect(Object.keys(body).sort()).toEqual(['code', 'message']);
      if (code) expect(body.code).toBe(code);
    }
    expect(await fingerprint()).toBe(before);
  });

  it('never returns or logs a secret of the source bot', () => {
    for (const body of bodies) expect(body).not.toContain(MARKER);
    for (const line of t.logs) expect(JSON.stringify(line)).not.toContain(MARKER);
  });
});
