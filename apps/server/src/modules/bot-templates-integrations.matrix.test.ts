import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, injectAs, tablesFingerprint, type TestApp } from '../test/app';
import {
  expectedStatus,
  expectNothingWrong,
  expectOneColumnPerPrincipal,
  expectRowForEveryRoute,
  idsOfOtherTenants,
  itemIds,
  obj,
  type ServedRoute,
  servedRoutes,
  underPrefixes,
  walkMatrix,
  withWrongSecret,
} from '../test/authorisation-matrix';
import { defined } from '../test/defined';
import { timeLimit } from '../test/time-limits';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '../test/openai-compatible-server';
import { makeSignedInUser, makeTenant, platformTenantId } from './accounts/accounts.fixtures';
import { basicCredential } from './files/files.test-support';
import { TEST_FETCH_ALLOW } from '../test/loopback-fetch';

/*
 * The authorisation matrix of the bot template and integration routes, and tenant isolation through every one.
 *
 * The routes come from the server's own route table: a route under one of PREFIXES without a row in ROUTES
 * fails, and so does a row that names no route. Statuses are written out per principal for the caller's own
 * resources and for another tenant's; another tenant's ids must be answered exactly like unknown ids (same
 * status and body) and change nothing. "Test connection" talks to the local OpenAI-compatible server
 * (test/openai-compatible-server.ts), which speaks the OpenAI chat-completions protocol.
 */

const PREFIXES = ['/v1/bot-templates', '/v1/integrations'];

const PRINCIPALS = [
  'administrator', // tenant A
  'user', // tenant A
  'agent', // tenant A
  'API credential', // tenant A's key and secret
  'user without omnirag', // tenant N: templates and OpenAI-compatible integrations need no subscription
  'anonymous',
  'wrong API credential', // tenant A's key with a wrong secret
] as const;
type PrincipalName = (typeof PRINCIPALS)[number];
type TenantKey = 'A' | 'B' | 'N';

const OWN_TENANT: Record<PrincipalName, TenantKey> = {
  administrator: 'A',
  user: 'A',
  agent: 'A',
  'API credential': 'A',
  'user without omnirag': 'N',
  anonymous: 'A',
  'wrong API credential': 'A',
};

interface Resources {
  bot: string;
  template: string;
  integration: string;
}
type FreshKind = 'template' | 'integration';

interface RouteRow {
  request: (x: Resources, n: number) => { url: string; payload?: unknown };
  /** Statuses per principal (columns as PRINCIPALS) on the principal's own tenant's resources. */
  own: string;
  /** Statuses on another tenant's ids; unknown ids must be answered the same. */
  foreign?: string;
  /** An allowed read of own resources shows them. */
  shows?: (body: unknown, x: Resources) => boolean;
  /** The call consumes what it names: it gets a throwaway made just before. */
  fresh?: FreshKind;
  /** An allowed call that must change nothing. */
  pure?: boolean;
}

let server: OpenAICompatibleServer;
const openaiSettings = () => ({
  base_url: server.baseUrl,
  model: 'test-chat',
  api_key: 'sk-matrix-key-0123456789',
});

// Agents read templates and integrations but change neither, nor test a connection: any such call of theirs is
// refused before anything is looked up.
//                   adm usr agt key noR ano bad
const READ = /*    */ '200 200 200 200 200 401 401';
const MISS = /*    */ '404 404 404 404 404 401 401';
const CHANGED = /* */ '200 200 403 200 200 401 401';
const MADE = /*    */ '201 201 403 201 201 401 401';
const GONE = /*    */ '204 204 403 204 204 401 401';
const NO_WRITE = /**/ '404 404 403 404 404 401 401';
const BODY_MISS = /**/ '400 400 403 400 400 401 401';

const ROUTES: Record<string, RouteRow> = {
  'GET /v1/bot-templates': {
    request: () => ({ url: '/v1/bot-templates' }),
    own: READ,
    shows: (body, x) => itemIds(body).includes(x.template),
  },
  'POST /v1/bot-templates': {
    request: (x, n) => ({ url: '/v1/bot-templates', payload: { name: `Made ${n}`, bot_id: x.bot } }),
    own: MADE,
    foreign: BODY_MISS,
  },
  'GET /v1/bot-templates/:p': {
    request: (x) => ({ url: `/v1/bot-templates/${x.template}` }),
    own: READ,
    foreign: MISS,
    shows: (body, x) => obj(body).id === x.template,
  },
  'PATCH /v1/bot-templates/:p': {
    request: (x, n) => ({ url: `/v1/bot-templates/${x.template}`, payload: { description: `Changed ${n}` } }),
    own: CHANGED,
    foreign: NO_WRITE,
  },
  'DELETE /v1/bot-templates/:p': {
    request: (x) => ({ url: `/v1/bot-templates/${x.template}` }),
    fresh: 'template',
    own: GONE,
    foreign: NO_WRITE,
  },
  'POST /v1/bot-templates/:p/bots': {
    request: (x, n) => ({
      url: `/v1/bot-templates/${x.template}/bots`,
      payload: { name: `From template ${n}` },
    }),
    own: MADE,
    foreign: NO_WRITE,
  },
  'GET /v1/integrations': {
    request: () => ({ url: '/v1/integrations?kind=chatbot' }),
    own: READ,
    shows: (body, x) => itemIds(body).includes(x.integration),
  },
  'POST /v1/integrations': {
    request: (_x, n) => ({
      url: '/v1/integrations',
      payload: { name: `Made ${n}`, engine: 'openai', settings: openaiSettings() },
    }),
    own: MADE,
  },
  'POST /v1/integrations/test': {
    // A masked key stands for the stored key of the integration named by id: the caller's own only.
    request: (x) => ({
      url: '/v1/integrations/test',
      payload: {
        id: x.integration,
        engine: 'openai',
        settings: { ...openaiSettings(), api_key: '****6789' },
      },
    }),
    own: CHANGED,
    foreign: NO_WRITE,
    pure: true,
    shows: (body) => obj(body).ok === true,
  },
  'GET /v1/integrations/:p': {
    request: (x) => ({ url: `/v1/integrations/${x.integration}` }),
    own: READ,
    foreign: MISS,
    shows: (body, x) => obj(body).id === x.integration,
  },
  'PATCH /v1/integrations/:p': {
    request: (x, n) => ({ url: `/v1/integrations/${x.integration}`, payload: { name: `Engine ${n}` } }),
    own: CHANGED,
    foreign: NO_WRITE,
  },
  'DELETE /v1/integrations/:p': {
    request: (x) => ({ url: `/v1/integrations/${x.integration}` }),
    fresh: 'integration',
    own: GONE,
    foreign: NO_WRITE,
  },
  'POST /v1/integrations/:p/test': {
    request: (x) => ({ url: `/v1/integrations/${x.integration}/test` }),
    own: CHANGED,
    foreign: NO_WRITE,
    pure: true,
    shows: (body) => obj(body).ok === true,
  },
};

const TENANT_TABLES = ['bot_templates', 'integrations', 'bots'];
const FINGERPRINTED = [...TENANT_TABLES, 'audit_log'];

/** The walk's calls: each principal on each route with its own ids, and with another tenant's and unknown ids. */
const WALK_CALLS =
  PRINCIPALS.length * Object.values(ROUTES).reduce((sum, row) => sum + (row.foreign ? 3 : 1), 0);
const WALK_LIMIT_MS = timeLimit({ calls: WALK_CALLS });

describe('bot template and integration authorisation matrix and tenant isolation', () => {
  let t: TestApp;
  const callers = {} as Record<PrincipalName, Caller>;
  const makers = {} as Record<TenantKey, Caller>;
  const resources = {} as Record<TenantKey, Resources>;
  const tenantIds: Record<TenantKey, string> = { A: 'mx-a', B: 'mx-b', N: 'mx-n' };
  let served: ServedRoute[] = [];
  let n = 0;

  const fingerprint = () => tablesFingerprint(t, FINGERPRINTED);

  async function made(url: string, caller: Caller, payload: unknown): Promise<string> {
    const response = await injectAs(t, 'POST', url, caller, payload);
    if (response.statusCode !== 201) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json<{ id: string }>().id;
  }

  async function seed(key: TenantKey): Promise<Resources> {
    const maker = makers[key];
    const bot = await made('/v1/bots', maker, {
      name: 'Shop bot',
      config: { identity: { displayName: 'Shop' } },
    });
    return {
      bot,
      template: await made('/v1/bot-templates', maker, { name: 'Shop look', bot_id: bot }),
      integration: await made('/v1/integrations', maker, {
        name: 'Remote',
        engine: 'openai',
        settings: openaiSettings(),
      }),
    };
  }

  async function fresh(kind: FreshKind | undefined, key: TenantKey, x: Resources): Promise<Resources> {
    if (kind === undefined) return x;
    n += 1;
    const maker = makers[key];
    if (kind === 'template') {
      return {
        ...x,
        template: await made('/v1/bot-templates', maker, { name: `Throwaway ${n}`, bot_id: x.bot }),
      };
    }
    return {
      ...x,
      integration: await made('/v1/integrations', maker, {
        name: `Throwaway ${n}`,
        engine: 'openai',
        settings: openaiSettings(),
      }),
    };
  }

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_MAX: '100000', FETCH_ALLOW_ADDRESSES: TEST_FETCH_ALLOW } });
    server = await startOpenAICompatibleServer({ reply: 'OK' });
    const platform = await platformTenantId(t);
    await makeTenant(t, { tenantId: tenantIds.A, parent: platform, type: '3', domain: 'a.mx.test' });
    await makeTenant(t, { tenantId: tenantIds.B, parent: platform, type: '3', domain: 'b.mx.test' });
    await makeTenant(t, {
      tenantId: tenantIds.N,
      parent: platform,
      type: '3',
      domain: 'n.mx.test',
      codes: ['casesummary'],
    });
    const cookie = async (tenant: string, email: string, role: string) =>
      (await makeSignedInUser(t, tenant, email, role)).cookie;
    const credential = await basicCredential(t, tenantIds.A);
    Object.assign(callers, {
      administrator: { cookie: await cookie(tenantIds.A, 'admin@a.mx.test', 'administrator') },
      user: { cookie: await cookie(tenantIds.A, 'user@a.mx.test', 'user') },
      agent: { cookie: await cookie(tenantIds.A, 'agent@a.mx.test', 'agent') },
      'API credential': { authorization: credential },
      'user without omnirag': { cookie: await cookie(tenantIds.N, 'user@n.mx.test', 'user') },
      anonymous: {},
      'wrong API credential': { authorization: withWrongSecret(credential) },
    } satisfies Record<PrincipalName, Caller>);
    makers.A = callers.administrator;
    makers.N = callers['user without omnirag'];
    makers.B = { cookie: await cookie(tenantIds.B, 'user@b.mx.test', 'user') };
    for (const key of ['A', 'B', 'N'] as const) resources[key] = await seed(key);
    served = servedRoutes(t, underPrefixes(PREFIXES));
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });

  it('has a row for every route under the prefixes, and a route for every row', () => {
    expectRowForEveryRoute(served, ROUTES);
    expectOneColumnPerPrincipal(
      Object.values(ROUTES).flatMap((row) => [row.own, row.foreign]),
      PRINCIPALS,
    );
  });

  it(
    'answers each principal as the matrix says, and another tenant’s ids exactly like unknown ones',
    async () => {
      const walk = await walkMatrix(PRINCIPALS, served, async ({ principal, column, route, wrong }) => {
        const { key, method } = route;
        const row = defined(ROUTES[key]);
        const caller = callers[principal];
        const tenant = OWN_TENANT[principal];
        n += 1;
        const x = await fresh(row.fresh, tenant, resources[tenant]);
        const before = await fingerprint();
        const { url, payload } = row.request(x, n);
        const response = await injectAs(t, method, url, caller, payload);
        const expected = expectedStatus(row.own, column);
        if (response.statusCode !== expected) {
          wrong.push(`${key} as ${principal} (own): ${response.statusCode} ${response.body.slice(0, 160)}`);
        }
        const changedNothing = (await fingerprint()) === before;
        if ((response.statusCode >= 400 || method === 'GET' || row.pure) && !changedNothing) {
          wrong.push(`${key} as ${principal} (own): changed the database`);
        }
        if (response.statusCode === 200 && row.shows && !row.shows(response.json(), x)) {
          wrong.push(`${key} as ${principal} (own): does not show the caller's own resources`);
        }
        if (!row.foreign) return 1;
        n += 1;
        const other = await fresh(row.fresh, 'B', resources.B);
        const unknown: Resources = { bot: randomUUID(), template: randomUUID(), integration: randomUUID() };
        const beforeForeign = await fingerprint();
        const foreignCall = row.request(other, n);
        const foreignResponse = await injectAs(t, method, foreignCall.url, caller, foreignCall.payload);
        const unknownCall = row.request(unknown, n);
        const unknownResponse = await injectAs(t, method, unknownCall.url, caller, unknownCall.payload);
        if (foreignResponse.statusCode !== expectedStatus(row.foreign, column)) {
          wrong.push(
            `${key} as ${principal} (foreign): ${foreignResponse.statusCode} ${foreignResponse.body.slice(0, 160)}`,
          );
        }
        if (
          foreignResponse.statusCode !== unknownResponse.statusCode ||
          foreignResponse.body !== unknownResponse.body
        ) {
          wrong.push(`${key} as ${principal}: another tenant's ids answered unlike unknown ones`);
        }
        if ((await fingerprint()) !== beforeForeign) {
          wrong.push(`${key} as ${principal} (foreign): changed the database`);
        }
        return 3;
      });
      expectNothingWrong('bot template and integration', walk, served.length, PRINCIPALS.length);
      expect(walk.attempts).toBeGreaterThan(served.length * PRINCIPALS.length);
      // Its time limit counts these calls.
      expect(walk.attempts).toBe(WALK_CALLS);
    },
    WALK_LIMIT_MS,
  );

  it('never shows a caller an id of another tenant’s row', async () => {
    for (const principal of ['administrator', 'user without omnirag'] as const) {
      const others = await idsOfOtherTenants(t, TENANT_TABLES, tenantIds[OWN_TENANT[principal]]);
      for (const url of ['/v1/bot-templates', '/v1/integrations']) {
        const body = (await injectAs(t, 'GET', url, callers[principal])).body;
        for (const id of others) expect(body, `${url} as ${principal}`).not.toContain(id);
      }
    }
  });
});
