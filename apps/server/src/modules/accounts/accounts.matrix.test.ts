import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, subscriptions } from '../../db/schema';
import { createTestApp, sessionCookie, TEST_ADMIN_PASSWORD, type TestApp } from '../../test/app';
import {
  type Caller,
  call,
  fingerprint,
  makeTenant,
  makeUser,
  makeSignedInUser,
  platformTenantId,
} from './accounts.fixtures';
import { hashCredentialSecret } from '../auth/credential-secrets';
import { expectRowForEveryRoute, obj, servedRoutes } from '../../test/authorisation-matrix';
import { defined } from '../../test/defined';
import { timeLimit } from '../../test/time-limits';

/*
 * The authorisation matrix of the account service. The routes come from the server's own route table, so a new
 * /v1/Account route without a row below fails this test. The expected outcomes are written out by hand (they are
 * not computed with the server's helpers).
 *
 * Tree: platform ─┬─ P (partner) ─┬─ C  (client)
 *                 │               └─ C2 (client)
 *                 └─ Q (partner) ─── QC (client)
 */

/** Classes of call: what a call reveals or changes. */
type CallClass =
  | 'R' // read the tenant: account, find by domain, credential (masked), subscription list and one subscription
  | 'K' // list the tenant's children
  | 'U' // read another user of the tenant (by e-mail or id)
  | 'L' // list the tenant's users
  | 'W' // change the tenant: account, credential calls, create or update a user
  | 'S' // change the tenant's subscriptions
  | 'C'; // create a child of the tenant
const CLASS_ORDER: CallClass[] = ['R', 'K', 'U', 'L', 'W', 'S', 'C'];

/**
 * A = allowed and succeeds; D = denied (401/403/404, or the list-shaped / object-shaped code 404 of a read), and
 * nothing changes in the database; E = allowed but there is nothing to list (answers like a denial);
 * S = allowed, but the list holds only the caller's own profile.
 */
type Outcome = 'A' | 'D' | 'E' | 'S';

type PrincipalName =
  | 'master'
  | 'platform administrator'
  | 'partner administrator'
  | 'partner API credential'
  | 'partner user'
  | 'client administrator'
  | 'client agent'
  | "other partner's administrator"
  | 'anonymous'
  | 'wrong API credential';
type TargetName =
  | 'own tenant'
  | 'child'
  | 'grandchild'
  | 'parent'
  | 'sibling'
  | "sibling's child"
  | 'unknown'
  | 'own path, foreign id';

const ALL_DENIED = 'D D D D D D D';

//                                             R K U L W S C
const EXPECTED: Record<PrincipalName, Partial<Record<TargetName, string>>> = {
  master: {
    'own tenant': /*                        */ 'A A A A A A A',
    child: /*                               */ 'A A A A A A A',
    grandchild: /*                          */ 'A E A A A A D',
    unknown: ALL_DENIED,
  },
  'platform administrator': {
    'own tenant': /*                        */ 'A A A A A D A',
    child: /*                               */ 'A A A A A A A',
    grandchild: /*                          */ 'A E A A A A D',
    unknown: ALL_DENIED,
  },
  'partner administrator': {
    'own tenant': /*                        */ 'A A A A A D A',
    child: /*                               */ 'A E A A A A D',
    parent: ALL_DENIED,
    sibling: ALL_DENIED,
    "sibling's child": ALL_DENIED,
    unknown: ALL_DENIED,
  },
  'partner API credential': {
    'own tenant': /*                        */ 'A A A A A D A',
    child: /*                               */ 'A E A A A A D',
    parent: ALL_DENIED,
    sibling: ALL_DENIED,
    "sibling's child": ALL_DENIED,
    unknown: ALL_DENIED,
  },
  'partner user': {
    'own tenant': /*                        */ 'A D D S D D D',
    child: ALL_DENIED,
    parent: ALL_DENIED,
    sibling: ALL_DENIED,
    "sibling's child": ALL_DENIED,
    unknown: ALL_DENIED,
  },
  'client administrator': {
    'own tenant': /*                        */ 'A E A A A D D',
    parent: ALL_DENIED,
    sibling: ALL_DENIED,
    unknown: ALL_DENIED,
  },
  'client agent': {
    'own tenant': /*                        */ 'A D D S D D D',
    parent: ALL_DENIED,
    sibling: ALL_DENIED,
    unknown: ALL_DENIED,
  },
  "other partner's administrator": {
    'own tenant': /*                        */ 'A A A A A D A',
    child: /*                               */ 'A E A A A A D',
    parent: ALL_DENIED,
    sibling: ALL_DENIED,
    "sibling's child": ALL_DENIED,
    unknown: ALL_DENIED,
  },
  // Anonymous and wrong-credential callers aim at the partner's view of the tree.
  anonymous: {
    'own tenant': ALL_DENIED,
    child: ALL_DENIED,
    parent: ALL_DENIED,
    sibling: ALL_DENIED,
    "sibling's child": ALL_DENIED,
    unknown: ALL_DENIED,
  },
  'wrong API credential': {
    'own tenant': ALL_DENIED,
    child: ALL_DENIED,
    parent: ALL_DENIED,
    sibling: ALL_DENIED,
    "sibling's child": ALL_DENIED,
    unknown: ALL_DENIED,
  },
};

/** The tenant of every principal, and which tenant each relative target means for it. */
const TARGETS: Record<PrincipalName, Partial<Record<TargetName, TenantKey>>> = {
  master: { 'own tenant': 'platform', child: 'P', grandchild: 'C', unknown: 'unknown' },
  'platform administrator': { 'own tenant': 'platform', child: 'P', grandchild: 'C', unknown: 'unknown' },
  'partner administrator': PARTNER_VIEW(),
  'partner API credential': PARTNER_VIEW(),
  'partner user': PARTNER_VIEW(),
  'client administrator': { 'own tenant': 'C', parent: 'P', sibling: 'C2', unknown: 'unknown' },
  'client agent': { 'own tenant': 'C', parent: 'P', sibling: 'C2', unknown: 'unknown' },
  "other partner's administrator": {
    'own tenant': 'Q',
    child: 'QC',
    parent: 'platform',
    sibling: 'P',
    "sibling's child": 'C',
    unknown: 'unknown',
  },
  anonymous: PARTNER_VIEW(),
  'wrong API credential': PARTNER_VIEW(),
};
function PARTNER_VIEW(): Partial<Record<TargetName, TenantKey>> {
  return {
    'own tenant': 'P',
    child: 'C',
    parent: 'platform',
    sibling: 'Q',
    "sibling's child": 'QC',
    unknown: 'unknown',
  };
}
/** For "own path, foreign id": the tenant whose user or subscription id is put under the caller's own path. */
const FOREIGN_OF: Record<string, TenantKey> = { platform: 'P', P: 'Q', C: 'C2', Q: 'P' };

type TenantKey = 'platform' | 'P' | 'C' | 'C2' | 'Q' | 'QC' | 'unknown';

interface Target {
  id: string;
  domain: string;
  victimId: string;
  victimEmail: string;
  subscriptionId: string;
}

interface Variant {
  name: string;
  cls: CallClass;
  /** Whether the call names a resource below the tenant (so "own path, foreign id" applies). */
  subResource?: boolean;
  /** A 409 means the call was allowed but the thing exists already. */
  conflictAllowed?: boolean;
  request: (x: Target, n: number) => { url: string; payload?: unknown };
  /** For allowed reads: the body shows the target's data. */
  shows?: (body: unknown, x: Target) => boolean;
}

const first = (body: unknown) => (Array.isArray(body) ? (body[0] as Record<string, unknown>) : undefined);

const isAccountRoute = (url: string) => url.startsWith('/v1/Account');

/** One row per /v1/Account route of the server (method + path with parameters as :p). */
const CALLS: Record<string, Variant[]> = {
  'GET /v1/Account': [
    {
      name: 'list children',
      cls: 'K',
      request: (x) => ({ url: `/v1/Account?tenant_id=${x.id}` }),
      shows: (body, x) =>
        obj(body).code === 200 &&
        (obj(body).items as Array<{ parent_tenant_id: string }>).every((a) => a.parent_tenant_id === x.id),
    },
  ],
  'POST /v1/Account': [
    {
      name: 'create a child',
      cls: 'C',
      request: (x, n) => ({
        url: `/v1/Account?tenant_id=${x.id}`,
        payload: { name: `Child ${n}`, subscriptions: ['omnirag'] },
      }),
    },
  ],
  'GET /v1/Account/:p': [
    {
      name: 'get account',
      cls: 'R',
      request: (x) => ({ url: `/v1/Account/${x.id}` }),
      shows: (body, x) => first(body)?.tenant_id === x.id,
    },
    {
      name: 'find by domain',
      cls: 'R',
      request: (x) => ({ url: `/v1/Account/${x.id}?type=domain&data=${x.domain}` }),
      shows: (body, x) => first(body)?.tenant_id === x.id,
    },
  ],
  'PUT /v1/Account/:p': [
    {
      name: 'update account',
      cls: 'W',
      request: (x, n) => ({
        url: `/v1/Account/${x.id}`,
        payload: { name: `Renamed ${n}`, address: { city: 'Matrix' }, info: { domain: x.domain } },
      }),
    },
  ],
  'GET /v1/Account/:p/credential': [
    {
      name: 'get credential',
      cls: 'R',
      request: (x) => ({ url: `/v1/Account/${x.id}/credential` }),
      shows: (body) => obj(body).code === 200 && String(obj(body).secret).startsWith('****'),
    },
  ],
  'POST /v1/Account/:p/credential': [
    {
      name: 'create credential',
      cls: 'W',
      conflictAllowed: true,
      request: (x) => ({ url: `/v1/Account/${x.id}/credential` }),
    },
  ],
  'PUT /v1/Account/:p/credential': [
    { name: 'reset credential', cls: 'W', request: (x) => ({ url: `/v1/Account/${x.id}/credential` }) },
  ],
  'POST /v1/Account/:p/key': [
    { name: 'new key (POST)', cls: 'W', request: (x) => ({ url: `/v1/Account/${x.id}/key` }) },
  ],
  'PUT /v1/Account/:p/key': [
    { name: 'new key (PUT)', cls: 'W', request: (x) => ({ url: `/v1/Account/${x.id}/key`, payload: {} }) },
  ],
  'POST /v1/Account/:p/secret': [
    { name: 'new secret (POST)', cls: 'W', request: (x) => ({ url: `/v1/Account/${x.id}/secret` }) },
  ],
  'PUT /v1/Account/:p/secret': [
    { name: 'new secret (PUT)', cls: 'W', request: (x) => ({ url: `/v1/Account/${x.id}/secret` }) },
  ],
  'GET /v1/Account/:p/Subscription': [
    {
      name: 'list subscriptions',
      cls: 'R',
      request: (x) => ({ url: `/v1/Account/${x.id}/Subscription` }),
      shows: (body, x) =>
        obj(body).code === 200 &&
        (obj(body).items as Array<{ tenant_id: string }>).every((s) => s.tenant_id === x.id),
    },
  ],
  'GET /v1/Account/:p/Subscription/:p': [
    {
      name: 'get subscription',
      cls: 'R',
      subResource: true,
      request: (x) => ({ url: `/v1/Account/${x.id}/Subscription/${x.subscriptionId}` }),
      shows: (body, x) => (obj(body).subscription as { id?: string } | undefined)?.id === x.subscriptionId,
    },
  ],
  'POST /v1/Account/:p/Subscription': [
    {
      name: 'create subscription',
      cls: 'S',
      conflictAllowed: true,
      request: (x) => ({ url: `/v1/Account/${x.id}/Subscription`, payload: { info: { code: 'subtenant' } } }),
    },
  ],
  'PUT /v1/Account/:p/Subscription/:p': [
    {
      name: 'update subscription',
      cls: 'S',
      subResource: true,
      request: (x) => ({
        url: `/v1/Account/${x.id}/Subscription/${x.subscriptionId}`,
        payload: { status: 'active' },
      }),
    },
  ],
  'GET /v1/Account/:p/User': [
    {
      name: 'list users',
      cls: 'L',
      request: (x) => ({ url: `/v1/Account/${x.id}/User?page_size=100` }),
      shows: (body, x) =>
        obj(body).code === 200 &&
        (obj(body).items as Array<{ tenant_id: string }>).length > 0 &&
        (obj(body).items as Array<{ tenant_id: string }>).every((u) => u.tenant_id === x.id),
    },
  ],
  'GET /v1/Account/:p/User/:p': [
    {
      name: 'user by e-mail',
      cls: 'U',
      subResource: true,
      request: (x) => ({ url: `/v1/Account/${x.id}/User/${x.victimEmail}?type=email` }),
      shows: (body, x) => first(body)?.id === x.victimId,
    },
    {
      name: 'user by id',
      cls: 'U',
      subResource: true,
      request: (x) => ({ url: `/v1/Account/${x.id}/User/${x.victimId}?type=user_id` }),
      shows: (body, x) => first(body)?.id === x.victimId,
    },
  ],
  'POST /v1/Account/:p/User': [
    {
      name: 'create user',
      cls: 'W',
      request: (x, n) => ({
        url: `/v1/Account/${x.id}/User`,
        payload: { email: `made-${n}@${x.domain}`, role: 'user' },
      }),
    },
  ],
  'PUT /v1/Account/:p/User/:p': [
    {
      name: 'update user',
      cls: 'W',
      subResource: true,
      request: (x, n) => ({
        url: `/v1/Account/${x.id}/User/${x.victimId}`,
        payload: { info: { firstname: `Changed ${n}` } },
      }),
    },
  ],
};

/**
 * The calls of the matrix walk: each principal on each of its targets through every variant of every route, and on
 * its own path with a foreign id through the variants naming a sub-resource; each call with a fingerprint.
 */
const MATRIX_CALLS = Object.values(EXPECTED).reduce((sum, targets) => {
  const variants = Object.values(CALLS).flat();
  return sum + Object.keys(targets).length * variants.length + variants.filter((v) => v.subResource).length;
}, 0);
const MATRIX_LIMIT_MS = timeLimit({ calls: MATRIX_CALLS });

const isNotFoundShape = (body: unknown) => {
  const item = Array.isArray(body) && body.length === 1 ? (body[0] as unknown) : body;
  return typeof item === 'object' && item !== null && (item as { code?: unknown }).code === 404;
};

describe('account service authorisation matrix', () => {
  let t: TestApp;
  const tenants = {} as Record<TenantKey, Target>;
  const callers = {} as Record<PrincipalName, Caller & { userId?: string }>;
  const partnerKey = { key: '', secret: '' };

  beforeAll(async () => {
    t = await createTestApp();
    const platform = await platformTenantId(t);
    const tree: Array<[TenantKey, string | null, '2' | '3']> = [
      ['P', platform, '2'],
      ['C', 'm-p', '3'],
      ['C2', 'm-p', '3'],
      ['Q', platform, '2'],
      ['QC', 'm-q', '3'],
    ];
    const ids: Record<TenantKey, string> = {
      platform,
      P: 'm-p',
      C: 'm-c',
      C2: 'm-c2',
      Q: 'm-q',
      QC: 'm-qc',
      unknown: 'm-nosuchtenant',
    };
    for (const [key, parent, type] of tree) {
      await makeTenant(t, {
        tenantId: ids[key],
        parent,
        type,
        domain: `${key.toLowerCase()}.matrix.test`,
        codes: type === '2' ? ['subtenant', 'omnirag'] : ['omnirag'],
      });
    }
    const { secret: serverSecret } = await t.app.auth.$context;
    for (const key of ['platform', 'P', 'C', 'C2', 'Q', 'QC'] as const) {
      const secret = `secret-of-${key}-${randomUUID()}`;
      await t.database.db.insert(credentials).values({
        tenantId: ids[key],
        key: `mkey${key.toLowerCase()}`,
        secretHash: hashCredentialSecret(serverSecret, secret),
        secretLast4: secret.slice(-4),
      });
      if (key === 'P') Object.assign(partnerKey, { key: 'mkeyp', secret });
      const domain = key === 'platform' ? 'example.com' : `${key.toLowerCase()}.matrix.test`;
      const victim = await makeUser(t, ids[key], `victim-${key.toLowerCase()}@${domain}`, 'user');
      const [sub] = await t.database.db
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(eq(subscriptions.tenantId, ids[key]));
      tenants[key] = {
        id: ids[key],
        domain,
        victimId: victim.id,
        victimEmail: victim.email,
        subscriptionId: defined(sub).id,
      };
    }
    tenants.unknown = {
      id: ids.unknown,
      domain: 'nosuch.matrix.test',
      victimId: 'nosuchuser',
      victimEmail: 'nobody@nosuch.matrix.test',
      subscriptionId: randomUUID(),
    };

    const user = async (tenant: TenantKey, email: string, role: string) => {
      const made = await makeSignedInUser(t, ids[tenant], email, role);
      return { cookie: made.cookie, userId: made.id };
    };
    callers.master = { cookie: await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD) };
    callers['platform administrator'] = await user('platform', 'ops@example.com', 'administrator');
    callers['partner administrator'] = await user('P', 'admin@p.matrix.test', 'administrator');
    callers['partner API credential'] = { basic: partnerKey };
    callers['partner user'] = await user('P', 'user@p.matrix.test', 'user');
    callers['client administrator'] = await user('C', 'admin@c.matrix.test', 'administrator');
    callers['client agent'] = await user('C', 'agent@c.matrix.test', 'agent');
    callers["other partner's administrator"] = await user('Q', 'admin@q.matrix.test', 'administrator');
    callers.anonymous = {};
    // The partner's real key (even after the matrix regenerates it) with a wrong secret.
    callers['wrong API credential'] = {
      basic: {
        get key() {
          return partnerKey.key;
        },
        secret: 'not-the-secret',
      },
    };
  });
  afterAll(() => t.close());

  it('has an expectation row for every /v1/Account route of the server, and no stale rows', () => {
    const served = servedRoutes(t, isAccountRoute);
    expectRowForEveryRoute(served, CALLS);
    expect(served.length).toBe(19);
  });

  it(
    'finds 0 forbidden successes and lets every allowed call through',
    async () => {
      const served = servedRoutes(t, isAccountRoute);
      let attempts = 0;
      let denied = 0;
      let allowed = 0;
      let n = 0;
      const forbiddenSuccesses: string[] = [];
      const wrongOutcomes: string[] = [];
      let before = await fingerprint(t);

      const principals = Object.keys(EXPECTED) as PrincipalName[];
      for (const [index, principal] of principals.entries()) {
        const caller = callers[principal];
        const targets = TARGETS[principal];
        const targetNames = [
          ...(Object.keys(EXPECTED[principal]) as TargetName[]),
          'own path, foreign id' as const,
        ];
        for (const targetName of targetNames) {
          const foreign = targetName === 'own path, foreign id';
          const own = defined(targets['own tenant']);
          const x: Target = foreign
            ? {
                ...tenants[own],
                victimId: tenants[defined(FOREIGN_OF[own])].victimId,
                victimEmail: tenants[defined(FOREIGN_OF[own])].victimEmail,
                subscriptionId: tenants[defined(FOREIGN_OF[own])].subscriptionId,
              }
            : tenants[defined(targets[targetName])];
          const row = foreign ? ALL_DENIED : EXPECTED[principal][targetName];
          expect(row, `${principal} × ${targetName}`).toBeDefined();
          const outcomes = Object.fromEntries(
            defined(row)
              .split(' ')
              .map((outcome, i) => [CLASS_ORDER[i], outcome as Outcome]),
          ) as Record<CallClass, Outcome>;

          for (const route of served) {
            for (const variant of defined(CALLS[route.key])) {
              if (foreign && !variant.subResource) continue;
              const expected = outcomes[variant.cls];
              const { url, payload } = variant.request(x, ++n);
              const response = await call(
                t,
                route.method as 'GET' | 'POST' | 'PUT',
                url,
                {
                  ...caller,
                  remoteAddress: `10.77.0.${index + 1}`,
                },
                payload,
              );
              attempts += 1;
              const label = `${principal} × ${targetName} × ${variant.name}: ${response.statusCode} ${response.body.slice(0, 160)}`;
              const body: unknown = response.body ? JSON.parse(response.body) : null;
              const after = await fingerprint(t);
              if (expected === 'D' || expected === 'E') {
                denied += 1;
                const refused =
                  [401, 403, 404].includes(response.statusCode) ||
                  (response.statusCode === 200 && isNotFoundShape(body));
                if (!refused || after !== before) forbiddenSuccesses.push(label);
                if (refused && response.statusCode >= 400) {
                  expect(Object.keys(body as object).sort(), label).toEqual(['code', 'message']);
                }
              } else {
                allowed += 1;
                const ok =
                  (response.statusCode >= 200 && response.statusCode < 300) ||
                  (variant.conflictAllowed === true && response.statusCode === 409);
                let shows = ok && (variant.shows ? variant.shows(body, x) : true);
                if (expected === 'S') {
                  const items = obj(body).items as Array<{ id: string }> | undefined;
                  shows = ok && items?.length === 1 && defined(items[0]).id === caller.userId;
                }
                if (!shows) wrongOutcomes.push(label);
                // Somebody changed the partner's credential: keep the credential principal working.
                if (ok && x.id === tenants.P.id) {
                  const answer = body as { key?: string; secret?: string };
                  if (answer.key && url.match(/\/(credential|key|secret)$/) && route.method !== 'GET') {
                    partnerKey.key = answer.key;
                    if (answer.secret && !answer.secret.startsWith('****')) partnerKey.secret = answer.secret;
                  }
                }
              }
              before = after;
            }
          }
        }
      }
      console.log(
        `authorisation matrix: ${served.length} routes x ${principals.length} principals x their targets = ` +
          `${attempts} attempts (${denied} to be refused, ${allowed} to be allowed); ` +
          `forbidden successes: ${forbiddenSuccesses.length}; allowed calls that failed: ${wrongOutcomes.length}`,
      );
      expect(forbiddenSuccesses).toEqual([]);
      expect(wrongOutcomes).toEqual([]);
      expect(attempts).toBeGreaterThan(1000);
      // Its time limit counts these calls.
      expect(attempts).toBe(MATRIX_CALLS);
    },
    MATRIX_LIMIT_MS,
  );
});
