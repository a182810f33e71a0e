import { createServer } from 'node:net';
import {
  AvailableModelListSchema,
  ModelListSchema,
  ModelSchema,
  ModelTestResultSchema,
} from '@omnibot/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import { auditLog, models } from '../../db/schema';
import { loadAuthSecret } from '../../bootstrap';
import { createSecretBox } from '../../lib/secret-box';
import {
  type Caller,
  createTestApp,
  injectAs,
  sessionCookie,
  tablesFingerprint,
  TEST_ADMIN_PASSWORD,
  type TestApp,
} from '../../test/app';
import {
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
} from '../../test/openai-compatible-server';
import { makeSignedInUser, makeTenant, platformTenantId } from '../accounts/accounts.fixtures';
import { basicCredential } from '../files/files.test-support';
import { TEST_TIMEOUT_MS, testModel } from './models.service';
import { loopbackModelFetch, TEST_FETCH_ALLOW } from '../../test/loopback-fetch';
import { PRIVATE_SITE_HINT } from '../../lib/guarded-http/guarded-fetch';

// The model server below speaks the OpenAI chat-completions and embeddings protocols (see its header).

const API_KEY = 'sk-route-test-key-5b4a3c2d1e0f';
const OTHER_KEY = 'sk-rotated-key-aa11bb22cc33dd44';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Auth = Caller;

let t: TestApp;
let server: OpenAICompatibleServer;
let platform: string;
const who: Record<
  'master' | 'partnerMaster' | 'partnerAdmin' | 'clientUser' | 'clientMaster' | 'otherUser' | 'noRagUser',
  Auth
> = {} as never;
let credential: Auth;
const ids = { partner: 'mdl-partner', client: 'mdl-client', other: 'mdl-other', noRag: 'mdl-norag' };

const call = (method: Method, url: string, auth: Auth, payload?: unknown) =>
  injectAs(t, method, url, auth, payload);

const chatBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Chat model',
  kind: 'chat',
  base_url: server.baseUrl,
  model_name: 'test-chat',
  api_key: API_KEY,
  ...overrides,
});

async function create(auth: Auth, body: Record<string, unknown>) {
  const response = await call('POST', '/v1/models', auth, body);
  expect(response.statusCode, response.body).toBe(201);
  return ModelSchema.parse(response.json());
}

/** A digest of every table the models routes write: equal digests mean nothing changed. */
const fingerprint = (): Promise<string> => tablesFingerprint(t, ['models', 'model_shares', 'audit_log']);

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  t = await createTestApp({ env: { FETCH_ALLOW_ADDRESSES: TEST_FETCH_ALLOW } });
  server = await startOpenAICompatibleServer({ dimensions: 32 });
  platform = await platformTenantId(t);
  await makeTenant(t, { tenantId: ids.partner, parent: platform, type: '2', domain: 'partner.test' });
  await makeTenant(t, { tenantId: ids.client, parent: ids.partner, type: '3', domain: 'client.test' });
  await makeTenant(t, { tenantId: ids.other, parent: platform, type: '3', domain: 'other.test' });
  await makeTenant(t, {
    tenantId: ids.noRag,
    parent: platform,
    type: '3',
    domain: 'norag.test',
    codes: ['casesummary'],
  });
  who.master = { cookie: await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD) };
  who.partnerMaster = {
    cookie: (await makeSignedInUser(t, ids.partner, 'boss@partner.test', 'master')).cookie,
  };
  who.partnerAdmin = {
    cookie: (await makeSignedInUser(t, ids.partner, 'admin@partner.test', 'administrator')).cookie,
  };
  who.clientUser = { cookie: (await makeSignedInUser(t, ids.client, 'user@client.test', 'user')).cookie };
  who.clientMaster = { cookie: (await makeSignedInUser(t, ids.client, 'boss@client.test', 'master')).cookie };
  who.otherUser = { cookie: (await makeSignedInUser(t, ids.other, 'user@other.test', 'user')).cookie };
  who.noRagUser = { cookie: (await makeSignedInUser(t, ids.noRag, 'user@norag.test', 'user')).cookie };
  credential = { authorization: await basicCredential(t, platform) };
});
afterAll(async () => {
  await server.close();
  await t.close();
});

describe('model connections as the platform master', () => {
  it('creates a model with defaults, answers the key only as a mask and stores it sealed', async () => {
    const before = Date.now();
    const response = await call('POST', '/v1/models', who.master, chatBody());
    expect(response.statusCode, response.body).toBe(201);
    expect(response.body).not.toContain(API_KEY);
    const model = ModelSchema.parse(response.json());
    expect(model).toMatchObject({
      tenant_id: platform,
      name: 'Chat model',
      kind: 'chat',
      base_url: server.baseUrl,
      model_name: 'test-chat',
      api_key: { set: true, last4: API_KEY.slice(-4) },
      max_tokens: 1024,
      temperature: 0.7,
      dimensions: null,
      sharing: { all: false, tenant_ids: [] },
    });
    expect(Date.parse(model.created_at)).toBeGreaterThanOrEqual(before - 1000);

    const [row] = await t.database.db.select().from(models).where(eq(models.id, model.id));
    expect(row?.apiKeyEncrypted).toMatch(/^v1:/);
    expect(row?.apiKeyEncrypted).not.toContain(API_KEY);
    const raw = rowsOf<Record<string, unknown>>(
      await t.database.db.execute(sql`select * from models where id = ${model.id}`),
    );
    expect(JSON.stringify(raw)).not.toContain(API_KEY);
    const box = createSecretBox(await loadAuthSecret(t.database.db, t.env), 'model-api-key');
    expect(box.decrypt(row?.apiKeyEncrypted ?? '')).toBe(API_KEY);

    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.target, model.id));
    expect(audits.map((entry) => entry.action)).toEqual(['model.create']);
    expect(JSON.stringify(audits)).not.toContain(API_KEY);
  });

  it("lists and gets its own models, masked; another tenant's model is not found", async () => {
    const embedding = await create(who.master, {
      ...chatBody({ name: 'Embedder', kind: 'embedding', model_name: 'test-embed', dimensions: 32 }),
    });
    expect(embedding.dimensions).toBe(32);
    const partnerModel = await create(who.partnerMaster, chatBody({ name: 'Partner chat' }));
    expect(partnerModel.tenant_id).toBe(ids.partner);

    const list = await call('GET', '/v1/models', who.master);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(API_KEY);
    const names = ModelListSchema.parse(list.json()).items.map((item) => item.name);
    expect(names).toContain('Embedder');
    expect(names).not.toContain('Partner chat');

    const one = await call('GET', `/v1/models/${embedding.id}`, who.master);
    expect(one.statusCode).toBe(200);
    expect(ModelSchema.parse(one.json()).api_key).toEqual({ set: true, last4: API_KEY.slice(-4) });
    expect(one.body).not.toContain(API_KEY);

    for (const [method, url] of [
      ['GET', `/v1/models/${partnerModel.id}`],
      ['PATCH', `/v1/models/${partnerModel.id}`],
      ['DELETE', `/v1/models/${partnerModel.id}`],
      ['POST', `/v1/models/${partnerModel.id}/test`],
      ['GET', '/v1/models/00000000-0000-4000-8000-000000000000'],
    ] as Array<[Method, string]>) {
      const response = await call(
        method,
        url,
        who.master,
        method === 'PATCH' ? { name: 'Taken over' } : undefined,
      );
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ code: 'not_found', message: 'Model not found' });
    }
  });

  it('updates fields, rotates and removes the key, replaces the sharing list, and audits each change', async () => {
    const model = await create(who.master, chatBody({ name: 'To update' }));
    const patched = await call('PATCH', `/v1/models/${model.id}`, who.master, {
      name: 'Updated',
      temperature: 0.2,
      max_tokens: 4096,
      sharing: { all: false, tenant_ids: [ids.client, ids.other] },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(ModelSchema.parse(patched.json())).toMatchObject({
      name: 'Updated',
      temperature: 0.2,
      max_tokens: 4096,
      api_key: { set: true, last4: API_KEY.slice(-4) },
      sharing: { all: false, tenant_ids: [ids.client, ids.other].sort() },
    });

    const rotated = await call('PATCH', `/v1/models/${model.id}`, who.master, { api_key: OTHER_KEY });
    expect(rotated.body).not.toContain(OTHER_KEY);
    expect(ModelSchema.parse(rotated.json()).api_key).toEqual({ set: true, last4: OTHER_KEY.slice(-4) });
    const [row] = await t.database.db.select().from(models).where(eq(models.id, model.id));
    expect(row?.apiKeyEncrypted).not.toContain(OTHER_KEY);

    const removed = await call('PATCH', `/v1/models/${model.id}`, who.master, { api_key: null });
    expect(ModelSchema.parse(removed.json()).api_key).toEqual({ set: false, last4: null });

    const actions = (await t.database.db.select().from(auditLog).where(eq(auditLog.target, model.id)))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .map((entry) => entry.action);
    expect(actions).toEqual(['model.create', 'model.update', 'model.api_key.change', 'model.api_key.remove']);
  });

  it('deletes a model with its shares and audits it', async () => {
    const model = await create(
      who.master,
      chatBody({ name: 'To delete', sharing: { all: false, tenant_ids: [ids.other] } }),
    );
    const response = await call('DELETE', `/v1/models/${model.id}`, who.master);
    expect(response.statusCode).toBe(204);
    expect((await call('GET', `/v1/models/${model.id}`, who.master)).statusCode).toBe(404);
    const shares = rowsOf(
      await t.database.db.execute(sql`select * from model_shares where model_id = ${model.id}`),
    );
    expect(shares).toHaveLength(0);
    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'model.delete'));
    expect(audit).toMatchObject({ target: model.id, tenantId: platform });
    expect(audit?.actorId).toBeTruthy();
  });
});

describe('test connection', () => {
  const test = async (id: string) => {
    const response = await call('POST', `/v1/models/${id}/test`, who.master);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).not.toContain(API_KEY);
    return ModelTestResultSchema.parse(response.json());
  };

  it('answers ok with the latency for a chat and an embedding model, sending the key as a Bearer token', async () => {
    const chat = await create(who.master, chatBody({ name: 'Testable chat' }));
    const embed = await create(
      who.master,
      chatBody({ name: 'Testable embed', kind: 'embedding', model_name: 'e', dimensions: 8 }),
    );
    server.requests.length = 0;
    const chatResult = await test(chat.id);
    expect(chatResult).toMatchObject({ ok: true });
    expect(chatResult.ok && chatResult.latency_ms).toBeGreaterThanOrEqual(0);
    expect(await test(embed.id)).toMatchObject({ ok: true });
    expect(server.requests.map((request) => request.path)).toEqual(['/chat/completions', '/embeddings']);
    for (const request of server.requests) expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(server.requests[1]?.body).toMatchObject({ input: ['test'], dimensions: 8 });
  });

  it('explains provider failures in plain words', async () => {
    const model = await create(who.master, chatBody({ name: 'Failing chat' }));
    try {
      server.failure = 'unauthorized';
      expect(await test(model.id)).toEqual({
        ok: false,
        code: 'provider/unauthorized',
        message: 'The provider refused the API key.',
      });
      server.failure = 'rate-limited';
      expect(await test(model.id)).toMatchObject({ ok: false, code: 'provider/rate-limited' });
      server.failure = 'server-error';
      expect(await test(model.id)).toMatchObject({
        ok: false,
        code: 'provider/error',
        message: 'The provider answered with an error (HTTP 500).',
      });
      server.failure = 'malformed-json';
      expect(await test(model.id)).toMatchObject({ ok: false, code: 'provider/bad-response' });
    } finally {
      server.failure = 'none';
    }
    const port = await freePort();
    const patched = await call('PATCH', `/v1/models/${model.id}`, who.master, {
      base_url: `http://127.0.0.1:${port}/v1`,
      api_key: 'sk-entered-again-for-the-new-port',
    });
    expect(patched.statusCode).toBe(200);
    expect(await test(model.id)).toEqual({
      ok: false,
      code: 'provider/unreachable',
      message: `Could not fetch from 127.0.0.1:${port}: no HTTP answer came back.`,
    });
  });

  it('keeps a stored key only for the endpoint it was entered for, for every kind of model', async () => {
    for (const kind of ['chat', 'embedding', 'speech'] as const) {
      const model = await create(who.master, chatBody({ name: `Bound ${kind}`, kind, model_name: 'm' }));
      const before = await fingerprint();
      for (const base_url of [
        'https://collector.example.net/v1',
        server.baseUrl.replace('/v1', '/v2'),
        server.baseUrl.replace('http:', 'https:'),
      ]) {
        const moved = await call('PATCH', `/v1/models/${model.id}`, who.master, {
          base_url,
          name: 'Renamed',
        });
        expect([moved.statusCode, moved.json()], `${kind} ${base_url}`).toEqual([
          400,
          {
            code: 'secret/endpoint-changed',
            message:
              'The API key must be entered again when the URL changes: a stored key is only sent to the address it was entered for.',
          },
        ]);
      }
      expect(await fingerprint()).toBe(before);
      const rewritten = await call('PATCH', `/v1/models/${model.id}`, who.master, {
        base_url: `${server.baseUrl.replace('http://', 'HTTP://')}/`,
      });
      expect(rewritten.statusCode, rewritten.body).toBe(200);
      const entered = await call('PATCH', `/v1/models/${model.id}`, who.master, {
        base_url: 'https://elsewhere.example.net/v1',
        api_key: 'sk-entered-again-for-elsewhere',
      });
      expect(entered.statusCode, entered.body).toBe(200);
      const removed = await call('PATCH', `/v1/models/${model.id}`, who.master, {
        base_url: 'https://third.example.net/v1',
        api_key: null,
      });
      expect(removed.statusCode, removed.body).toBe(200);
      const unkeyed = await call('PATCH', `/v1/models/${model.id}`, who.master, { base_url: server.baseUrl });
      expect(unkeyed.statusCode, unkeyed.body).toBe(200);
    }
  });

  it('tells a master how a refused private address is allowed', async () => {
    const model = await create(
      who.master,
      chatBody({ name: 'Intranet chat', base_url: 'http://10.1.2.3/v1' }),
    );
    expect(await test(model.id)).toEqual({
      ok: false,
      code: 'provider/unreachable',
      message: `Refused by the private-address rule: 10.1.2.3 is a private network address; only public internet addresses can be fetched. ${PRIVATE_SITE_HINT}`,
    });
  });

  it('gives up on a provider that does not answer within the limit', async () => {
    const model = await create(who.master, chatBody({ name: 'Hanging chat' }));
    const box = createSecretBox(await loadAuthSecret(t.database.db, t.env), 'model-api-key');
    const principal = {
      kind: 'user' as const,
      userId: 'u',
      email: 'e',
      name: 'n',
      tenantId: platform,
      tenantType: '1',
      role: 'master' as const,
      mustChangePassword: false,
    };
    server.failure = 'hang';
    try {
      const started = Date.now();
      const result = await testModel(
        { db: t.database.db, secretBox: box, modelFetch: loopbackModelFetch },
        principal,
        model.id,
        300,
      );
      expect(result).toMatchObject({ ok: false, code: 'provider/timeout' });
      // Sooner than the default limit the given one replaces, which a test ignoring it would wait for.
      expect(Date.now() - started).toBeLessThan(TEST_TIMEOUT_MS);
    } finally {
      server.failure = 'none';
    }
  });
});

describe('who may manage models', () => {
  it('refuses administrators, users, masters below level 2 and API credentials with 403, changing nothing', async () => {
    const target = await create(who.master, chatBody({ name: 'Guarded' }));
    const before = await fingerprint();
    const routes: Array<[Method, string, unknown]> = [
      ['GET', '/v1/models', undefined],
      ['POST', '/v1/models', chatBody()],
      ['GET', `/v1/models/${target.id}`, undefined],
      ['PATCH', `/v1/models/${target.id}`, { name: 'x' }],
      ['DELETE', `/v1/models/${target.id}`, undefined],
      ['POST', `/v1/models/${target.id}/test`, undefined],
    ];
    const callers: Array<[string, Auth]> = [
      ['partner administrator', who.partnerAdmin],
      ['client user', who.clientUser],
      ['client master', who.clientMaster],
      ['platform API credential', credential],
      ['user without omnirag', who.noRagUser],
    ];
    server.requests.length = 0;
    for (const [name, auth] of callers) {
      for (const [method, url, payload] of routes) {
        const response = await call(method, url, auth, payload);
        expect(response.statusCode, `${name} ${method} ${url}`).toBe(403);
        expect(Object.keys(response.json<object>()).sort()).toEqual(['code', 'message']);
        expect(response.json<{ code: string }>().code).toBe('forbidden');
      }
    }
    for (const [method, url, payload] of routes) {
      expect((await call(method, url, {}, payload)).statusCode, `anonymous ${method} ${url}`).toBe(401);
    }
    expect(server.requests).toHaveLength(0);
    expect(await fingerprint()).toBe(before);
  });
});

describe('available models', () => {
  it('offers each tenant its own models and those shared with it or with all, without keys or URLs', async () => {
    const sharedWithClient = await create(
      who.master,
      chatBody({ name: 'Avail: client only', sharing: { all: false, tenant_ids: [ids.client] } }),
    );
    const sharedWithAll = await create(
      who.master,
      chatBody({ name: 'Avail: everyone', kind: 'embedding', model_name: 'e', sharing: { all: true } }),
    );
    const notShared = await create(who.master, chatBody({ name: 'Avail: nobody' }));
    const partnerAll = await create(
      who.partnerMaster,
      chatBody({ name: 'Avail: partner subtree', sharing: { all: true } }),
    );

    const availableTo = async (auth: Auth, query = '') => {
      const response = await call('GET', `/v1/models/available${query}`, auth);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body).not.toContain(API_KEY);
      expect(response.body).not.toContain(server.baseUrl);
      return AvailableModelListSchema.parse(response.json()).items.map((item) => item.id);
    };

    const client = await availableTo(who.clientUser);
    expect(client).toEqual(expect.arrayContaining([sharedWithClient.id, sharedWithAll.id, partnerAll.id]));
    expect(client).not.toContain(notShared.id);

    const other = await availableTo(who.otherUser);
    expect(other).toContain(sharedWithAll.id);
    expect(other).not.toContain(sharedWithClient.id);
    expect(other).not.toContain(partnerAll.id);
    expect(other).not.toContain(notShared.id);

    expect(await availableTo(who.otherUser, '?kind=chat')).not.toContain(sharedWithAll.id);
    expect(await availableTo(who.otherUser, '?kind=embedding')).toContain(sharedWithAll.id);

    const own = await availableTo(credential);
    expect(own).toEqual(expect.arrayContaining([notShared.id, sharedWithClient.id]));
    expect(own).not.toContain(partnerAll.id);
    expect(await availableTo(who.partnerAdmin)).toEqual(
      expect.arrayContaining([partnerAll.id, sharedWithAll.id]),
    );

    const refused = await call('GET', '/v1/models/available', who.noRagUser);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'forbidden' });
    expect((await call('GET', '/v1/models/available', {})).statusCode).toBe(401);
    expect((await call('GET', '/v1/models/available?kind=audio', who.clientUser)).statusCode).toBe(400);
  });
});

describe('bad input', () => {
  it('answers 4xx {code, message} and stores nothing', async () => {
    const target = await create(who.master, chatBody({ name: 'Input target' }));
    const valid = chatBody();
    const creates: Array<[string, unknown]> = [
      ['no body', undefined],
      ['an array', [valid]],
      ['name of the wrong type', { ...valid, name: 42 }],
      ['empty name', { ...valid, name: '  ' }],
      ['NUL in name', { ...valid, name: 'bad\u0000name' }],
      ['name too long', { ...valid, name: 'n'.repeat(101) }],
      ['unknown kind', { ...valid, kind: 'audio' }],
      ['extra field', { ...valid, owner: 'someone' }],
      ['api_key_encrypted smuggled', { ...valid, api_key_encrypted: 'v1:abc' }],
      ['tenant_id smuggled', { ...valid, tenant_id: ids.partner }],
      ['ftp URL', { ...valid, base_url: 'ftp://example.com/v1' }],
      ['not a URL', { ...valid, base_url: 'not a url' }],
      ['javascript URL', { ...valid, base_url: 'javascript:alert(1)' }],
      ['URL with credentials', { ...valid, base_url: 'https://user:pass@example.com/v1' }],
      ['temperature 3', { ...valid, temperature: 3 }],
      ['negative temperature', { ...valid, temperature: -0.1 }],
      ['temperature as a string', { ...valid, temperature: '0.5' }],
      ['max_tokens 0', { ...valid, max_tokens: 0 }],
      ['max_tokens 40000', { ...valid, max_tokens: 40000 }],
      ['fractional max_tokens', { ...valid, max_tokens: 10.5 }],
      ['empty key', { ...valid, api_key: '' }],
      ['key with a newline', { ...valid, api_key: 'sk-abc\r\nX-Injected: 1' }],
      ['sharing without all', { ...valid, sharing: { tenant_ids: [] } }],
      ['sharing with a bad tenant id', { ...valid, sharing: { all: false, tenant_ids: ['../x'] } }],
      [
        'sharing with an unknown tenant',
        { ...valid, sharing: { all: false, tenant_ids: ['no-such-tenant'] } },
      ],
    ];
    const before = await fingerprint();
    for (const [label, payload] of creates) {
      const response = await call('POST', '/v1/models', who.master, payload);
      expect(response.statusCode, `${label}: ${response.body}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, label).toBeLessThan(500);
      expect(Object.keys(response.json<object>()).sort(), label).toEqual(['code', 'message']);
    }
    const unknownTenant = await call('POST', '/v1/models', who.master, creates.at(-1)?.[1]);
    expect(unknownTenant.json()).toEqual({
      code: 'model/unknown-tenant',
      message: 'Unknown organisation to share with: no-such-tenant.',
    });
    // A partner may share only inside its own subtree.
    const outside = await call('POST', '/v1/models', who.partnerMaster, {
      ...valid,
      sharing: { all: false, tenant_ids: [ids.other] },
    });
    expect(outside.statusCode).toBe(400);

    const patches: Array<[string, unknown]> = [
      ['kind change', { kind: 'embedding' }],
      ['extra field', { owner: 'x' }],
      ['bad URL', { base_url: 'file:///etc/passwd' }],
      ['temperature 3', { temperature: 3 }],
      ['NUL in name', { name: '\u0000' }],
      ['null name', { name: null }],
    ];
    for (const [label, payload] of patches) {
      const response = await call('PATCH', `/v1/models/${target.id}`, who.master, payload);
      expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
      expect(Object.keys(response.json<object>()).sort(), label).toEqual(['code', 'message']);
    }
    const badJson = await t.app.inject({
      method: 'POST',
      url: '/v1/models',
      headers: { cookie: who.master.cookie ?? '', 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(badJson.statusCode).toBe(400);
    const badBytes = await t.app.inject({
      method: 'POST',
      url: '/v1/models',
      headers: { cookie: who.master.cookie ?? '', 'content-type': 'application/json' },
      payload: Buffer.from([0x7b, 0x22, 0x6e, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
    });
    expect(badBytes.json()).toMatchObject({ code: 'invalid_utf8' });
    for (const url of ['/v1/models/not-a-uuid', '/v1/models/not-a-uuid/test', '/v1/models?x=1']) {
      const response = await call(url.endsWith('/test') ? 'POST' : 'GET', url, who.master);
      expect(response.statusCode, url).toBe(400);
    }
    expect(await fingerprint()).toBe(before);
  });
});

describe('logs', () => {
  // Runs last: every create, update, test, failed test, refusal and bad input above has been logged by now.
  it('never writes an API key to a log line', () => {
    expect(t.logs.length).toBeGreaterThan(0);
    const lines = JSON.stringify(t.logs);
    expect(lines).not.toContain(API_KEY);
    expect(lines).not.toContain(OTHER_KEY);
  });
});
