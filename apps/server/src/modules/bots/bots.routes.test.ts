import {
  BotListSchema,
  BotSchema,
  PublicWidgetConfigSchema,
  WIDGET_CONFIG_SECRET_ENDPOINTS,
  WIDGET_CONFIG_SECRET_PATHS,
} from '@omnibot/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import { bots, tenants } from '../../db/schema';
import { type Caller, createTestApp, injectAs, tablesFingerprint, type TestApp } from '../../test/app';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { basicCredential } from '../files/files.test-support';
import { makeChatModel, makeIndex, makeKnowledge, makePrompt } from '../rag/rags.test-support';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A secret no response, log line or stored row may ever contain in clear. */
const MARKER = 'PLAINTEXT-SECRET-MARKER-7f3a9c';
const SITE = 'https://shop.example.com';

let t: TestApp;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'bot-a', b: 'bot-b', noRag: 'bot-norag' };
const refs = { aRag: '', bRag: '', aPrompt: '', bPrompt: '', aModel: '', bModel: '' };
const bodies: string[] = [];

async function call(method: Method, url: string, caller: Caller, payload?: unknown) {
  const response = await injectAs(t, method, url, caller, payload);
  bodies.push(response.body);
  return response;
}

async function createBot(caller: Caller, body: Record<string, unknown>) {
  const response = await call('POST', '/v1/bots', caller, body);
  expect(response.statusCode, response.body).toBe(201);
  return BotSchema.parse(response.json());
}

const fingerprint = () => tablesFingerprint(t, ['bots', 'audit_log']);

async function storedConfigText(id: string): Promise<string> {
  const rows = rowsOf<{ config: string }>(
    await t.database.db.execute(sql`select config::text as config from bots where id = ${id}`),
  );
  return rows[0]?.config ?? '';
}

async function makeRag(caller: Caller, name: string, indexId: string) {
  const response = await call('POST', '/v1/rags', caller, { name, index_id: indexId });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}

beforeAll(async () => {
  t = await createTestApp();
  Object.assign(who, await makeOmniragTenants(t, ids));
  const aKb = await makeKnowledge(t, who.alice, 'Help', []);
  const bKb = await makeKnowledge(t, who.bob, 'Help', []);
  refs.aRag = await makeRag(who.alice, 'Support', await makeIndex(t, ids.a, 'Main', [aKb.id]));
  refs.bRag = await makeRag(who.bob, 'Support', await makeIndex(t, ids.b, 'Main', [bKb.id]));
  refs.aPrompt = (await makePrompt(t, who.alice, 'Friendly', 'Be kind. {{question}}')).id;
  refs.bPrompt = (await makePrompt(t, who.bob, 'Friendly', 'Be brief. {{question}}')).id;
  refs.aModel = (
    await makeChatModel(t, { name: 'For A', base_url: 'http://127.0.0.1:9/v1', tenant_ids: [ids.a] })
  ).id;
  refs.bModel = (
    await makeChatModel(t, { name: 'For B', base_url: 'http://127.0.0.1:9/v1', tenant_ids: [ids.b] })
  ).id;
});
afterAll(async () => {
  await t.close();
});

describe('bots', () => {
  it('creates with the defaults, lists by pages, reads, updates, duplicates and deletes, with audit rows', async () => {
    const bot = await createBot(who.alice, { name: 'Helper' });
    expect(bot).toMatchObject({ tenant_id: ids.a, name: 'Helper', enabled: true, config_version: 1 });
    expect(bot.config.engines.botEngine).toBe('builtin');
    expect(bot.config.window).toEqual({ width: 450, height: 750 });

    const other = await createBot(who.alice, {
      name: 'Alpha',
      config: { identity: { displayName: 'Alpha desk' }, window: { width: 500 } },
    });
    expect(other.config.identity.displayName).toBe('Alpha desk');
    expect(other.config.window).toEqual({ width: 500, height: 750 });

    const page1 = BotListSchema.parse((await call('GET', '/v1/bots?page_size=1', who.alice)).json());
    expect(page1).toMatchObject({ total: 2, page: 1, page_size: 1 });
    expect(page1.items.map((item) => item.name)).toEqual(['Alpha']);
    const page2 = BotListSchema.parse((await call('GET', '/v1/bots?page=2&page_size=1', who.alice)).json());
    expect(page2.items.map((item) => item.name)).toEqual(['Helper']);

    const patched = await call('PATCH', `/v1/bots/${bot.id}`, who.alice, {
      name: 'Helper desk',
      enabled: false,
      config: { window: { height: 600 } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const changed = BotSchema.parse(patched.json());
    expect(changed).toMatchObject({ name: 'Helper desk', enabled: false, config_version: 2 });
    expect(changed.config.window).toEqual({ width: 450, height: 600 });
    expect(changed.etag).not.toBe(bot.etag);

    const read = BotSchema.parse((await call('GET', `/v1/bots/${bot.id}`, who.alice)).json());
    expect(read).toEqual(changed);

    const copy = await call('POST', `/v1/bots/${other.id}/duplicate`, who.alice, { name: 'Alpha copy' });
    expect(copy.statusCode, copy.body).toBe(201);
    const duplicated = BotSchema.parse(copy.json());
    expect(duplicated).toMatchObject({ name: 'Alpha copy', enabled: false });
    expect(duplicated.config).toEqual(other.config);
    expect(duplicated.id).not.toBe(other.id);

    const taken = await call('POST', `/v1/bots/${other.id}/duplicate`, who.alice, { name: 'Helper desk' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'bot/name-taken' });

    for (const id of [bot.id, other.id, duplicated.id]) {
      expect((await call('DELETE', `/v1/bots/${id}`, who.alice)).statusCode).toBe(204);
    }
    expect((await call('GET', `/v1/bots/${bot.id}`, who.alice)).statusCode).toBe(404);

    const actions = rowsOf<{ action: string }>(
      await t.database.db.execute(
        sql`select action from audit_log where tenant_id = ${ids.a} and action like 'bot.%' order by created_at, action`,
      ),
    ).map((row) => row.action);
    expect(actions).toEqual([
      'bot.create',
      'bot.create',
      'bot.update',
      'bot.duplicate',
      'bot.delete',
      'bot.delete',
      'bot.delete',
    ]);
    const targets = rowsOf<{ target: string }>(
      await t.database.db.execute(
        sql`select target from audit_log where tenant_id = ${ids.a} and action = 'bot.duplicate'`,
      ),
    );
    expect(targets).toEqual([{ target: duplicated.id }]);
  });

  it("works with the tenant's API credential, which sees only its own tenant's bots", async () => {
    const credential = { authorization: await basicCredential(t, ids.b) };
    const created = await createBot(credential, { name: 'By credential' });
    expect(created.tenant_id).toBe(ids.b);
    expect(created.created_by).toMatch(/^credential:/);
    const read = await call('GET', `/v1/bots/${created.id}`, credential);
    expect(BotSchema.parse(read.json()).name).toBe('By credential');
    expect((await call('GET', `/v1/bots/${created.id}`, who.alice)).statusCode).toBe(404);
    expect((await call('DELETE', `/v1/bots/${created.id}`, credential)).statusCode).toBe(204);
  });

  it('stores secrets sealed, never returns or logs them, and keeps a secret sent back masked', async () => {
    const longKey = `${MARKER}-openai-key-abcd`;
    const bot = await createBot(who.alice, {
      name: 'Secretive',
      config: { openai: { apiKey: longKey }, genesys: {} },
    });
    expect(bot.config.openai.apiKey).toBe('****abcd');
    expect(await storedConfigText(bot.id)).not.toContain(MARKER);
    const [row] = await t.database.db.select().from(bots).where(eq(bots.id, bot.id));
    expect(row?.config.openai.apiKey.startsWith('v1:')).toBe(true);

    // The console sends the whole configuration back, the mask included: the secret is kept.
    const keep = await call('PATCH', `/v1/bots/${bot.id}`, who.alice, {
      config: { openai: bot.config.openai, identity: { displayName: 'Kept' } },
    });
    expect(keep.statusCode, keep.body).toBe(200);
    expect(BotSchema.parse(keep.json()).config.openai.apiKey).toBe('****abcd');

    // The secret still opens to the original value: a copy carries it, and each path has its own purpose.
    const copy = await call('POST', `/v1/bots/${bot.id}/duplicate`, who.alice, { name: 'Secretive copy' });
    expect(BotSchema.parse(copy.json()).config.openai.apiKey).toBe('****abcd');

    const replace = await call('PATCH', `/v1/bots/${bot.id}`, who.alice, {
      config: { openai: { apiKey: `${MARKER}-second-key-wxyz` } },
    });
    expect(BotSchema.parse(replace.json()).config.openai.apiKey).toBe('****wxyz');
    const clear = await call('PATCH', `/v1/bots/${bot.id}`, who.alice, {
      config: { openai: { apiKey: '' } },
    });
    expect(BotSchema.parse(clear.json()).config.openai.apiKey).toBe('');

    await call('GET', '/v1/bots', who.alice);
    await call('GET', `/v1/widget/${bot.id}/config`, {});
    expect(WIDGET_CONFIG_SECRET_PATHS.length).toBeGreaterThan(0);
    for (const body of bodies) expect(body).not.toContain(MARKER);
    for (const line of t.logs) expect(JSON.stringify(line)).not.toContain(MARKER);
    const stored = rowsOf<{ config: string }>(
      await t.database.db.execute(sql`select config::text as config from bots`),
    );
    for (const entry of stored) expect(entry.config).not.toContain(MARKER);
    const audit = rowsOf<{ details: string }>(
      await t.database.db.execute(sql`select coalesce(details::text, '') as details from audit_log`),
    );
    for (const entry of audit) expect(entry.details).not.toContain(MARKER);
  });

  it('keeps every stored secret only while its address names the endpoint it was entered for', async () => {
    const home = 'https://provider.example.com/api';
    const config: Record<string, Record<string, string>> = {};
    const set = (path: string, value: string) => {
      const [group = '', field = ''] = path.split('.');
      config[group] = { ...config[group], [field]: value };
    };
    for (const [path, addresses] of Object.entries(WIDGET_CONFIG_SECRET_ENDPOINTS)) {
      set(path, `${MARKER}-${path}`);
      for (const address of addresses) set(address, home);
    }
    const bot = await createBot(who.alice, { name: 'Bound secrets', config });
    const bound = Object.entries(WIDGET_CONFIG_SECRET_ENDPOINTS).filter(
      ([, addresses]) => addresses.length > 0,
    );
    expect(bound.map(([path]) => path).sort()).toEqual(
      [
        'aws.key',
        'aws.secret',
        'genesys.clientSecret',
        'google.apiKey',
        'google.serviceAccountKey',
        'libretranslate.apiKey',
        'openai.apiKey',
      ].sort(),
    );
    const before = await fingerprint();
    for (const [path, addresses] of bound) {
      const [group = '', field = ''] = path.split('.');
      for (const address of addresses) {
        const addressField = address.split('.')[1] ?? '';
        // Secrets sent to the same address (an AWS key and its secret) are refused alike; the first one is named.
        const sharing = bound.filter(([, fields]) => fields.includes(address)).map(([other]) => other);
        // Left out of the patch, or sent back masked: either way the stored secret would be kept, so both refuse.
        for (const secret of [undefined, '****']) {
          const patch = {
            [group]: {
              [addressField]: 'https://collector.example.net/api',
              ...(secret === undefined ? {} : { [field]: secret }),
            },
          };
          const moved = await call('PATCH', `/v1/bots/${bot.id}`, who.alice, { config: patch });
          expect([moved.statusCode, moved.json()], `${address} ${secret}`).toEqual([
            400,
            {
              code: 'secret/endpoint-changed',
              message: expect.stringMatching(
                new RegExp(
                  `^config\\.(${sharing.map((other) => other.replace('.', '\\.')).join('|')}) must be entered again when its address changes: a stored key is only sent to the address it was entered for\\.$`,
                  'u',
                ),
              ) as unknown,
            },
          ]);
        }
      }
    }
    expect(await fingerprint()).toBe(before);

    // The same endpoint written another way keeps the secrets; entering one again lets its address move.
    const rewritten = await call('PATCH', `/v1/bots/${bot.id}`, who.alice, {
      config: { libretranslate: { url: 'HTTPS://Provider.example.com:443/api/' } },
    });
    expect(rewritten.statusCode, rewritten.body).toBe(200);
    const entered = await call('PATCH', `/v1/bots/${bot.id}`, who.alice, {
      config: { libretranslate: { url: 'https://collector.example.net', apiKey: 'entered-again' } },
    });
    expect(entered.statusCode, entered.body).toBe(200);
    // The AWS keys are bound to their endpoint overrides only: a region change keeps them.
    const region = await call('PATCH', `/v1/bots/${bot.id}`, who.alice, {
      config: { aws: { region: 'eu-west-1' } },
    });
    expect(region.statusCode, region.body).toBe(200);
    expect(BotSchema.parse(region.json()).config.aws.key).not.toBe('');
  });

  it('accepts ids of the caller: its RAG, its prompt, a model offered to it', async () => {
    const bot = await createBot(who.alice, {
      name: 'Wired',
      config: { engines: { rag_id: refs.aRag, prompt_id: refs.aPrompt, model_id: refs.aModel } },
    });
    expect(bot.config.engines).toMatchObject({
      rag_id: refs.aRag,
      prompt_id: refs.aPrompt,
      model_id: refs.aModel,
    });
  });

  it("answers another tenant's ids like unknown ones, and stores nothing", async () => {
    const mine = await createBot(who.alice, { name: 'Mine' });
    const before = await fingerprint();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ rag_id: refs.bRag }, 'bot/unknown-rag'],
      [{ rag_id: '00000000-0000-4000-8000-000000000000' }, 'bot/unknown-rag'],
      [{ prompt_id: refs.bPrompt }, 'bot/unknown-prompt'],
      [{ model_id: refs.bModel }, 'bot/unknown-model'],
    ];
    for (const [engines, code] of cases) {
      const created = await call('POST', '/v1/bots', who.alice, { name: 'Stolen', config: { engines } });
      expect(created.statusCode, created.body).toBe(400);
      expect(created.json()).toMatchObject({ code });
      const patched = await call('PATCH', `/v1/bots/${mine.id}`, who.alice, { config: { engines } });
      expect(patched.statusCode, patched.body).toBe(400);
      expect(patched.json()).toMatchObject({ code });
    }
    for (const [method, url, body] of [
      ['GET', `/v1/bots/${mine.id}`, undefined],
      ['PATCH', `/v1/bots/${mine.id}`, { name: 'Taken over' }],
      ['DELETE', `/v1/bots/${mine.id}`, undefined],
      ['POST', `/v1/bots/${mine.id}/duplicate`, { name: 'Copied away' }],
    ] as const) {
      const response = await call(method, url, who.bob, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found' });
    }
    const list = BotListSchema.parse((await call('GET', '/v1/bots', who.bob)).json());
    expect(list.items.map((item) => item.id)).not.toContain(mine.id);
    expect(await fingerprint()).toBe(before);
  });

  it('needs the omnirag feature for builtin answers from a RAG', async () => {
    const before = await fingerprint();
    const response = await call('POST', '/v1/bots', who.noRag, {
      name: 'No RAG',
      config: { engines: { rag_id: refs.aRag } },
    });
    expect(response.statusCode).toBe(403);
    expect(await fingerprint()).toBe(before);
    // Without builtin settings the organisation still has bots.
    const plain = await createBot(who.noRag, { name: 'Plain', config: { engines: { botEngine: 'openai' } } });
    expect(plain.tenant_id).toBe(ids.noRag);
  });

  it('refuses bad input with 4xx {code, message} and changes nothing', async () => {
    const existing = await createBot(who.alice, { name: 'Existing' });
    const before = await fingerprint();
    const battery: Array<[Method, string, unknown, Caller?]> = [
      ['POST', '/v1/bots', { name: 'Anon' }, {}],
      ['POST', '/v1/bots', {}],
      ['POST', '/v1/bots', { name: '' }],
      ['POST', '/v1/bots', { name: 'x'.repeat(121) }],
      ['POST', '/v1/bots', { name: 'Existing' }],
      ['POST', '/v1/bots', { name: 'Extra', unknown: true }],
      ['POST', '/v1/bots', { name: 'Bad group', config: { nope: {} } }],
      ['POST', '/v1/bots', { name: 'Bad group type', config: { window: 5 } }],
      ['POST', '/v1/bots', { name: 'Bad width', config: { window: { width: 10 } } }],
      ['POST', '/v1/bots', { name: 'Bad engine', config: { engines: { botEngine: 'skynet' } } }],
      ['POST', '/v1/bots', { name: 'Bad origin', config: { install: { allowedOrigins: ['not a url'] } } }],
      ['POST', '/v1/bots', { name: 'Bad id', config: { engines: { rag_id: 'abc' } } }],
      ['POST', '/v1/bots', { name: 'Long secret', config: { openai: { apiKey: 'k'.repeat(5000) } } }],
      ['PATCH', `/v1/bots/${existing.id}`, { enabled: 'yes' }],
      ['PATCH', `/v1/bots/${existing.id}`, { config: { window: { height: 'tall' } } }],
      ['PATCH', '/v1/bots/not-a-uuid', { name: 'X' }],
      ['PATCH', '/v1/bots/00000000-0000-4000-8000-000000000000', { name: 'X' }],
      ['GET', '/v1/bots?page=0', undefined],
      ['GET', '/v1/bots?extra=1', undefined],
      ['DELETE', '/v1/bots/not-a-uuid', undefined],
      ['POST', `/v1/bots/${existing.id}/duplicate`, {}],
      ['POST', `/v1/bots/${existing.id}/duplicate`, { name: 'Existing' }],
    ];
    for (const [method, url, body, caller] of battery) {
      const response = await call(method, url, caller ?? who.alice, body);
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBeLessThan(500);
      const error = response.json<{ code?: unknown; message?: unknown }>();
      expect(typeof error.code).toBe('string');
      expect(typeof error.message).toBe('string');
    }
    expect(await fingerprint()).toBe(before);
  });
});

describe('public widget configuration', () => {
  it('serves only the public projection, with a strong ETag, 304 and caching', async () => {
    const bot = await createBot(who.alice, {
      name: 'Public',
      config: {
        identity: { displayName: 'Shop helper' },
        install: { allowedOrigins: [SITE] },
        openai: { apiKey: `${MARKER}-public-check-9876` },
        engines: { enableliveagent: true, liveagent: 'inbox', rag_id: refs.aRag },
      },
    });
    const response = await call('GET', `/v1/widget/${bot.id}/config`, {});
    expect(response.statusCode, response.body).toBe(200);
    const config = PublicWidgetConfigSchema.parse(response.json());
    expect(config.identity.displayName).toBe('Shop helper');
    expect(config.liveAgent.enabled).toBe(true);
    const body = response.json<Record<string, unknown>>();
    expect(Object.keys(body)).not.toContain('engines');
    expect(Object.keys(body)).not.toContain('install');
    expect(Object.keys(body)).not.toContain('openai');
    expect(response.body).not.toContain(refs.aRag);
    expect(response.body).not.toContain(SITE);
    const etag = response.headers.etag;
    expect(typeof etag === 'string' && /^"[^"]+"$/.test(etag)).toBe(true);
    expect(response.headers['cache-control']).toBe('public, max-age=60, must-revalidate');

    const again = await t.app.inject({
      method: 'GET',
      url: `/v1/widget/${bot.id}/config`,
      headers: { 'if-none-match': String(etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);

    await call('PATCH', `/v1/bots/${bot.id}`, who.alice, {
      config: { identity: { displayName: 'Renamed' } },
    });
    const changed = await t.app.inject({
      method: 'GET',
      url: `/v1/widget/${bot.id}/config`,
      headers: { 'if-none-match': String(etag) },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(PublicWidgetConfigSchema.parse(changed.json()).identity.displayName).toBe('Renamed');
  });

  it('allows only the bot’s origins (CORS)', async () => {
    const bot = await createBot(who.alice, {
      name: 'Cors',
      config: { install: { allowedOrigins: [SITE] } },
    });
    const allowed = await t.app.inject({
      method: 'GET',
      url: `/v1/widget/${bot.id}/config`,
      headers: { origin: SITE },
    });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe(SITE);
    expect(String(allowed.headers.vary)).toMatch(/origin/i);
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/v1/widget/${bot.id}/config`,
      headers: { origin: 'https://evil.example.net' },
    });
    expect(foreign.statusCode).toBe(200);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const none = await t.app.inject({ method: 'GET', url: `/v1/widget/${bot.id}/config` });
    expect(none.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a disabled bot, a disabled tenant’s bot and unknown or malformed ids with the same 404', async () => {
    const disabled = await createBot(who.alice, { name: 'Off' });
    await call('PATCH', `/v1/bots/${disabled.id}`, who.alice, { enabled: false });
    const ofBob = await createBot(who.bob, { name: 'Bob public' });
    expect((await call('GET', `/v1/widget/${ofBob.id}/config`, {})).statusCode).toBe(200);
    await t.database.db.update(tenants).set({ isActive: false }).where(eq(tenants.tenantId, ids.b));

    const answers = [];
    for (const id of [disabled.id, ofBob.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', '%27']) {
      const response = await call('GET', `/v1/widget/${id}/config`, {});
      answers.push({ status: response.statusCode, body: response.json<unknown>() });
    }
    await t.database.db.update(tenants).set({ isActive: true }).where(eq(tenants.tenantId, ids.b));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]).toMatchObject({ status: 404, body: { code: 'widget/bot-not-found' } });
  });
});
