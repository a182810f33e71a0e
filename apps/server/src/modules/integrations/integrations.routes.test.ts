import {
  BotSchema,
  IntegrationListSchema,
  IntegrationSchema,
  IntegrationTestResultSchema,
} from '@omnibot/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import { indexes } from '../../db/schema';
import { type Caller, createTestApp, injectAs, tablesFingerprint, type TestApp } from '../../test/app';
import {
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
} from '../../test/openai-compatible-server';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { makeIndex, makeKnowledge } from '../rag/rags.test-support';
import { TEST_FETCH_ALLOW } from '../../test/loopback-fetch';

/*
 * Chatbot-engine integrations over HTTP, on PGlite (and PostgreSQL with TEST_DATABASE_URL). "Test connection"
 * talks to the local OpenAI-compatible server (test/openai-compatible-server.ts), which speaks the OpenAI
 * chat-completions protocol and can be switched to refuse the key or fail.
 */

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A key no response, log line, stored row or audit entry may ever contain in clear. */
const MARKER = 'PLAINTEXT-INTEGRATION-KEY-5d1e';
const KEY = `${MARKER}-wxyz`;

let t: TestApp;
let server: OpenAICompatibleServer;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'integ-a', b: 'integ-b', noRag: 'integ-norag' };
const refs = { aRag: '', bRag: '', aIndex: '' };
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

const openai = (name: string, settings: Record<string, unknown> = {}) => ({
  name,
  engine: 'openai',
  settings: { base_url: server.baseUrl, model: 'test-chat', api_key: KEY, ...settings },
});

const fingerprint = () => tablesFingerprint(t, ['integrations', 'bots', 'audit_log']);

async function makeRag(caller: Caller, name: string, indexId: string) {
  const response = await call('POST', '/v1/rags', caller, { name, index_id: indexId });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}

beforeAll(async () => {
  t = await createTestApp({ env: { FETCH_ALLOW_ADDRESSES: TEST_FETCH_ALLOW } });
  server = await startOpenAICompatibleServer({ reply: 'OK' });
  Object.assign(who, await makeOmniragTenants(t, ids));
  const aKb = await makeKnowledge(t, who.alice, 'Help', []);
  const bKb = await makeKnowledge(t, who.bob, 'Help', []);
  refs.aIndex = await makeIndex(t, ids.a, 'Main', [aKb.id]);
  refs.aRag = await makeRag(who.alice, 'Support', refs.aIndex);
  refs.bRag = await makeRag(who.bob, 'Support', await makeIndex(t, ids.b, 'Main', [bKb.id]));
});
afterAll(async () => {
  await server.close();
  await t.close();
});

describe('integrations', () => {
  it('creates, lists (filtered), reads, renames and deletes, with audit rows', async () => {
    const builtin = await made(who.alice, {
      name: 'Help desk RAG',
      engine: 'builtin',
      settings: { rag_id: refs.aRag },
    });
    expect(builtin).toMatchObject({
      kind: 'chatbot',
      engine: 'builtin',
      settings: { rag_id: refs.aRag },
      bots: [],
    });
    const remote = await made(who.alice, openai('Remote model'));
    expect(remote.settings).toEqual({
      base_url: server.baseUrl,
      model: 'test-chat',
      api_key: '****wxyz',
      max_tokens: 1024,
      temperature: 0.7,
    });

    const all = IntegrationListSchema.parse((await call('GET', '/v1/integrations', who.alice)).json());
    expect(all.items.map((item) => item.name)).toEqual(['Help desk RAG', 'Remote model']);
    const onlyOpenAi = IntegrationListSchema.parse(
      (await call('GET', '/v1/integrations?kind=chatbot&engine=openai', who.alice)).json(),
    );
    expect(onlyOpenAi.items.map((item) => item.id)).toEqual([remote.id]);

    const renamed = await call('PATCH', `/v1/integrations/${builtin.id}`, who.alice, { name: 'Support RAG' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(IntegrationSchema.parse(renamed.json()).name).toBe('Support RAG');
    const read = IntegrationSchema.parse(
      (await call('GET', `/v1/integrations/${builtin.id}`, who.alice)).json(),
    );
    expect(read.name).toBe('Support RAG');

    expect((await call('DELETE', `/v1/integrations/${builtin.id}`, who.alice)).statusCode).toBe(204);
    expect((await call('GET', `/v1/integrations/${builtin.id}`, who.alice)).statusCode).toBe(404);
    const actions = rowsOf<{ action: string }>(
      await t.database.db.execute(
        sql`select action from audit_log where target = ${builtin.id} order by created_at, action`,
      ),
    ).map((row) => row.action);
    expect(actions).toEqual(['integration.create', 'integration.update', 'integration.delete']);
    expect((await call('DELETE', `/v1/integrations/${remote.id}`, who.alice)).statusCode).toBe(204);
  });

  it('seals the API key, masks it on read, keeps it when sent back masked, and never returns or logs it', async () => {
    const created = await made(who.alice, openai('Sealed'));
    const storedText = async () =>
      rowsOf<{ settings: string }>(
        await t.database.db.execute(
          sql`select settings::text as settings from integrations where id = ${created.id}`,
        ),
      )[0]?.settings ?? '';
    const sealed = await storedText();
    expect(sealed).not.toContain(MARKER);
    expect(sealed).not.toContain('wxyz');

    // Sent back as read: the stored key stays, and the server still calls the provider with it.
    const kept = await call('PATCH', `/v1/integrations/${created.id}`, who.alice, {
      settings: { ...created.settings, model: 'test-chat-2' },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(IntegrationSchema.parse(kept.json()).settings).toMatchObject({
      model: 'test-chat-2',
      api_key: '****wxyz',
    });
    expect(await storedText()).toContain('"api_key"');
    const tested = await call('POST', `/v1/integrations/${created.id}/test`, who.alice);
    expect(IntegrationTestResultSchema.parse(tested.json())).toMatchObject({ ok: true });
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);

    // '' removes the key; no key is then sent.
    const cleared = await call('PATCH', `/v1/integrations/${created.id}`, who.alice, {
      settings: { base_url: server.baseUrl, model: 'test-chat', api_key: '' },
    });
    expect(IntegrationSchema.parse(cleared.json()).settings).toMatchObject({ api_key: '' });
    await call('POST', `/v1/integrations/${created.id}/test`, who.alice);
    expect(server.requests.at(-1)?.headers.authorization).toBeUndefined();

    // A masked key is refused where there is nothing stored to keep.
    const before = await fingerprint();
    const masked = await call(
      'POST',
      '/v1/integrations',
      who.alice,
      openai('Masked', { api_key: '****wxyz' }),
    );
    expect(masked.statusCode).toBe(400);
    expect(await fingerprint()).toBe(before);

    for (const body of bodies) expect(body).not.toContain(MARKER);
    for (const line of t.logs) expect(JSON.stringify(line)).not.toContain(MARKER);
    const audit = rowsOf<{ details: string }>(
      await t.database.db.execute(sql`select coalesce(details::text, '') as details from audit_log`),
    );
    for (const entry of audit) expect(entry.details).not.toContain(MARKER);
  });

  it('tests a saved integration and unsaved settings against the local OpenAI-compatible server', async () => {
    const created = await made(who.alice, openai('Tested'));
    const ok = IntegrationTestResultSchema.parse(
      (await call('POST', `/v1/integrations/${created.id}/test`, who.alice)).json(),
    );
    expect(ok).toMatchObject({ ok: true, detail: expect.stringContaining('test-chat') as unknown });
    const chat = server.requests.at(-1);
    expect(chat?.path).toBe('/chat/completions');
    expect((chat?.body as { model: string }).model).toBe('test-chat');

    server.failure = 'unauthorized';
    try {
      const refused = IntegrationTestResultSchema.parse(
        (await call('POST', `/v1/integrations/${created.id}/test`, who.alice)).json(),
      );
      expect(refused).toEqual({
        ok: false,
        code: 'provider/unauthorized',
        message: 'The provider refused the API key.',
      });
      const unsaved = IntegrationTestResultSchema.parse(
        (
          await call('POST', '/v1/integrations/test', who.alice, {
            engine: 'openai',
            settings: openai('x').settings,
          })
        ).json(),
      );
      expect(unsaved).toMatchObject({ ok: false, code: 'provider/unauthorized' });
    } finally {
      server.failure = 'none';
    }

    // Port 9 belongs to another protocol: the guarded client refuses it before connecting, naming its rule.
    const unreachable = IntegrationTestResultSchema.parse(
      (
        await call('POST', '/v1/integrations/test', who.alice, {
          engine: 'openai',
          settings: { base_url: 'http://127.0.0.1:9/v1', model: 'm' },
        })
      ).json(),
    );
    expect(unreachable).toEqual({
      ok: false,
      code: 'provider/unreachable',
      message: 'Refused by the port rule: port 9 belongs to another protocol and is not fetched over http.',
    });

    // A masked key stands for the stored key of the integration named by id (the caller's own only).
    const withId = await call('POST', '/v1/integrations/test', who.alice, {
      id: created.id,
      engine: 'openai',
      settings: created.settings,
    });
    expect(IntegrationTestResultSchema.parse(withId.json())).toMatchObject({ ok: true });
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEY}`);
    const stolen = await call('POST', '/v1/integrations/test', who.bob, {
      id: created.id,
      engine: 'openai',
      settings: created.settings,
    });
    expect(stolen.statusCode).toBe(404);
    const noId = await call('POST', '/v1/integrations/test', who.alice, {
      engine: 'openai',
      settings: created.settings,
    });
    expect(noId.statusCode).toBe(400);
  });

  it('keeps a stored key only for the endpoint it was entered for: a new address needs the key again', async () => {
    const collector = await startOpenAICompatibleServer({ reply: 'collected' });
    try {
      const stored = await made(who.alice, openai('Bound key'));
      const masked = stored.settings as Record<string, unknown>;
      const before = await fingerprint();
      // Another host, another port, another path prefix or another scheme: all refused, nothing sent or stored.
      const moved = [
        collector.baseUrl,
        server.baseUrl.replace('/v1', '/v2'),
        server.baseUrl.replace('http:', 'https:'),
        `${server.baseUrl}/proxy`,
      ];
      for (const base_url of moved) {
        const tested = await call('POST', '/v1/integrations/test', who.alice, {
          id: stored.id,
          engine: 'openai',
          settings: { ...masked, base_url },
        });
        expect([tested.statusCode, tested.json()], base_url).toEqual([
          400,
          {
            code: 'secret/endpoint-changed',
            message:
              'The API key must be entered again when the URL changes: a stored key is only sent to the address it was entered for.',
          },
        ]);
        const patched = await call('PATCH', `/v1/integrations/${stored.id}`, who.alice, {
          settings: { ...masked, base_url },
        });
        expect(patched.statusCode, base_url).toBe(400);
        expect(patched.json<{ code: string }>().code).toBe('secret/endpoint-changed');
      }
      expect(await fingerprint()).toEqual(before);
      expect(collector.requests).toHaveLength(0);

      // The same endpoint written another way keeps the key.
      const same = `${server.baseUrl.replace('127.0.0.1', '127.0.0.1.')}/`;
      const rewritten = await call('PATCH', `/v1/integrations/${stored.id}`, who.alice, {
        settings: { ...masked, base_url: same },
      });
      expect(rewritten.statusCode, rewritten.body).toBe(200);
      server.requests.length = 0;
      const kept = await call('POST', `/v1/integrations/${stored.id}/test`, who.alice);
      expect(kept.json<{ ok: boolean }>().ok).toBe(true);
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);

      // With the key entered again, the new address is taken and gets only the new key.
      const moving = await call('PATCH', `/v1/integrations/${stored.id}`, who.alice, {
        settings: { ...masked, base_url: collector.baseUrl, api_key: 'sk-entered-again-for-the-collector' },
      });
      expect(moving.statusCode, moving.body).toBe(200);
      expect(
        (await call('POST', `/v1/integrations/${stored.id}/test`, who.alice)).json<{ ok: boolean }>().ok,
      ).toBe(true);
      expect(collector.requests.map((request) => request.headers.authorization)).toEqual([
        'Bearer sk-entered-again-for-the-collector',
      ]);
      // Removing the key and moving is fine too: there is nothing left to follow the address.
      const removed = await call('PATCH', `/v1/integrations/${stored.id}`, who.alice, {
        settings: { ...masked, base_url: server.baseUrl, api_key: '' },
      });
      expect(removed.statusCode, removed.body).toBe(200);
      const unkeyed = await call('PATCH', `/v1/integrations/${stored.id}`, who.alice, {
        settings: { ...masked, base_url: collector.baseUrl, api_key: '****' },
      });
      expect(unkeyed.statusCode, unkeyed.body).toBe(200);
    } finally {
      await collector.close();
    }
  });

  it('tests a builtin integration: the RAG must be the tenant’s and its index ready', async () => {
    const created = await made(who.alice, {
      name: 'Builtin tested',
      engine: 'builtin',
      settings: { rag_id: refs.aRag },
    });
    const ok = IntegrationTestResultSchema.parse(
      (await call('POST', `/v1/integrations/${created.id}/test`, who.alice)).json(),
    );
    expect(ok).toMatchObject({ ok: true, detail: 'Support answers from the keyword index Main.' });

    await t.database.db
      .update(indexes)
      .set({ mode: 'vector', embeddingState: 'embedding' })
      .where(eq(indexes.id, refs.aIndex));
    try {
      const pending = IntegrationTestResultSchema.parse(
        (await call('POST', `/v1/integrations/${created.id}/test`, who.alice)).json(),
      );
      expect(pending).toMatchObject({ ok: false, code: 'integration/rag-not-ready' });
    } finally {
      await t.database.db
        .update(indexes)
        .set({ mode: 'keyword', embeddingState: 'none' })
        .where(eq(indexes.id, refs.aIndex));
    }

    const foreign = IntegrationTestResultSchema.parse(
      (
        await call('POST', '/v1/integrations/test', who.alice, {
          engine: 'builtin',
          settings: { rag_id: refs.bRag },
        })
      ).json(),
    );
    const unknown = IntegrationTestResultSchema.parse(
      (
        await call('POST', '/v1/integrations/test', who.alice, {
          engine: 'builtin',
          settings: { rag_id: '00000000-0000-4000-8000-000000000000' },
        })
      ).json(),
    );
    expect(foreign).toEqual(unknown);
    expect(foreign).toMatchObject({ ok: false, code: 'integration/unknown-rag' });
  });

  it('refuses another tenant’s ids as unknown ones and changes nothing', async () => {
    const mine = await made(who.alice, openai('Alice only'));
    const before = await fingerprint();
    for (const [method, url, payload] of [
      ['GET', `/v1/integrations/${mine.id}`, undefined],
      ['PATCH', `/v1/integrations/${mine.id}`, { name: 'Taken' }],
      ['DELETE', `/v1/integrations/${mine.id}`, undefined],
      ['POST', `/v1/integrations/${mine.id}/test`, undefined],
    ] as const) {
      const response = await call(method, url, who.bob, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ code: 'not_found', message: 'Integration not found' });
    }
    const list = IntegrationListSchema.parse((await call('GET', '/v1/integrations', who.bob)).json());
    expect(list.items.map((item) => item.id)).not.toContain(mine.id);

    // A builtin integration over another tenant's RAG is refused like an unknown RAG.
    const foreignRag = await call('POST', '/v1/integrations', who.alice, {
      name: 'Foreign',
      engine: 'builtin',
      settings: { rag_id: refs.bRag },
    });
    expect(foreignRag.statusCode).toBe(400);
    expect(foreignRag.json()).toMatchObject({ code: 'integration/unknown-rag' });
    // The builtin engine needs omnirag.
    const noRag = await call('POST', '/v1/integrations', who.noRag, {
      name: 'No RAG',
      engine: 'builtin',
      settings: { rag_id: refs.aRag },
    });
    expect(noRag.statusCode).toBe(403);
    expect(await fingerprint()).toBe(before);
  });

  it('refuses bad input with 4xx {code, message} and stores nothing', async () => {
    const existing = await made(who.alice, openai('Existing'));
    const builtin = await made(who.alice, {
      name: 'Existing builtin',
      engine: 'builtin',
      settings: { rag_id: refs.aRag },
    });
    const before = await fingerprint();
    const cases: Array<[Method, string, unknown, number, string?]> = [
      ['POST', '/v1/integrations', { name: 'x', engine: 'eliza', settings: {} }, 400],
      ['POST', '/v1/integrations', { name: '', engine: 'builtin', settings: { rag_id: refs.aRag } }, 400],
      ['POST', '/v1/integrations', { name: 'x', engine: 'builtin', settings: { rag_id: 'nope' } }, 400],
      [
        'POST',
        '/v1/integrations',
        { name: 'x', kind: 'ccaas', engine: 'builtin', settings: { rag_id: refs.aRag } },
        400,
      ],
      ['POST', '/v1/integrations', openai('x', { base_url: 'ftp://example.com' }), 400],
      ['POST', '/v1/integrations', openai('x', { base_url: 'http://user:pw@example.com/v1' }), 400],
      ['POST', '/v1/integrations', openai('x', { temperature: 3 }), 400],
      ['POST', '/v1/integrations', openai('x', { max_tokens: 0 }), 400],
      ['POST', '/v1/integrations', openai('x', { api_key: 'has space' }), 400],
      ['POST', '/v1/integrations', { ...openai('x'), tenant_id: ids.b }, 400],
      ['POST', '/v1/integrations', openai('Existing'), 409, 'integration/name-taken'],
      [
        'PATCH',
        `/v1/integrations/${existing.id}`,
        { name: 'Existing builtin' },
        409,
        'integration/name-taken',
      ],
      [
        'PATCH',
        `/v1/integrations/${existing.id}`,
        { settings: { rag_id: refs.aRag } },
        400,
        'integration/engine-mismatch',
      ],
      [
        'PATCH',
        `/v1/integrations/${builtin.id}`,
        { settings: openai('x').settings },
        400,
        'integration/engine-mismatch',
      ],
      [
        'PATCH',
        `/v1/integrations/${builtin.id}`,
        { settings: { rag_id: refs.bRag } },
        400,
        'integration/unknown-rag',
      ],
      ['PATCH', '/v1/integrations/not-an-id', { name: 'x' }, 400],
      ['GET', '/v1/integrations?engine=eliza', undefined, 400],
      [
        'POST',
        '/v1/integrations/test',
        { engine: 'openai', settings: { base_url: 'javascript:alert(1)', model: 'm' } },
        400,
      ],
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

  it('lets a bot point at an integration of its tenant only, lists the bots using it, and refuses deleting it (409)', async () => {
    const integration = await made(who.alice, openai('Used'));
    const bobs = await made(who.bob, openai('Bob model'));
    const bot = await call('POST', '/v1/bots', who.alice, {
      name: 'Integrated',
      config: { engines: { botEngine: 'openai', integration_id: integration.id } },
    });
    expect(bot.statusCode, bot.body).toBe(201);
    const botId = BotSchema.parse(bot.json()).id;

    const before = await fingerprint();
    for (const integrationId of [bobs.id, '00000000-0000-4000-8000-000000000000']) {
      const refused = await call('PATCH', `/v1/bots/${botId}`, who.alice, {
        config: { engines: { integration_id: integrationId } },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 'bot/unknown-integration' });
    }
    const refusedCreate = await call('POST', '/v1/bots', who.alice, {
      name: 'Sneaky',
      config: { engines: { integration_id: bobs.id } },
    });
    expect(refusedCreate.json()).toMatchObject({ code: 'bot/unknown-integration' });

    const inUse = await call('DELETE', `/v1/integrations/${integration.id}`, who.alice);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toMatchObject({ code: 'integration/in-use' });
    expect(inUse.json<{ message: string }>().message).toContain('Integrated');
    expect(await fingerprint()).toBe(before);

    const read = IntegrationSchema.parse(
      (await call('GET', `/v1/integrations/${integration.id}`, who.alice)).json(),
    );
    expect(read.bots).toEqual([{ id: botId, name: 'Integrated', enabled: true }]);
    const listed = IntegrationListSchema.parse((await call('GET', '/v1/integrations', who.alice)).json());
    expect(listed.items.find((item) => item.id === integration.id)?.bots.map((b) => b.id)).toEqual([botId]);

    const released = await call('PATCH', `/v1/bots/${botId}`, who.alice, {
      config: { engines: { integration_id: null } },
    });
    expect(released.statusCode, released.body).toBe(200);
    expect((await call('DELETE', `/v1/integrations/${integration.id}`, who.alice)).statusCode).toBe(204);
  });
});
