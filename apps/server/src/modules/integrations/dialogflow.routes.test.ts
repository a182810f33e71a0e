import { generateKeyPairSync } from 'node:crypto';
import {
  BotSchema,
  IntegrationListSchema,
  IntegrationSchema,
  type IntegrationTestResult,
  IntegrationTestResultSchema,
  SECRET_ENDPOINT_CHANGED,
} from '@omnibot/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import { type Caller, createTestApp, injectAs, tablesFingerprint, type TestApp } from '../../test/app';
import {
  type DialogflowCxServer,
  serviceAccountKeyFile,
  startDialogflowCxServer,
} from '../../test/dialogflow-cx-server';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';

/*
 * Dialogflow CX integrations over HTTP (PGlite, or PostgreSQL with TEST_DATABASE_URL): the service-account key
 * sealed, masked, kept when sent back masked only while the endpoint stays, never in an answer, a log line, a stored
 * row in clear, an audit entry or the public widget configuration; the connection test against
 * test/dialogflow-cx-server.ts (the Dialogflow CX v3 REST protocol and Google's JWT-bearer token exchange).
 */

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

const PROJECT = 'shop-project-42';
const AGENT_ID = '1111aaaa-0000-4000-8000-000000000001';
const KEY_ID = 'c0ffee00c0ffee00c0ffee00c0ffee00key9';

let t: TestApp;
let df: DialogflowCxServer;
let pem = '';
let email = '';
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'dfcx-int-a', b: 'dfcx-int-b', noRag: 'dfcx-int-norag' };
const bodies: string[] = [];

/** The private key's base64 body: no answer, log line, stored row or audit entry may contain any of it. */
const secretPieces = () =>
  pem
    .split('\n')
    .filter((line) => line.length > 40)
    .slice(0, 3);

const keyFile = (overrides: { tokenUri?: string; keyId?: string } = {}) =>
  serviceAccountKeyFile({
    email,
    projectId: PROJECT,
    privateKeyPem: pem,
    tokenUri: overrides.tokenUri ?? df.tokenUri,
    keyId: overrides.keyId ?? KEY_ID,
  });

const settings = (extra: Record<string, unknown> = {}) => ({
  service_account_key: keyFile(),
  agents: [
    {
      agentName: 'support',
      agentId: AGENT_ID,
      agentImage: 'https://cdn.example.com/support.png',
      projectId: PROJECT,
      location: 'europe-west1',
    },
  ],
  endpoint: df.url,
  ...extra,
});

async function call(method: Method, url: string, caller: Caller, payload?: unknown) {
  const response = await injectAs(t, method, url, caller, payload);
  bodies.push(response.body);
  return response;
}

async function made(caller: Caller, name: string, extra: Record<string, unknown> = {}) {
  const response = await call('POST', '/v1/integrations', caller, {
    name,
    engine: 'dialogflowcx',
    settings: settings(extra),
  });
  expect(response.statusCode, response.body).toBe(201);
  return IntegrationSchema.parse(response.json());
}

async function storedSettings(id: string): Promise<string> {
  return (
    rowsOf<{ settings: string }>(
      await t.database.db.execute(sql`select settings::text as settings from integrations where id = ${id}`),
    )[0]?.settings ?? ''
  );
}

const messageOf = (result: IntegrationTestResult) => (result.ok ? '' : result.message);

const fingerprint = () => tablesFingerprint(t, ['integrations', 'bots', 'audit_log']);

beforeAll(async () => {
  t = await createTestApp({ env: { FETCH_ALLOW_ADDRESSES: '127.0.0.1' } });
  df = await startDialogflowCxServer([
    { projectId: PROJECT, location: 'europe-west1', agentId: AGENT_ID, displayName: 'Shop agent' },
  ]);
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  email = 'omnibot@shop-project-42.iam.gserviceaccount.com';
  df.registerAccount(email, pair.publicKey, [PROJECT]);
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

describe('Dialogflow CX integrations', () => {
  it('creates, lists, reads, changes and deletes one; the key only ever masked', async () => {
    const created = await made(who.alice, 'Shop Dialogflow');
    expect(created).toMatchObject({ kind: 'chatbot', engine: 'dialogflowcx', bots: [] });
    expect(created.settings).toEqual({
      service_account_key: '****key9',
      client_email: email,
      agents: [
        {
          agentName: 'support',
          agentId: AGENT_ID,
          agentImage: 'https://cdn.example.com/support.png',
          projectId: PROJECT,
          location: 'europe-west1',
        },
      ],
      default_agent: 'support',
      fallback_agent: '',
      environment: '',
      language_code: 'en',
      languages: [],
      agent_per_language: false,
      endpoint: df.url,
    });
    const list = IntegrationListSchema.parse(
      (await call('GET', '/v1/integrations?engine=dialogflowcx', who.alice)).json(),
    );
    expect(list.items.map((item) => item.id)).toEqual([created.id]);

    const sealed = await storedSettings(created.id);
    for (const piece of secretPieces()) expect(sealed).not.toContain(piece);
    expect(sealed).toContain(email);

    const kept = await call('PATCH', `/v1/integrations/${created.id}`, who.alice, {
      name: 'Shop Dialogflow CX',
      settings: settings({ service_account_key: '****key9', environment: 'prod', languages: ['en', 'fr'] }),
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(IntegrationSchema.parse(kept.json()).settings).toMatchObject({
      service_account_key: '****key9',
      environment: 'prod',
      languages: ['en', 'fr'],
    });
    const test = IntegrationTestResultSchema.parse(
      (await call('POST', `/v1/integrations/${created.id}/test`, who.alice)).json(),
    );
    expect(test).toMatchObject({ ok: true });
    expect(test.ok && test.detail).toMatch(/reached support \(Shop agent, en\)/u);

    // A bot uses it: it cannot be deleted until the bot points elsewhere.
    const bot = await call('POST', '/v1/bots', who.alice, {
      name: 'Uses Dialogflow',
      config: { engines: { botEngine: 'dialogflowcx', integration_id: created.id } },
    });
    expect(bot.statusCode, bot.body).toBe(201);
    const botId = BotSchema.parse(bot.json()).id;
    expect((await call('DELETE', `/v1/integrations/${created.id}`, who.alice)).statusCode).toBe(409);
    // The public widget configuration never carries the integration's key or account.
    const config = await t.app.inject({ method: 'GET', url: `/v1/widget/${botId}/config` });
    expect(config.statusCode, config.body).toBe(200);
    expect(config.body).not.toContain(email);
    for (const piece of secretPieces()) expect(config.body).not.toContain(piece);
    expect((await call('DELETE', `/v1/bots/${botId}`, who.alice)).statusCode).toBe(204);
    expect((await call('DELETE', `/v1/integrations/${created.id}`, who.alice)).statusCode).toBe(204);

    for (const body of bodies) for (const piece of secretPieces()) expect(body).not.toContain(piece);
    for (const line of t.logs) {
      for (const piece of secretPieces()) expect(JSON.stringify(line)).not.toContain(piece);
    }
    const audit = rowsOf<{ details: string }>(
      await t.database.db.execute(sql`select coalesce(details::text, '') as details from audit_log`),
    );
    for (const row of audit) for (const piece of secretPieces()) expect(row.details).not.toContain(piece);
  });

  it('binds a kept key to its endpoint: a new endpoint with the masked key is refused, with a new key it is taken', async () => {
    const created = await made(who.alice, 'Bound');
    const before = await fingerprint();
    for (const endpoint of ['https://evil.example.net', '', `${df.url}/other`]) {
      const moved = await call('PATCH', `/v1/integrations/${created.id}`, who.alice, {
        settings: settings({ service_account_key: '****key9', endpoint }),
      });
      expect(moved.statusCode, endpoint).toBe(400);
      expect(moved.json()).toMatchObject({ code: SECRET_ENDPOINT_CHANGED });
      const tried = await call('POST', '/v1/integrations/test', who.alice, {
        id: created.id,
        engine: 'dialogflowcx',
        settings: settings({ service_account_key: '****key9', endpoint }),
      });
      expect(tried.statusCode).toBe(400);
      expect(tried.json()).toMatchObject({ code: SECRET_ENDPOINT_CHANGED });
    }
    expect(await fingerprint()).toEqual(before);
    const renewed = await call('PATCH', `/v1/integrations/${created.id}`, who.alice, {
      settings: settings({ endpoint: 'https://europe-west1-dialogflow.googleapis.com' }),
    });
    expect(renewed.statusCode, renewed.body).toBe(200);
    // Another tenant's masked key stands for nothing.
    const foreign = await call('POST', '/v1/integrations/test', who.bob, {
      id: created.id,
      engine: 'dialogflowcx',
      settings: settings({ service_account_key: '****key9' }),
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('tests unsaved settings for real and says in plain words what failed', async () => {
    const tryIt = async (extra: Record<string, unknown>) => {
      const response = await call('POST', '/v1/integrations/test', who.alice, {
        engine: 'dialogflowcx',
        settings: settings(extra),
      });
      expect(response.statusCode, response.body).toBe(200);
      return IntegrationTestResultSchema.parse(response.json());
    };
    expect(await tryIt({})).toMatchObject({ ok: true });
    df.failures.set(AGENT_ID, 'permission-denied');
    const forbidden = await tryIt({});
    expect(forbidden).toMatchObject({ ok: false, code: 'dialogflow/forbidden' });
    expect(messageOf(forbidden)).toMatch(/Dialogflow API Client role/u);
    df.failures.set(AGENT_ID, 'rate-limited');
    expect(await tryIt({})).toMatchObject({ ok: false, code: 'provider/rate-limited' });
    df.failures.clear();
    expect(
      await tryIt({
        agents: [{ agentName: 'x', agentId: 'ffff0000-0000-4000-8000-00000000000f', projectId: PROJECT }],
        endpoint: df.url,
      }),
    ).toMatchObject({ ok: false, code: 'dialogflow/not-found' });
    df.tokenFailure = 'invalid_grant';
    const refused = await tryIt({ service_account_key: keyFile({ keyId: 'other-key-id-0001' }) });
    expect(refused).toMatchObject({ ok: false, code: 'provider/unauthorized' });
    expect(messageOf(refused)).toMatch(/token endpoint refused the service account key/u);
    df.tokenFailure = null;
    // A key signed by another private key than the one Google holds for the account.
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const forged = serviceAccountKeyFile({
      email,
      projectId: PROJECT,
      privateKeyPem: stranger.export({ type: 'pkcs8', format: 'pem' }).toString(),
      tokenUri: df.tokenUri,
    });
    const forgedResult = await tryIt({ service_account_key: forged });
    expect(forgedResult.ok).toBe(false);
    expect(messageOf(forgedResult)).toMatch(/Invalid JWT Signature/u);
    const blocked = await tryIt({ endpoint: 'http://10.255.255.1:9' });
    expect(blocked).toMatchObject({ ok: false, code: 'provider/unreachable' });
  });

  it('refuses bad settings with a clear 400 and stores nothing', async () => {
    const before = await fingerprint();
    const bad: Array<[string, Record<string, unknown>]> = [
      ['not json', { service_account_key: 'not a key' }],
      ['not a service account', { service_account_key: JSON.stringify({ type: 'authorized_user' }) }],
      [
        'a key that is not RSA',
        {
          service_account_key: serviceAccountKeyFile({
            email,
            projectId: PROJECT,
            privateKeyPem: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
            tokenUri: df.tokenUri,
          }),
        },
      ],
      ['a masked key with nothing stored', { service_account_key: '****key9' }],
      ['no agents', { agents: [] }],
      ['an unknown default agent', { default_agent: 'nobody' }],
      ['an unknown fallback agent', { fallback_agent: 'nobody' }],
      ['a bad project', { agents: [{ agentName: 'a', agentId: AGENT_ID, projectId: 'X' }] }],
      [
        'a bad location',
        { agents: [{ agentName: 'a', agentId: AGENT_ID, projectId: PROJECT, location: 'EU 1' }] },
      ],
      ['a bad endpoint', { endpoint: 'ftp://example.com' }],
      ['credentials in the endpoint', { endpoint: 'https://user:pw@example.com' }],
      ['a bad language', { language_code: 'english!' }],
      ['an extra field', { surprise: true }],
    ];
    for (const [what, extra] of bad) {
      const response = await call('POST', '/v1/integrations', who.alice, {
        name: `Bad ${what}`,
        engine: 'dialogflowcx',
        settings: settings(extra),
      });
      expect(response.statusCode, what).toBe(400);
      const body = response.json<{ code: string; message: string }>();
      expect(body.message.length, what).toBeGreaterThan(0);
      expect(response.body).not.toContain('BEGIN PRIVATE KEY');
    }
    // A chatbot integration of another engine keeps its engine.
    const openai = await call('POST', '/v1/integrations', who.alice, {
      name: 'An OpenAI one',
      engine: 'openai',
      settings: { base_url: 'https://llm.example.com/v1', model: 'm' },
    });
    const openaiId = IntegrationSchema.parse(openai.json()).id;
    const afterOpenAi = await fingerprint();
    const mismatch = await call('PATCH', `/v1/integrations/${openaiId}`, who.alice, { settings: settings() });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toMatchObject({ code: 'integration/engine-mismatch' });
    expect(await fingerprint()).toEqual(afterOpenAi);
    expect(before).not.toEqual(afterOpenAi);
  });

  it("keeps each tenant's integrations its own", async () => {
    const mine = await made(who.alice, 'Tenant bound');
    for (const [method, url] of [
      ['GET', `/v1/integrations/${mine.id}`],
      ['PATCH', `/v1/integrations/${mine.id}`],
      ['DELETE', `/v1/integrations/${mine.id}`],
      ['POST', `/v1/integrations/${mine.id}/test`],
    ] as Array<[Method, string]>) {
      const response = await call(
        method,
        url,
        who.bob,
        method === 'PATCH' ? { name: 'Mine now' } : undefined,
      );
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const bobs = IntegrationListSchema.parse((await call('GET', '/v1/integrations', who.bob)).json());
    expect(bobs.items.map((item) => item.id)).not.toContain(mine.id);
    const bot = await call('POST', '/v1/bots', who.bob, {
      name: 'Borrowing',
      config: { engines: { botEngine: 'dialogflowcx', integration_id: mine.id } },
    });
    expect(bot.statusCode).toBe(400);
    expect(bot.json()).toMatchObject({ code: 'bot/unknown-integration' });
  });
});
