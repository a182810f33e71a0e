import { generateKeyPairSync, randomUUID } from 'node:crypto';
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
import { serviceAccountKeyFile } from '../test/dialogflow-cx-server';
import { timeLimit } from '../test/time-limits';
import { makeSignedInUser, makeTenant, platformTenantId } from './accounts/accounts.fixtures';
import { basicCredential } from './files/files.test-support';

/*
 * The authorisation matrix of the integration routes for Dialogflow CX integrations (a chatbot engine whose
 * service-account key is sealed), and tenant isolation through every one.
 *
 * The routes come from the server's own route table: a route under /v1/integrations without a row fails, and so
 * does a row that names no route. Each row works on a Dialogflow CX integration; another tenant's ids must be
 * answered exactly like unknown ids and change nothing. The endpoint is a loopback address the guarded client
 * refuses at once, so a connection test answers `ok: false` in plain words without waiting on a network.
 */

const PREFIXES = ['/v1/integrations'];

const PRINCIPALS = [
  'administrator', // tenant A
  'user', // tenant A
  'agent', // tenant A
  'API credential', // tenant A's key and secret
  'user without omnirag', // tenant N: Dialogflow CX needs no subscription
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
  kept: string;
  spare: string;
}

interface RouteRow {
  request: (x: Resources, n: number) => { url: string; payload?: unknown };
  /** Statuses per principal (columns as PRINCIPALS) on the principal's own tenant's resources. */
  own: string;
  /** Statuses on another tenant's ids; unknown ids must be answered the same. */
  foreign?: string;
  shows?: (body: unknown, x: Resources) => boolean;
  /** The call consumes what it names: it gets a throwaway made just before. */
  fresh?: boolean;
  /** An allowed call that must change nothing. */
  pure?: boolean;
}

const PEM = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
/** A piece of the private key no answer or log line may contain. */
const SECRET_MARKER = PEM.split('\n')[2] ?? 'no marker';
const dialogflowSettings = () => ({
  service_account_key: serviceAccountKeyFile({
    email: 'matrix@shop-project-42.iam.gserviceaccount.com',
    projectId: 'shop-project-42',
    privateKeyPem: PEM,
    tokenUri: 'http://127.0.0.1:9/token',
    keyId: 'matrix-key-ABCD',
  }),
  agents: [
    {
      agentName: 'support',
      agentId: '1111aaaa-0000-4000-8000-000000000001',
      projectId: 'shop-project-42',
      location: 'europe-west1',
    },
  ],
  endpoint: 'http://127.0.0.1:9',
});
const failedTest = (body: unknown) => obj(body).ok === false && typeof obj(body).message === 'string';

// Agents read integrations but change none, nor test a connection.
//                   adm usr agt key noR ano bad
const READ = /*    */ '200 200 200 200 200 401 401';
const MISS = /*    */ '404 404 404 404 404 401 401';
const CHANGED = /* */ '200 200 403 200 200 401 401';
const MADE = /*    */ '201 201 403 201 201 401 401';
const GONE = /*    */ '204 204 403 204 204 401 401';
const NO_WRITE = /**/ '404 404 403 404 404 401 401';

const ROUTES: Record<string, RouteRow> = {
  'GET /v1/integrations': {
    request: () => ({ url: '/v1/integrations?engine=dialogflowcx' }),
    own: READ,
    shows: (body, x) => itemIds(body).includes(x.kept) && itemIds(body).includes(x.spare),
  },
  'POST /v1/integrations': {
    request: (_x, n) => ({
      url: '/v1/integrations',
      payload: { name: `Made ${n}`, engine: 'dialogflowcx', settings: dialogflowSettings() },
    }),
    own: MADE,
  },
  'POST /v1/integrations/test': {
    // A masked key stands for the stored key of the integration named by id: the caller's own only.
    request: (x) => ({
      url: '/v1/integrations/test',
      payload: {
        id: x.kept,
        engine: 'dialogflowcx',
        settings: { ...dialogflowSettings(), service_account_key: '****ABCD' },
      },
    }),
    own: CHANGED,
    foreign: NO_WRITE,
    pure: true,
    shows: failedTest,
  },
  'GET /v1/integrations/:p': {
    request: (x) => ({ url: `/v1/integrations/${x.kept}` }),
    own: READ,
    foreign: MISS,
    shows: (body, x) => obj(body).id === x.kept && obj(obj(body).settings).service_account_key === '****ABCD',
  },
  'PATCH /v1/integrations/:p': {
    request: (x, n) => ({
      url: `/v1/integrations/${x.kept}`,
      payload: {
        name: `Agent ${n}`,
        settings: { ...dialogflowSettings(), service_account_key: '****ABCD', environment: `env-${n}` },
      },
    }),
    own: CHANGED,
    foreign: NO_WRITE,
  },
  'DELETE /v1/integrations/:p': {
    request: (x) => ({ url: `/v1/integrations/${x.spare}` }),
    fresh: true,
    own: GONE,
    foreign: NO_WRITE,
  },
  'POST /v1/integrations/:p/test': {
    request: (x) => ({ url: `/v1/integrations/${x.spare}/test` }),
    own: CHANGED,
    foreign: NO_WRITE,
    pure: true,
    shows: failedTest,
  },
};

const TENANT_TABLES = ['integrations', 'bots'];
const FINGERPRINTED = [...TENANT_TABLES, 'audit_log'];

const WALK_CALLS =
  PRINCIPALS.length * Object.values(ROUTES).reduce((sum, row) => sum + (row.foreign ? 3 : 1), 0);
const WALK_LIMIT_MS = timeLimit({ calls: WALK_CALLS });

describe('Dialogflow CX integration authorisation matrix and tenant isolation', () => {
  let t: TestApp;
  const callers = {} as Record<PrincipalName, Caller>;
  const makers = {} as Record<TenantKey, Caller>;
  const resources = {} as Record<TenantKey, Resources>;
  const tenantIds: Record<TenantKey, string> = { A: 'dfm-a', B: 'dfm-b', N: 'dfm-n' };
  const answers: string[] = [];
  let served: ServedRoute[] = [];
  let n = 0;

  const fingerprint = () => tablesFingerprint(t, FINGERPRINTED);

  async function made(caller: Caller, payload: unknown): Promise<string> {
    const response = await injectAs(t, 'POST', '/v1/integrations', caller, payload);
    if (response.statusCode !== 201) throw new Error(`${response.statusCode} ${response.body}`);
    return response.json<{ id: string }>().id;
  }

  const dialogflowOf = (key: TenantKey, name: string) =>
    made(makers[key], { name, engine: 'dialogflowcx', settings: dialogflowSettings() });

  async function seed(key: TenantKey): Promise<Resources> {
    return {
      kept: await dialogflowOf(key, 'Dialogflow kept'),
      spare: await dialogflowOf(key, 'Dialogflow spare'),
    };
  }

  async function fresh(wanted: boolean | undefined, key: TenantKey, x: Resources): Promise<Resources> {
    if (!wanted) return x;
    n += 1;
    return { ...x, spare: await dialogflowOf(key, `Throwaway ${n}`) };
  }

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_MAX: '100000' } });
    const platform = await platformTenantId(t);
    await makeTenant(t, { tenantId: tenantIds.A, parent: platform, type: '3', domain: 'a.dfm.test' });
    await makeTenant(t, { tenantId: tenantIds.B, parent: platform, type: '3', domain: 'b.dfm.test' });
    await makeTenant(t, {
      tenantId: tenantIds.N,
      parent: platform,
      type: '3',
      domain: 'n.dfm.test',
      codes: ['casesummary'],
    });
    const cookie = async (tenant: string, email: string, role: string) =>
      (await makeSignedInUser(t, tenant, email, role)).cookie;
    const credential = await basicCredential(t, tenantIds.A);
    Object.assign(callers, {
      administrator: { cookie: await cookie(tenantIds.A, 'admin@a.dfm.test', 'administrator') },
      user: { cookie: await cookie(tenantIds.A, 'user@a.dfm.test', 'user') },
      agent: { cookie: await cookie(tenantIds.A, 'agent@a.dfm.test', 'agent') },
      'API credential': { authorization: credential },
      'user without omnirag': { cookie: await cookie(tenantIds.N, 'user@n.dfm.test', 'user') },
      anonymous: {},
      'wrong API credential': { authorization: withWrongSecret(credential) },
    } satisfies Record<PrincipalName, Caller>);
    makers.A = callers.administrator;
    makers.N = callers['user without omnirag'];
    makers.B = { cookie: await cookie(tenantIds.B, 'user@b.dfm.test', 'user') };
    for (const key of ['A', 'B', 'N'] as const) resources[key] = await seed(key);
    served = servedRoutes(t, underPrefixes(PREFIXES));
  });
  afterAll(async () => {
    await t.close();
  });

  it('has a row for every route under the prefix, and a route for every row', () => {
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
        answers.push(response.body);
        if (response.statusCode !== expectedStatus(row.own, column)) {
          wrong.push(`${key} as ${principal} (own): ${response.statusCode} ${response.body.slice(0, 160)}`);
        }
        const changedNothing = (await fingerprint()) === before;
        if ((response.statusCode >= 400 || method === 'GET' || row.pure) && !changedNothing) {
          wrong.push(`${key} as ${principal} (own): changed the database`);
        }
        if (response.statusCode < 300 && row.shows && !row.shows(response.json(), x)) {
          wrong.push(`${key} as ${principal} (own): does not show the caller's own resources`);
        }
        if (!row.foreign) return 1;
        n += 1;
        const other = await fresh(row.fresh, 'B', resources.B);
        const unknown: Resources = { kept: randomUUID(), spare: randomUUID() };
        const beforeForeign = await fingerprint();
        const foreignCall = row.request(other, n);
        const foreignResponse = await injectAs(t, method, foreignCall.url, caller, foreignCall.payload);
        const unknownCall = row.request(unknown, n);
        const unknownResponse = await injectAs(t, method, unknownCall.url, caller, unknownCall.payload);
        answers.push(foreignResponse.body, unknownResponse.body);
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
      expectNothingWrong('Dialogflow CX integration', walk, served.length, PRINCIPALS.length);
      expect(walk.attempts).toBe(WALK_CALLS);
      // No answer to anyone, and no log line, holds a piece of the private key.
      for (const body of answers) expect(body).not.toContain(SECRET_MARKER);
      for (const line of t.logs) expect(JSON.stringify(line)).not.toContain(SECRET_MARKER);
    },
    WALK_LIMIT_MS,
  );

  it('never shows a caller an id of another tenant’s row', async () => {
    for (const principal of ['administrator', 'user without omnirag'] as const) {
      const others = await idsOfOtherTenants(t, TENANT_TABLES, tenantIds[OWN_TENANT[principal]]);
      const body = (await injectAs(t, 'GET', '/v1/integrations?engine=dialogflowcx', callers[principal]))
        .body;
      for (const id of others) expect(body, principal).not.toContain(id);
    }
  });
});
