import {
  BotSchema,
  IntegrationListSchema,
  IntegrationSchema,
  SECRET_ENDPOINT_CHANGED,
} from '@omnibot/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import { loadAuthSecret } from '../../bootstrap';
import { createSecretBox } from '../../lib/secret-box';
import { type Caller, createTestApp, injectAs, tablesFingerprint, type TestApp } from '../../test/app';
import { type AmazonConnectServer, startAmazonConnectServer } from '../../test/amazon-connect-server';
import {
  type FakeGenesysServer,
  startGenesysWebMessagingServer,
} from '../../test/genesys-web-messaging-server';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { contactCentreSettingsOf } from './contact-centre.service';

/*
 * Contact-centre integrations (kind ccaas: Genesys Cloud and Amazon Connect) over HTTP, on PGlite (and
 * PostgreSQL with TEST_DATABASE_URL). Connection tests reach local servers that speak the Genesys Web Messaging
 * guest protocol and the Amazon Connect API (SigV4 verified); everything else (sealing, masking, endpoint binding,
 * bots, tenancy) is exercised for real.
 */

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A secret no response, log line, stored row or audit entry may ever contain in clear. */
const MARKER = 'PLAINTEXT-CONNECT-SECRET-9c4a';
const SECRET = `${MARKER}-WXYZ`;

const GENESYS = {
  server_url: 'wss://webmessaging.mypurecloud.de/v1',
  deployment_id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  origin: 'https://shop.example.com',
};
const CONNECT = {
  region: 'eu-central-1',
  instance_id: '11111111-2222-4333-8444-555555555555',
  contact_flow_id: '66666666-7777-4888-9999-000000000000',
  access_key_id: 'AKIAEXAMPLEKEY00001',
  secret_access_key: SECRET,
};

let t: TestApp;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'ccaas-a', b: 'ccaas-b', noRag: 'ccaas-norag' };
const bodies: string[] = [];

async function call(method: Method, url: string, caller: Caller, payload?: unknown) {
  const response = await injectAs(t, method, url, caller, payload);
  bodies.push(response.body);
  return response;
}

async function made(caller: Caller, body: Record<string, unknown>) {
  const response = await call('POST', '/v1/integrations', caller, body);
  expect(response.statusCode, response.body).toBe(201);
  return IntegrationSchema.parse(response.json());
}

const genesys = (name: string, settings: Record<string, unknown> = {}) => ({
  name,
  engine: 'genesys',
  settings: { ...GENESYS, ...settings },
});
const connect = (name: string, settings: Record<string, unknown> = {}) => ({
  name,
  engine: 'connect',
  settings: { ...CONNECT, ...settings },
});

const fingerprint = () => tablesFingerprint(t, ['integrations', 'bots', 'audit_log']);

async function storedSettings(id: string): Promise<string> {
  return (
    rowsOf<{ settings: string }>(
      await t.database.db.execute(sql`select settings::text as settings from integrations where id = ${id}`),
    )[0]?.settings ?? ''
  );
}

async function makeBot(caller: Caller, name: string, engines: Record<string, unknown>) {
  const response = await call('POST', '/v1/bots', caller, { name, config: { engines } });
  expect(response.statusCode, response.body).toBe(201);
  return BotSchema.parse(response.json()).id;
}

let genesysServer: FakeGenesysServer;
let connectServer: AmazonConnectServer;

/** Genesys settings that reach the local Web Messaging server. */
const genesysFake = (settings: Record<string, unknown> = {}) => ({
  server_url: genesysServer.serverUrl,
  deployment_id: genesysServer.deploymentId,
  origin: genesysServer.allowedOrigin,
  ...settings,
});
/** Connect settings that reach the local Amazon Connect, signed with its key. */
const connectFake = () => ({
  region: connectServer.region,
  instance_id: connectServer.instanceId,
  contact_flow_id: connectServer.contactFlowId,
  access_key_id: connectServer.keys.accessKeyId,
  secret_access_key: connectServer.keys.secretAccessKey,
  connect_endpoint: connectServer.baseUrl,
  participant_endpoint: connectServer.baseUrl,
});

beforeAll(async () => {
  genesysServer = await startGenesysWebMessagingServer();
  connectServer = await startAmazonConnectServer();
  t = await createTestApp({ env: { FETCH_ALLOW_ADDRESSES: '127.0.0.1' } });
  Object.assign(who, await makeOmniragTenants(t, ids));
});
afterAll(async () => {
  await t.close();
  await genesysServer.close();
  await connectServer.close();
});

describe('contact-centre integrations', () => {
  it('creates, lists by kind, reads, changes and deletes Genesys and Connect integrations', async () => {
    const gen = await made(who.alice, genesys('Genesys EU'));
    expect(gen).toMatchObject({ kind: 'ccaas', engine: 'genesys', settings: GENESYS, bots: [] });
    const con = await made(who.alice, { ...connect('Connect EU'), kind: 'ccaas' });
    expect(con).toMatchObject({ kind: 'ccaas', engine: 'connect' });
    expect(con.settings).toEqual({
      ...CONNECT,
      secret_access_key: '****WXYZ',
      content_types: ['text/plain'],
      display_name: 'Visitor',
      connect_endpoint: '',
      participant_endpoint: '',
    });
    const chatbot = await made(who.alice, {
      name: 'A chatbot engine',
      engine: 'openai',
      settings: { base_url: 'https://llm.example.com/v1', model: 'm' },
    });

    const ccaas = IntegrationListSchema.parse(
      (await call('GET', '/v1/integrations?kind=ccaas', who.alice)).json(),
    );
    expect(ccaas.items.map((item) => item.name)).toEqual(['Connect EU', 'Genesys EU']);
    const chatbots = IntegrationListSchema.parse(
      (await call('GET', '/v1/integrations?kind=chatbot', who.alice)).json(),
    );
    expect(chatbots.items.map((item) => item.id)).toEqual([chatbot.id]);
    const onlyConnect = IntegrationListSchema.parse(
      (await call('GET', '/v1/integrations?kind=ccaas&engine=connect', who.alice)).json(),
    );
    expect(onlyConnect.items.map((item) => item.id)).toEqual([con.id]);
    const all = IntegrationListSchema.parse((await call('GET', '/v1/integrations', who.alice)).json());
    expect(all.items).toHaveLength(3);

    const changed = await call('PATCH', `/v1/integrations/${gen.id}`, who.alice, {
      name: 'Genesys Frankfurt',
      settings: { ...GENESYS, origin: 'https://www.example.com' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(IntegrationSchema.parse(changed.json())).toMatchObject({
      name: 'Genesys Frankfurt',
      settings: { origin: 'https://www.example.com' },
    });
    const read = IntegrationSchema.parse((await call('GET', `/v1/integrations/${con.id}`, who.alice)).json());
    expect(read.settings).toMatchObject({ secret_access_key: '****WXYZ' });

    for (const id of [gen.id, con.id, chatbot.id]) {
      expect((await call('DELETE', `/v1/integrations/${id}`, who.alice)).statusCode).toBe(204);
      expect((await call('GET', `/v1/integrations/${id}`, who.alice)).statusCode).toBe(404);
    }
    const actions = rowsOf<{ action: string }>(
      await t.database.db.execute(
        sql`select action from audit_log where target = ${gen.id} order by created_at, action`,
      ),
    ).map((row) => row.action);
    expect(actions).toEqual(['integration.create', 'integration.update', 'integration.delete']);
  });

  it('seals the secret access key under its own purpose, masks it, keeps it when sent back masked, removes it on ""', async () => {
    const created = await made(who.alice, connect('Sealed'));
    const sealed = await storedSettings(created.id);
    expect(sealed).not.toContain(MARKER);
    expect(sealed).not.toContain('WXYZ');
    // Sealed for contact centres: the model keys' box cannot open it.
    const stored = JSON.parse(sealed) as { secret_access_key: string };
    const modelBox = createSecretBox(await loadAuthSecret(t.database.db, t.env), 'model-api-key');
    expect(() => modelBox.decrypt(stored.secret_access_key)).toThrow();

    const kept = await call('PATCH', `/v1/integrations/${created.id}`, who.alice, {
      settings: { ...CONNECT, secret_access_key: '****WXYZ', display_name: 'Website visitor' },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(await storedSettings(created.id)).toContain(stored.secret_access_key);
    const opened = await contactCentreSettingsOf(t.database.db, await contactCentreBox(), ids.a, created.id);
    expect(opened).toEqual({
      engine: 'connect',
      settings: {
        ...CONNECT,
        content_types: ['text/plain'],
        display_name: 'Website visitor',
        connect_endpoint: '',
        participant_endpoint: '',
      },
    });

    const removed = await call('PATCH', `/v1/integrations/${created.id}`, who.alice, {
      settings: { ...CONNECT, secret_access_key: '' },
    });
    expect(IntegrationSchema.parse(removed.json()).settings).toMatchObject({ secret_access_key: '' });
    // A masked key with nothing to keep is refused.
    const nothing = await call(
      'POST',
      '/v1/integrations',
      who.alice,
      connect('Masked', { secret_access_key: '****WXYZ' }),
    );
    expect(nothing.statusCode).toBe(400);

    for (const body of bodies) expect(body).not.toContain(MARKER);
    for (const line of t.logs) expect(JSON.stringify(line)).not.toContain(MARKER);
    const audit = rowsOf<{ details: string }>(
      await t.database.db.execute(sql`select coalesce(details::text, '') as details from audit_log`),
    );
    for (const row of audit) expect(row.details).not.toContain(MARKER);
    expect(await call('DELETE', `/v1/integrations/${created.id}`, who.alice)).toMatchObject({
      statusCode: 204,
    });
  });

  it('keeps a stored secret only while the region and both endpoints stay where it was entered for', async () => {
    const created = await made(
      who.alice,
      connect('Bound', { connect_endpoint: 'https://connect.example.com/api' }),
    );
    const masked = {
      ...CONNECT,
      secret_access_key: '****WXYZ',
      connect_endpoint: 'https://connect.example.com/api',
    };
    const before = await fingerprint();
    for (const moved of [
      { region: 'us-west-2' },
      { connect_endpoint: 'https://collector.example.net/api' },
      { connect_endpoint: '' },
      { participant_endpoint: 'https://participant.example.net' },
    ]) {
      const refused = await call('PATCH', `/v1/integrations/${created.id}`, who.alice, {
        settings: { ...masked, ...moved },
      });
      expect(refused.statusCode, JSON.stringify(moved)).toBe(400);
      expect(refused.json()).toEqual({
        code: SECRET_ENDPOINT_CHANGED,
        message:
          'The secret access key must be entered again when the region or an endpoint changes: a stored key is only sent to the address it was entered for.',
      });
      const tried = await call('POST', '/v1/integrations/test', who.alice, {
        id: created.id,
        engine: 'connect',
        settings: { ...masked, ...moved },
      });
      expect(tried.statusCode).toBe(400);
      expect(tried.json()).toMatchObject({ code: SECRET_ENDPOINT_CHANGED });
    }
    // A masked secret on an unsaved test stands only for a saved Connect integration of the caller.
    const loose = await call('POST', '/v1/integrations/test', who.alice, {
      engine: 'connect',
      settings: masked,
    });
    expect(loose.statusCode).toBe(400);
    expect(await fingerprint()).toBe(before);

    // The same endpoint written another way keeps the secret; a new secret may go anywhere.
    const same = await call('PATCH', `/v1/integrations/${created.id}`, who.alice, {
      settings: { ...masked, connect_endpoint: 'https://CONNECT.example.com:443/api/' },
    });
    expect(same.statusCode, same.body).toBe(200);
    const entered = await call('PATCH', `/v1/integrations/${created.id}`, who.alice, {
      settings: { ...CONNECT, region: 'us-west-2', secret_access_key: 'ANOTHER-SECRET-0000' },
    });
    expect(entered.statusCode, entered.body).toBe(200);
    expect(IntegrationSchema.parse(entered.json()).settings).toMatchObject({
      region: 'us-west-2',
      secret_access_key: '****0000',
      connect_endpoint: '',
    });
  });

  it('tests saved and unsaved settings against the contact centre, in plain words, changing nothing', async () => {
    const gen = await made(who.alice, genesys('Tested Genesys', genesysFake()));
    const con = await made(who.alice, connect('Tested Connect', connectFake()));
    const before = await fingerprint();

    const saved = await call('POST', `/v1/integrations/${gen.id}/test`, who.alice);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ ok: true });
    expect(saved.json<{ detail: string }>().detail).toContain('Genesys Cloud accepted');
    const savedConnect = await call('POST', `/v1/integrations/${con.id}/test`, who.alice);
    expect(savedConnect.json()).toMatchObject({ ok: true });

    // A masked secret stands for the stored one: the test signs with it, and it reaches no answer.
    const unsaved = await call('POST', '/v1/integrations/test', who.alice, {
      id: con.id,
      engine: 'connect',
      settings: { ...connectFake(), secret_access_key: '****WXYZ' },
    });
    expect(unsaved.json()).toMatchObject({ ok: true });
    const wrongKey = await call('POST', '/v1/integrations/test', who.alice, {
      engine: 'connect',
      settings: { ...connectFake(), secret_access_key: 'not-the-key-0123456789' },
    });
    expect(wrongKey.json()).toMatchObject({ ok: false, code: 'handover/provider-refused' });
    const wrongDeployment = await call('POST', '/v1/integrations/test', who.alice, {
      engine: 'genesys',
      settings: genesysFake({ deployment_id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d' }),
    });
    expect(wrongDeployment.json()).toMatchObject({ ok: false });
    expect(wrongDeployment.json<{ message: string }>().message).not.toBe('');
    expect(await fingerprint()).toBe(before);
  });

  it('lets a bot hand over to a contact-centre integration of its own tenant and provider, and refuses deleting it (409)', async () => {
    const gen = await made(who.alice, genesys('Hand-over desk'));
    const con = await made(who.alice, connect('Connect desk'));
    const bobs = await made(who.bob, genesys('Bob desk'));
    const chatbot = await made(who.alice, {
      name: 'Engine only',
      engine: 'openai',
      settings: { base_url: 'https://llm.example.com/v1', model: 'm' },
    });
    const botId = await makeBot(who.alice, 'Desk bot', {
      enableliveagent: true,
      liveagent: 'genesys',
      liveagent_integration_id: gen.id,
    });
    // Saved without an integration, a bot with a contact centre is allowed and offers no hand-over.
    await makeBot(who.alice, 'No desk yet', { enableliveagent: true, liveagent: 'connect' });

    const before = await fingerprint();
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ liveagent_integration_id: bobs.id }, 'bot/unknown-liveagent-integration'],
      [
        { liveagent_integration_id: '00000000-0000-4000-8000-000000000000' },
        'bot/unknown-liveagent-integration',
      ],
      [{ liveagent_integration_id: chatbot.id }, 'bot/unknown-liveagent-integration'],
      [{ liveagent_integration_id: con.id }, 'bot/liveagent-integration-mismatch'],
      // Changing the provider alone re-checks the integration the bot keeps.
      [{ liveagent: 'connect' }, 'bot/liveagent-integration-mismatch'],
      [{ liveagent: 'inbox' }, 'bot/liveagent-integration-mismatch'],
      // A contact centre is no chatbot engine.
      [{ integration_id: gen.id }, 'bot/unknown-integration'],
    ];
    for (const [engines, code] of refusals) {
      const refused = await call('PATCH', `/v1/bots/${botId}`, who.alice, { config: { engines } });
      expect(refused.statusCode, JSON.stringify(engines)).toBe(400);
      expect(refused.json()).toMatchObject({ code });
    }
    const sneaky = await call('POST', '/v1/bots', who.alice, {
      name: 'Sneaky',
      config: { engines: { liveagent: 'genesys', liveagent_integration_id: bobs.id } },
    });
    expect(sneaky.json()).toMatchObject({ code: 'bot/unknown-liveagent-integration' });

    const inUse = await call('DELETE', `/v1/integrations/${gen.id}`, who.alice);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toMatchObject({ code: 'integration/in-use' });
    expect(inUse.json<{ message: string }>().message).toContain('Desk bot');
    expect(await fingerprint()).toBe(before);

    const read = IntegrationSchema.parse((await call('GET', `/v1/integrations/${gen.id}`, who.alice)).json());
    expect(read.bots).toEqual([{ id: botId, name: 'Desk bot', enabled: true }]);
    const listed = IntegrationListSchema.parse((await call('GET', '/v1/integrations', who.alice)).json());
    expect(listed.items.find((item) => item.id === gen.id)?.bots.map((bot) => bot.id)).toEqual([botId]);
    expect(listed.items.find((item) => item.id === con.id)?.bots).toEqual([]);
    expect(listed.items.find((item) => item.id === chatbot.id)?.bots).toEqual([]);

    // Provider and integration change together; the Genesys one is then free to go.
    const moved = await call('PATCH', `/v1/bots/${botId}`, who.alice, {
      config: { engines: { liveagent: 'connect', liveagent_integration_id: con.id } },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await call('DELETE', `/v1/integrations/${gen.id}`, who.alice)).statusCode).toBe(204);
  });

  it('refuses another tenant’s ids as unknown ones, and bad input with 4xx {code, message}, changing nothing', async () => {
    const mine = await made(who.alice, connect('Alice desk'));
    const gen = await made(who.alice, genesys('Alice Genesys'));
    const before = await fingerprint();
    for (const [method, url, payload] of [
      ['GET', `/v1/integrations/${mine.id}`, undefined],
      ['PATCH', `/v1/integrations/${mine.id}`, { name: 'Taken' }],
      ['DELETE', `/v1/integrations/${mine.id}`, undefined],
      ['POST', `/v1/integrations/${mine.id}/test`, undefined],
      [
        'POST',
        '/v1/integrations/test',
        { id: mine.id, engine: 'connect', settings: { ...CONNECT, secret_access_key: '****WXYZ' } },
      ],
    ] as const) {
      const response = await call(method, url, who.bob, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ code: 'not_found', message: 'Integration not found' });
    }
    expect(await contactCentreSettingsOf(t.database.db, await contactCentreBox(), ids.b, mine.id)).toBeNull();

    const cases: Array<[Method, string, unknown, number, string?]> = [
      ['POST', '/v1/integrations', { ...genesys('x'), kind: 'chatbot' }, 400],
      ['POST', '/v1/integrations', { ...connect('x'), kind: 'chatbot' }, 400],
      ['POST', '/v1/integrations', genesys('x', { server_url: 'https://webmessaging.example.com' }), 400],
      ['POST', '/v1/integrations', genesys('x', { deployment_id: 'nope' }), 400],
      ['POST', '/v1/integrations', genesys('x', { origin: 'https://shop.example.com/page' }), 400],
      ['POST', '/v1/integrations', connect('x', { region: 'Frankfurt' }), 400],
      ['POST', '/v1/integrations', connect('x', { access_key_id: 'lower-case' }), 400],
      ['POST', '/v1/integrations', connect('x', { secret_access_key: 'with space' }), 400],
      ['POST', '/v1/integrations', connect('x', { content_types: ['image/png'] }), 400],
      ['POST', '/v1/integrations', connect('x', { participant_endpoint: 'ftp://x.example.com' }), 400],
      ['POST', '/v1/integrations', { ...connect('x'), tenant_id: ids.b }, 400],
      ['POST', '/v1/integrations', connect('Alice Genesys'), 409, 'integration/name-taken'],
      ['PATCH', `/v1/integrations/${mine.id}`, { settings: GENESYS }, 400, 'integration/engine-mismatch'],
      ['PATCH', `/v1/integrations/${gen.id}`, { settings: CONNECT }, 400, 'integration/engine-mismatch'],
      ['GET', '/v1/integrations?kind=crm', undefined, 400],
      ['POST', '/v1/integrations/test', { engine: 'genesys', settings: { ...GENESYS, origin: 'nope' } }, 400],
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
    for (const body of bodies) expect(body).not.toContain(MARKER);
    for (const line of t.logs) expect(JSON.stringify(line)).not.toContain(MARKER);
  });
});

/** The box the app seals contact-centre secrets with (under the installation secret it keeps in the database). */
async function contactCentreBox() {
  return createSecretBox(await loadAuthSecret(t.database.db, t.env), 'ccaas-secret');
}
