import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseSummaryConfigBots, caseSummaryConfigs } from '../../db/schema';
import {
  type Caller,
  createTestApp,
  injectAs,
  sessionCookie,
  TEST_ADMIN_PASSWORD,
  type TestApp,
} from '../../test/app';
import {
  expectedStatus,
  expectNothingWrong,
  expectOneColumnPerPrincipal,
  expectRowForEveryRoute,
  idsOfOtherTenants,
  isKnownRefusal,
  type Method,
  type ServedRoute,
  servedRoutes,
  stringsIn,
  underPrefixes,
  walkMatrix,
  withWrongSecret,
} from '../../test/authorisation-matrix';
import { defined } from '../../test/defined';
import { timeLimit } from '../../test/time-limits';
import { makeSignedInUser, makeTenant, platformTenantId } from '../accounts/accounts.fixtures';
import { basicCredential } from '../files/files.test-support';

/*
 * The authorisation matrix of the case-summary configuration routes. The routes come from the server's route table
 * (a route under /v1/case-summary-configs without a row fails). Statuses are written out by hand, one column per
 * principal, for the caller's own configuration and bot, and for another tenant's; another tenant's ids answer
 * exactly like unknown ones, and no answer shows another tenant's ids.
 */

const PRINCIPALS = [
  'administrator', // tenant A (casesummary)
  'user', // tenant A
  'agent', // tenant A: reads configuration, changes none
  'API credential', // tenant A's key and secret
  'user without casesummary', // tenant N
  'platform master', // the platform holds every feature
  'anonymous',
  'wrong API credential',
] as const;
type PrincipalName = (typeof PRINCIPALS)[number];
type TenantKey = 'A' | 'B' | 'N' | 'platform';

const OWN: Record<PrincipalName, TenantKey> = {
  administrator: 'A',
  user: 'A',
  agent: 'A',
  'API credential': 'A',
  'user without casesummary': 'N',
  'platform master': 'platform',
  anonymous: 'A',
  'wrong API credential': 'A',
};

interface Target {
  config: string;
  bot: string;
}

interface RouteRow {
  method: Method;
  url: (x: Target) => string;
  body?: (x: Target) => Record<string, unknown>;
  own: string;
  foreign: string;
}

//                    adm usr agt key noC mst ano bad
const READ = /*   */ '200 200 200 200 403 200 401 401';
const MISS = /*   */ '404 404 404 404 403 404 401 401';
const WRITE = /*  */ '200 200 403 200 403 200 401 401';
const WMISS = /*  */ '404 404 403 404 403 404 401 401';

const ROUTES: Record<string, RouteRow> = {
  'GET /v1/case-summary-configs': {
    method: 'GET',
    url: () => '/v1/case-summary-configs',
    own: READ,
    foreign: READ,
  },
  'POST /v1/case-summary-configs': {
    method: 'POST',
    url: () => '/v1/case-summary-configs',
    body: (x) => ({ name: `Matrix ${randomUUID()}`, bot_ids: [x.bot] }),
    own: '201 201 403 201 403 201 401 401',
    // Another tenant's bot is refused like an unknown one.
    foreign: '400 400 403 400 403 400 401 401',
  },
  'GET /v1/case-summary-configs/:p': {
    method: 'GET',
    url: (x) => `/v1/case-summary-configs/${x.config}`,
    own: READ,
    foreign: MISS,
  },
  'PATCH /v1/case-summary-configs/:p': {
    method: 'PATCH',
    url: (x) => `/v1/case-summary-configs/${x.config}`,
    body: () => ({ max_chars: 500 }),
    own: WRITE,
    foreign: WMISS,
  },
  'DELETE /v1/case-summary-configs/:p': {
    method: 'DELETE',
    url: (x) => `/v1/case-summary-configs/${x.config}`,
    own: '204 204 403 204 403 204 401 401',
    foreign: WMISS,
  },
};

const TENANT_TABLES = ['bots', 'case_summary_configs'];
const WALK_LIMIT_MS = timeLimit({ calls: PRINCIPALS.length * Object.keys(ROUTES).length * 3 * 2 });

describe('case-summary configuration authorisation matrix and tenant isolation', () => {
  let t: TestApp;
  let served: ServedRoute[] = [];
  const tenants = {} as Record<TenantKey, string>;
  const bots = {} as Record<TenantKey, string>;
  const callers = {} as Record<PrincipalName, Caller>;

  /** A configuration of the tenant's bot written straight to the tables (one per step: steps may delete it). */
  async function freshConfig(key: TenantKey): Promise<Target> {
    const db = t.database.db;
    await db.delete(caseSummaryConfigBots).where(eqBot(bots[key]));
    const [row] = await db
      .insert(caseSummaryConfigs)
      .values({
        tenantId: tenants[key],
        name: `Config ${randomUUID()}`,
        sections: ['issue'],
        maxChars: 400,
        triggers: ['handover'],
      })
      .returning({ id: caseSummaryConfigs.id });
    const config = defined(row).id;
    await db
      .insert(caseSummaryConfigBots)
      .values({ botId: bots[key], configId: config, tenantId: tenants[key] });
    return { config, bot: bots[key] };
  }

  beforeAll(async () => {
    t = await createTestApp();
    const platform = await platformTenantId(t);
    tenants.platform = platform;
    tenants.A = 'csm-a';
    tenants.B = 'csm-b';
    tenants.N = 'csm-n';
    await makeTenant(t, {
      tenantId: 'csm-a',
      parent: platform,
      type: '3',
      domain: 'csm-a.test',
      codes: ['casesummary'],
    });
    await makeTenant(t, {
      tenantId: 'csm-b',
      parent: platform,
      type: '3',
      domain: 'csm-b.test',
      codes: ['casesummary'],
    });
    await makeTenant(t, {
      tenantId: 'csm-n',
      parent: platform,
      type: '3',
      domain: 'csm-n.test',
      codes: ['omnirag'],
    });
    const signedIn = async (tenant: string, email: string, role: string) => ({
      cookie: (await makeSignedInUser(t, tenant, email, role)).cookie,
    });
    callers.administrator = await signedIn(tenants.A, 'admin@csm-a.test', 'administrator');
    callers.user = await signedIn(tenants.A, 'user@csm-a.test', 'user');
    callers.agent = await signedIn(tenants.A, 'agent@csm-a.test', 'agent');
    const authorization = await basicCredential(t, tenants.A);
    callers['API credential'] = { authorization };
    callers['wrong API credential'] = { authorization: withWrongSecret(authorization) };
    callers['user without casesummary'] = await signedIn(tenants.N, 'user@csm-n.test', 'user');
    callers['platform master'] = { cookie: await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD) };
    callers.anonymous = {};
    const makers: Record<TenantKey, Caller> = {
      A: callers.user,
      B: await signedIn(tenants.B, 'user@csm-b.test', 'user'),
      N: callers['user without casesummary'],
      platform: callers['platform master'],
    };
    for (const key of ['A', 'B', 'N', 'platform'] as const) {
      const made = await injectAs(t, 'POST', '/v1/bots', makers[key], { name: 'Matrix bot' });
      if (made.statusCode !== 201) throw new Error(`bot of ${key}: ${made.statusCode} ${made.body}`);
      bots[key] = made.json<{ id: string }>().id;
    }
    served = servedRoutes(t, underPrefixes(['/v1/case-summary-configs']));
  });
  afterAll(async () => {
    await t.close();
  });

  it('has an expectation row for every case-summary route of the server, and no row without a route', () => {
    expectRowForEveryRoute(served, ROUTES);
    expectOneColumnPerPrincipal(
      Object.values(ROUTES).flatMap((row) => [row.own, row.foreign]),
      PRINCIPALS,
    );
  });

  it(
    'answers every principal as written, foreign ids like unknown ones, and shows no other tenant',
    async () => {
      const keptFrom = {} as Record<TenantKey, Set<string>>;
      const walk = await walkMatrix(PRINCIPALS, served, async ({ principal, column, route, wrong }) => {
        const caller = callers[principal];
        const own = OWN[principal];
        keptFrom[own] = await idsOfOtherTenants(t, TENANT_TABLES, tenants[own]);
        const row = defined(ROUTES[route.key]);
        let unknownAnswer = '';
        let calls = 0;
        for (const target of ['own', 'unknown', 'foreign'] as const) {
          const x =
            target === 'own'
              ? await freshConfig(own)
              : target === 'unknown'
                ? { config: randomUUID(), bot: randomUUID() }
                : await freshConfig('B');
          // POST with the caller's own bot needs it free of any configuration.
          if (target === 'own' && row.method === 'POST') {
            await t.database.db.delete(caseSummaryConfigBots).where(eqBot(x.bot));
          }
          const response = await injectAs(t, row.method, row.url(x), caller, row.body?.(x));
          calls += 1;
          const expected = expectedStatus(target === 'own' ? row.own : row.foreign, column);
          const label = `${principal} × ${target} × ${route.key}: ${response.statusCode} ${response.body.slice(0, 160)}`;
          if (response.statusCode !== expected) wrong.push(`${label} (expected ${expected})`);
          const body = response.body === '' ? null : response.json<unknown>();
          if (
            response.statusCode >= 400 &&
            !isKnownRefusal(response.statusCode, body, ['case-summary/unknown-bot'])
          ) {
            wrong.push(`${label}: not a known refusal`);
          }
          const leaked = stringsIn(body).filter((value) => keptFrom[own].has(value));
          if (leaked.length > 0) wrong.push(`${label}: shows ids of others ${leaked.join(', ')}`);
          const answer = `${response.statusCode} ${response.body}`;
          if (target === 'unknown') unknownAnswer = answer;
          if (target === 'foreign' && row.method !== 'POST' && row.url(x) !== '/v1/case-summary-configs') {
            if (answer !== unknownAnswer) wrong.push(`${label}: unknown ids were answered ${unknownAnswer}`);
          }
        }
        return calls;
      });
      expectNothingWrong('case summaries', walk, served.length, PRINCIPALS.length);
      expect(walk.attempts).toBe(served.length * PRINCIPALS.length * 3);
    },
    WALK_LIMIT_MS,
  );
});

function eqBot(botId: string) {
  return eq(caseSummaryConfigBots.botId, botId);
}
