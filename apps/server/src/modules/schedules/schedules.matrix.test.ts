import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  expectedStatus,
  expectNothingWrong,
  expectOneColumnPerPrincipal,
  expectRowForEveryRoute,
  idsOfOtherTenants,
  isKnownRefusal,
  itemIds,
  obj,
  type ServedRoute,
  servedRoutes,
  underPrefixes,
  walkMatrix,
  withWrongSecret,
} from '../../test/authorisation-matrix';
import { defined } from '../../test/defined';
import { timeLimit } from '../../test/time-limits';
import { makeSignedInUser, makeTenant, platformTenantId } from '../accounts/accounts.fixtures';
import { basicCredential } from '../files/files.test-support';

/*
 * The authorisation matrix of the schedule (business hours) routes, and tenant isolation through every one.
 *
 * The routes come from the server's own route table: a route under /v1/schedules without a row in ROUTES fails,
 * and so does a row that names no route. Statuses are written out per principal for the caller's own schedule and
 * for another tenant's; another tenant's ids must be answered exactly like unknown ids (same status and body) and
 * change nothing. Schedules need no subscription; agents read them and change none.
 */

const PRINCIPALS = [
  'administrator', // tenant A
  'user', // tenant A
  'agent', // tenant A
  'API credential', // tenant A's key and secret
  'user without omnirag', // tenant N
  'platform master',
  'anonymous',
  'wrong API credential', // tenant A's key with a wrong secret
] as const;
type PrincipalName = (typeof PRINCIPALS)[number];
type TenantKey = 'A' | 'B' | 'N' | 'platform';

const OWN_TENANT: Record<PrincipalName, TenantKey> = {
  administrator: 'A',
  user: 'A',
  agent: 'A',
  'API credential': 'A',
  'user without omnirag': 'N',
  'platform master': 'platform',
  anonymous: 'A',
  'wrong API credential': 'A',
};

interface RouteRow {
  request: (schedule: string, n: number) => { url: string; payload?: unknown };
  own: string;
  foreign?: string;
  shows?: (body: unknown, schedule: string) => boolean;
  /** The call deletes what it names: it gets a throwaway made just before. */
  fresh?: boolean;
}

const hours = (name: string) => ({
  name,
  time_zone: 'Europe/Berlin',
  weekly: { mon: [{ from: '09:00', to: '17:00' }], fri: [{ from: '22:00', to: '06:00' }] },
  exceptions: [{ date: '2026-12-25', label: 'Christmas Day', closed: true }],
});

//                   adm usr agt key noR mst ano bad
const READ = /*    */ '200 200 200 200 200 200 401 401';
const MISS = /*    */ '404 404 404 404 404 404 401 401';
const CHANGED = /* */ '200 200 403 200 200 200 401 401';
const MADE = /*    */ '201 201 403 201 201 201 401 401';
const GONE = /*    */ '204 204 403 204 204 204 401 401';
const NO_WRITE = /**/ '404 404 403 404 404 404 401 401';

const ROUTES: Record<string, RouteRow> = {
  'GET /v1/schedules': {
    request: () => ({ url: '/v1/schedules' }),
    own: READ,
    shows: (body, schedule) => itemIds(body).includes(schedule),
  },
  'POST /v1/schedules': {
    request: (_schedule, n) => ({ url: '/v1/schedules', payload: hours(`Made ${n}`) }),
    own: MADE,
  },
  'GET /v1/schedules/:p': {
    request: (schedule) => ({ url: `/v1/schedules/${schedule}` }),
    own: READ,
    foreign: MISS,
    shows: (body, schedule) => obj(body).id === schedule,
  },
  'PATCH /v1/schedules/:p': {
    request: (schedule, n) => ({
      url: `/v1/schedules/${schedule}`,
      payload: { description: `Changed ${n}` },
    }),
    own: CHANGED,
    foreign: NO_WRITE,
  },
  'DELETE /v1/schedules/:p': {
    request: (schedule) => ({ url: `/v1/schedules/${schedule}` }),
    fresh: true,
    own: GONE,
    foreign: NO_WRITE,
  },
  'GET /v1/schedules/:p/calendar': {
    request: (schedule) => ({ url: `/v1/schedules/${schedule}/calendar?month=2026-12` }),
    own: READ,
    foreign: MISS,
    shows: (body, schedule) =>
      obj(body).schedule_id === schedule && (obj(body).days as unknown[]).length === 31,
  },
};

const TENANT_TABLES = ['schedules', 'bots'];
const FINGERPRINTED = [...TENANT_TABLES, 'audit_log'];
const WALK_CALLS =
  PRINCIPALS.length * Object.values(ROUTES).reduce((sum, row) => sum + (row.foreign ? 3 : 1), 0);
const WALK_LIMIT_MS = timeLimit({ calls: WALK_CALLS });

describe('schedule authorisation matrix and tenant isolation', () => {
  let t: TestApp;
  const callers = {} as Record<PrincipalName, Caller>;
  const makers = {} as Record<TenantKey, Caller>;
  const schedulesOf = {} as Record<TenantKey, string>;
  const tenantIds = {} as Record<TenantKey, string>;
  let served: ServedRoute[] = [];
  let n = 0;

  const fingerprint = () => tablesFingerprint(t, FINGERPRINTED);

  async function made(caller: Caller, name: string): Promise<string> {
    const response = await injectAs(t, 'POST', '/v1/schedules', caller, hours(name));
    if (response.statusCode !== 201) throw new Error(`schedule: ${response.statusCode} ${response.body}`);
    return response.json<{ id: string }>().id;
  }

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_MAX: '100000' } });
    const platform = await platformTenantId(t);
    Object.assign(tenantIds, { A: 'sx-a', B: 'sx-b', N: 'sx-n', platform });
    await makeTenant(t, { tenantId: tenantIds.A, parent: platform, type: '3', domain: 'a.sx.test' });
    await makeTenant(t, { tenantId: tenantIds.B, parent: platform, type: '3', domain: 'b.sx.test' });
    await makeTenant(t, {
      tenantId: tenantIds.N,
      parent: platform,
      type: '3',
      domain: 'n.sx.test',
      codes: ['casesummary'],
    });
    const cookie = async (tenant: string, email: string, role: string) =>
      (await makeSignedInUser(t, tenant, email, role)).cookie;
    const credential = await basicCredential(t, tenantIds.A);
    Object.assign(callers, {
      administrator: { cookie: await cookie(tenantIds.A, 'admin@a.sx.test', 'administrator') },
      user: { cookie: await cookie(tenantIds.A, 'user@a.sx.test', 'user') },
      agent: { cookie: await cookie(tenantIds.A, 'agent@a.sx.test', 'agent') },
      'API credential': { authorization: credential },
      'user without omnirag': { cookie: await cookie(tenantIds.N, 'user@n.sx.test', 'user') },
      'platform master': { cookie: await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD) },
      anonymous: {},
      'wrong API credential': { authorization: withWrongSecret(credential) },
    } satisfies Record<PrincipalName, Caller>);
    makers.A = callers.administrator;
    makers.N = callers['user without omnirag'];
    makers.platform = callers['platform master'];
    makers.B = { cookie: await cookie(tenantIds.B, 'user@b.sx.test', 'user') };
    for (const key of ['A', 'B', 'N', 'platform'] as const)
      schedulesOf[key] = await made(makers[key], 'Office');
    served = servedRoutes(t, underPrefixes(['/v1/schedules']));
  });
  afterAll(async () => {
    await t.close();
  });

  it('has a row for every schedule route, and a route for every row', () => {
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
        const own = row.fresh ? await made(makers[tenant], `Throwaway ${n}`) : schedulesOf[tenant];
        const before = await fingerprint();
        const { url, payload } = row.request(own, n);
        const response = await injectAs(t, method, url, caller, payload);
        const expected = expectedStatus(row.own, column);
        const label = `${key} as ${principal}`;
        if (response.statusCode !== expected) {
          wrong.push(`${label} (own): ${response.statusCode} ${response.body.slice(0, 160)}`);
        }
        if (response.statusCode >= 400 && !isKnownRefusal(response.statusCode, response.json())) {
          wrong.push(`${label} (own): not a known refusal ${response.body.slice(0, 160)}`);
        }
        if ((response.statusCode >= 400 || method === 'GET') && (await fingerprint()) !== before) {
          wrong.push(`${label} (own): changed the database`);
        }
        if (response.statusCode === 200 && row.shows && !row.shows(response.json(), own)) {
          wrong.push(`${label} (own): does not show the caller's own schedule`);
        }
        if (!row.foreign) return 1;
        n += 1;
        const other = row.fresh ? await made(makers.B, `Throwaway ${n}`) : schedulesOf.B;
        const beforeForeign = await fingerprint();
        const foreignCall = row.request(other, n);
        const foreignResponse = await injectAs(t, method, foreignCall.url, caller, foreignCall.payload);
        const unknownCall = row.request(randomUUID(), n);
        const unknownResponse = await injectAs(t, method, unknownCall.url, caller, unknownCall.payload);
        if (foreignResponse.statusCode !== expectedStatus(row.foreign, column)) {
          wrong.push(
            `${label} (foreign): ${foreignResponse.statusCode} ${foreignResponse.body.slice(0, 160)}`,
          );
        }
        if (
          foreignResponse.statusCode !== unknownResponse.statusCode ||
          foreignResponse.body !== unknownResponse.body
        ) {
          wrong.push(`${label}: another tenant's ids answered unlike unknown ones`);
        }
        if ((await fingerprint()) !== beforeForeign) wrong.push(`${label} (foreign): changed the database`);
        return 3;
      });
      expectNothingWrong('schedule', walk, served.length, PRINCIPALS.length);
      expect(walk.attempts).toBe(WALK_CALLS);
    },
    WALK_LIMIT_MS,
  );

  it('never shows a caller an id of another tenant’s schedule', async () => {
    for (const principal of ['administrator', 'user without omnirag', 'platform master'] as const) {
      const others = await idsOfOtherTenants(t, TENANT_TABLES, tenantIds[OWN_TENANT[principal]]);
      const body = (await injectAs(t, 'GET', '/v1/schedules', callers[principal])).body;
      for (const id of others) expect(body, principal).not.toContain(id);
    }
  });
});
