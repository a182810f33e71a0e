import { IntegrationListSchema, IntegrationSchema, SECRET_ENDPOINT_CHANGED } from '@omnibot/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import { type Caller, createTestApp, injectAs, tablesFingerprint, type TestApp } from '../../test/app';
import { type BedrockRuntimeServer, startBedrockRuntimeServer } from '../../test/bedrock-runtime-server';
import { type LexRuntimeServer, startLexRuntimeServer } from '../../test/lex-runtime-server';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';

/*
 * Lex and Bedrock integrations over HTTP (PGlite, or PostgreSQL with TEST_DATABASE_URL): sealed and masked secrets
 * that never reach an answer, a log line or the audit log, secrets bound to the runtime address, connection tests
 * against the local Lex V2 and Bedrock runtimes (test/lex-runtime-server.ts, test/bedrock-runtime-server.ts: the
 * services' REST-JSON APIs, SigV4 verified), tenancy and bad input.
 */

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

let t: TestApp;
let lex: LexRuntimeServer;
let bedrock: BedrockRuntimeServer;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'awsint-a', b: 'awsint-b', noRag: 'awsint-norag' };
const bodies: string[] = [];
let lexSettings: Record<string, unknown>;
let bedrockSettings: Record<string, unknown>;

async function call(method: Method, url: string, caller: Caller, payload?: unknown) {
  const response = await injectAs(t, method, url, caller, payload);
  bodies.push(response.body);
  return response;
}

async function made(body: Record<string, unknown>, caller: Caller = who.alice) {
  const response = await call('POST', '/v1/integrations', caller, body);
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

const messageOf = (response: { json: <T>() => T }) => response.json<{ message: string }>().message;
const fingerprint = () => tablesFingerprint(t, ['integrations', 'bots', 'audit_log']);
const masked = (secret: string) => `****${secret.slice(-4)}`;

beforeAll(async () => {
  t = await createTestApp({ env: { FETCH_ALLOW_ADDRESSES: '127.0.0.1' } });
  lex = await startLexRuntimeServer();
  bedrock = await startBedrockRuntimeServer();
  Object.assign(who, await makeOmniragTenants(t, ids));
  lexSettings = {
    region: lex.region,
    bot_id: lex.botId,
    bot_alias_id: lex.botAliasId,
    access_key_id: lex.keys.accessKeyId,
    secret_access_key: lex.keys.secretAccessKey,
    endpoint: lex.baseUrl,
  };
  bedrockSettings = {
    region: bedrock.region,
    model: bedrock.modelId,
    access_key_id: bedrock.keys.accessKeyId,
    secret_access_key: bedrock.keys.secretAccessKey,
    endpoint: bedrock.baseUrl,
  };
});
afterAll(async () => {
  await lex.close();
  await bedrock.close();
  // No secret in clear in any answer or log line of the whole file.
  const everything = [...bodies, JSON.stringify(t.logs)].join('\n');
  for (const secret of [lex.keys.secretAccessKey, bedrock.keys.secretAccessKey, bedrock.apiKey]) {
    expect(everything).not.toContain(secret);
  }
  await t.close();
});

describe('Lex and Bedrock integrations', () => {
  it('creates them with the defaults, seals and masks the secrets, and lists them as chatbot engines', async () => {
    const lexRow = await made({ name: 'Lex', engine: 'lex', settings: lexSettings });
    expect(lexRow).toMatchObject({
      kind: 'chatbot',
      engine: 'lex',
      settings: {
        region: 'us-west-2',
        locale_id: 'en_US',
        handover_intent: 'TalkToAgent',
        secret_access_key: masked(lex.keys.secretAccessKey),
      },
    });
    const bedrockRow = await made({
      name: 'Bedrock',
      engine: 'bedrock',
      settings: { ...bedrockSettings, max_tokens: undefined, temperature: undefined },
    });
    expect(bedrockRow.settings).toMatchObject({
      auth: 'sigv4',
      max_tokens: 1024,
      temperature: 0.7,
      secret_access_key: masked(bedrock.keys.secretAccessKey),
      api_key: '',
    });
    for (const row of [lexRow, bedrockRow]) {
      const stored = await storedSettings(row.id);
      expect(stored).not.toContain(lex.keys.secretAccessKey);
      expect(stored).not.toContain(bedrock.keys.secretAccessKey);
    }
    const list = await call('GET', '/v1/integrations?kind=chatbot', who.alice);
    const engines = IntegrationListSchema.parse(list.json()).items.map((item) => item.engine);
    expect(engines).toEqual(expect.arrayContaining(['lex', 'bedrock']));
    const audit = rowsOf<{ details: string }>(
      await t.database.db.execute(sql`select details::text as details from audit_log`),
    );
    expect(JSON.stringify(audit)).not.toContain(lex.keys.secretAccessKey);
  });

  it('tests saved and unsaved settings with a real call, and says in plain words what failed', async () => {
    const lexRow = await made({ name: 'Lex tested', engine: 'lex', settings: lexSettings });
    const saved = await call('POST', `/v1/integrations/${lexRow.id}/test`, who.alice);
    expect(saved.json<{ ok: boolean; detail: string }>().detail).toMatch(/^The Lex bot FLOWERBOT1/u);
    // The probe's throwaway session is deleted after.
    expect(lex.requests.at(-1)?.method).toBe('DELETE');
    expect(lex.sessions.size).toBe(0);

    const wrongSecret = await call('POST', '/v1/integrations/test', who.alice, {
      engine: 'lex',
      settings: { ...lexSettings, secret_access_key: 'wrong-lex-secret-000000000000000000000000' },
    });
    expect(wrongSecret.json()).toMatchObject({ ok: false, code: 'provider/unauthorized' });
    expect(messageOf(wrongSecret)).toContain(
      'InvalidSignatureException, the request signature does not match',
    );
    const otherBot = await call('POST', '/v1/integrations/test', who.alice, {
      engine: 'lex',
      settings: { ...lexSettings, bot_id: 'OTHERBOT00' },
    });
    expect(otherBot.json()).toMatchObject({ ok: false });
    expect(messageOf(otherBot)).toContain(
      'ResourceNotFoundException, the bot, alias, locale or model was not found',
    );
    const masks = await call('POST', '/v1/integrations/test', who.alice, {
      id: lexRow.id,
      engine: 'lex',
      settings: { ...lexSettings, secret_access_key: masked(lex.keys.secretAccessKey) },
    });
    expect(masks.json()).toMatchObject({ ok: true });

    const bedrockRow = await made({ name: 'Bedrock tested', engine: 'bedrock', settings: bedrockSettings });
    const tried = await call('POST', `/v1/integrations/${bedrockRow.id}/test`, who.alice);
    expect(tried.json()).toMatchObject({ ok: true });
    expect(bedrock.requests.at(-1)?.body?.inferenceConfig?.maxTokens).toBe(1);
    const byKey = await call('POST', '/v1/integrations/test', who.alice, {
      engine: 'bedrock',
      settings: { ...bedrockSettings, auth: 'api_key', api_key: bedrock.apiKey },
    });
    expect(byKey.json()).toMatchObject({ ok: true });
    bedrock.failNext(429);
    const busy = await call('POST', `/v1/integrations/${bedrockRow.id}/test`, who.alice);
    expect(busy.json()).toMatchObject({ ok: false, code: 'provider/rate-limited' });
    const unknownModel = await call('POST', '/v1/integrations/test', who.alice, {
      engine: 'bedrock',
      settings: { ...bedrockSettings, model: 'amazon.titan-text-express-v1' },
    });
    expect(unknownModel.json()).toMatchObject({ ok: false });
    expect(messageOf(unknownModel)).toContain('HTTP 404');
    // An address the guarded client refuses is a failed test, in plain words.
    const blocked = await call('POST', '/v1/integrations/test', who.alice, {
      engine: 'bedrock',
      settings: { ...bedrockSettings, endpoint: 'http://169.254.169.254' },
    });
    expect(blocked.json()).toMatchObject({ ok: false, code: 'provider/unreachable' });
  });

  it('keeps a masked secret only while the region and the endpoint stay where it was entered for', async () => {
    const row = await made({ name: 'Lex bound', engine: 'lex', settings: lexSettings });
    const keep = { ...lexSettings, secret_access_key: masked(lex.keys.secretAccessKey) };
    const renamed = await call('PATCH', `/v1/integrations/${row.id}`, who.alice, {
      settings: { ...keep, locale_id: 'en_GB' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await storedSettings(row.id)).toContain('en_GB');
    const before = await fingerprint();
    for (const moved of [{ endpoint: 'http://127.0.0.1:9' }, { region: 'eu-west-1', endpoint: '' }]) {
      for (const [method, url, body] of [
        ['PATCH', `/v1/integrations/${row.id}`, { settings: { ...keep, ...moved } }],
        ['POST', '/v1/integrations/test', { id: row.id, engine: 'lex', settings: { ...keep, ...moved } }],
      ] as const) {
        const refused = await call(method, url, who.alice, body);
        expect(refused.statusCode, refused.body).toBe(400);
        expect(refused.json()).toMatchObject({ code: SECRET_ENDPOINT_CHANGED });
      }
    }
    expect(await fingerprint()).toBe(before);
    const bedrockRow = await made({
      name: 'Bedrock bound',
      engine: 'bedrock',
      settings: { ...bedrockSettings, auth: 'api_key', api_key: bedrock.apiKey },
    });
    const movedKey = await call('PATCH', `/v1/integrations/${bedrockRow.id}`, who.alice, {
      settings: {
        ...bedrockSettings,
        auth: 'api_key',
        api_key: masked(bedrock.apiKey),
        secret_access_key: masked(bedrock.keys.secretAccessKey),
        endpoint: 'https://bedrock-runtime.example.com',
      },
    });
    expect(movedKey.statusCode).toBe(400);
    expect(movedKey.json()).toMatchObject({ code: SECRET_ENDPOINT_CHANGED });
  });

  it('refuses bad settings, another engine and other tenants, storing nothing', async () => {
    const row = await made({ name: 'Lex guarded', engine: 'lex', settings: lexSettings });
    const before = await fingerprint();
    const bad: Record<string, unknown>[] = [
      { name: 'x', engine: 'lex', settings: { ...lexSettings, bot_id: 'short' } },
      { name: 'x', engine: 'lex', settings: { ...lexSettings, region: 'mars-1' } },
      { name: 'x', engine: 'lex', settings: { ...lexSettings, locale_id: 'english' } },
      { name: 'x', engine: 'lex', settings: { ...lexSettings, secret_access_key: '' } },
      { name: 'x', engine: 'lex', settings: { ...lexSettings, endpoint: 'http://user:pw@127.0.0.1' } },
      { name: 'x', engine: 'lex', settings: { ...lexSettings, handover_intent: 'Talk to agent!' } },
      { name: 'x', engine: 'lex', settings: { ...lexSettings, secret_access_key: masked('abcdefgh') } },
      { name: 'x', engine: 'bedrock', settings: { ...bedrockSettings, access_key_id: '' } },
      { name: 'x', engine: 'bedrock', settings: { ...bedrockSettings, auth: 'api_key' } },
      { name: 'x', engine: 'bedrock', settings: { ...bedrockSettings, temperature: 1.5 } },
      { name: 'x', engine: 'bedrock', settings: { ...bedrockSettings, model: 'no spaces allowed' } },
      { name: 'x', engine: 'bedrock', kind: 'ccaas', settings: bedrockSettings },
    ];
    for (const body of bad) {
      const response = await call('POST', '/v1/integrations', who.alice, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ code: string }>().code).toBeTruthy();
    }
    const mismatch = await call('PATCH', `/v1/integrations/${row.id}`, who.alice, {
      settings: bedrockSettings,
    });
    expect(mismatch.json()).toMatchObject({ code: 'integration/engine-mismatch' });
    // Another tenant sees nothing of it and cannot borrow its secret.
    expect((await call('GET', `/v1/integrations/${row.id}`, who.bob)).statusCode).toBe(404);
    const borrowed = await call('POST', '/v1/integrations/test', who.bob, {
      id: row.id,
      engine: 'lex',
      settings: { ...lexSettings, secret_access_key: masked(lex.keys.secretAccessKey) },
    });
    expect(borrowed.statusCode).toBe(404);
    expect(await fingerprint()).toBe(before);
  });
});
