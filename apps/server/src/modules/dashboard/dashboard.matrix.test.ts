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
  type ServedRoute,
  servedRoutes,
  stringsIn,
  walkMatrix,
  withWrongSecret,
} from '../../test/authorisation-matrix';
import { defined } from '../../test/defined';
import { timeLimit } from '../../test/time-limits';
import { makeSignedInUser, makeTenant, platformTenantId } from '../accounts/accounts.fixtures';
import { basicCredential } from '../files/files.test-support';
import { insertConversation, utcDayStart } from './dashboard.test-support';

/*
 * The authorisation matrix of the dashboard routes, and tenant isolation through every one of them.
 *
 * The routes come from the server's own route table: a dashboard route (under /v1/conversations, or a bot's
 * stats and conversations) without a row in ROUTES fails, and so does a row that names no route. Statuses are
 * written out by hand, one column per principal, for the caller's own bot and conversation and for another
 * tenant's. Another tenant's ids must be answered exactly like unknown ids; every call, allowed or refused,
 * leaves the conversation tables, the bots and the audit log as they were (the routes only read).
 */

const PRINCIPALS = [
  'administrator', // tenant A
  'user', // tenant A
  'agent', // tenant A
  'API credential', // tenant A's key and secret
  'user without omnirag', // tenant N: bots need no subscription
  'platform master',
  'anonymous',
  'wrong API credential', // tenant A's key with a wrong secret
] as const;
type PrincipalName = (typeof PRINCIPALS)[number];
type TenantKey = 'A' | 'B' | 'N' | 'platform';

/** Whose bot is "own" for each principal; "foreign" is always B's. */
const OWN: Record<PrincipalName, TenantKey> = {
  administrator: 'A',
  user: 'A',
  agent: 'A',
  'API credential': 'A',
  'user without omnirag': 'N',
  'platform master': 'platform',
  anonymous: 'A',
  'wrong API credential': 'A',
};

interface Resources {
  bot: string;
  conversation: string;
  /** The ids of the conversation's messages. */
  messages: string[];
}

interface RouteRow {
  url: (x: Resources) => string;
  own: string;
  foreign: string;
  /** What an allowed read of the caller's own resources must show. */
  shows: (body: Record<string, unknown>, x: Resources) => boolean;
}

//                     adm usr agt key noR mst ano bad
const READ = /*    */ '200 200 200 200 200 200 401 401';
const MISS = /*    */ '404 404 404 404 404 404 401 401';

const ROUTES: Record<string, RouteRow> = {
  'GET /v1/bots/:p/stats': {
    url: (x) => `/v1/bots/${x.bot}/stats?days=7`,
    own: READ,
    foreign: MISS,
    shows: (body, x) =>
      body.bot_id === x.bot &&
      (body.totals as { conversations: number; answered: number }).conversations === 1 &&
      (body.totals as { answered: number }).answered === 1,
  },
  'GET /v1/bots/:p/conversations': {
    url: (x) => `/v1/bots/${x.bot}/conversations?q=refund`,
    own: READ,
    foreign: MISS,
    shows: (body, x) => itemIds(body).join() === x.conversation,
  },
  'GET /v1/conversations/:p': {
    url: (x) => `/v1/conversations/${x.conversation}`,
    own: READ,
    foreign: MISS,
    shows: (body, x) =>
      body.id === x.conversation &&
      (body.messages as Array<{ id: string }>).map((message) => message.id).join() === x.messages.join(),
  },
};

const isDashboardRoute = (url: string) =>
  url === '/v1/conversations' ||
  url.startsWith('/v1/conversations/') ||
  /^\/v1\/bots\/:p\/(stats|conversations)(\/|$)/.test(url);

/** Tables whose rows carry `id` and `tenant_id`: their ids must never reach another tenant. */
const TENANT_TABLES = ['bots', 'conversations', 'conversation_messages'];
const FINGERPRINTED = ['conversations', 'conversation_messages', 'message_feedback', 'bots', 'audit_log'];

/** The walk's time limit: each principal on each route with its own, unknown and another tenant's ids. */
const WALK_LIMIT_MS = timeLimit({ calls: PRINCIPALS.length * Object.keys(ROUTES).length * 3 });

describe('dashboard authorisation matrix and tenant isolation', () => {
  let t: TestApp;
  let served: ServedRoute[] = [];
  const tenants = {} as Record<TenantKey, string>;
  const resources = {} as Record<TenantKey, Resources>;
  const callers = {} as Record<PrincipalName, Caller>;

  /** The same bot, conversation (masked text, a cited source, feedback) in a tenant, made by `maker`. */
  async function seed(key: TenantKey, maker: Caller): Promise<Resources> {
    const made = await injectAs(t, 'POST', '/v1/bots', maker, { name: 'Helper' });
    if (made.statusCode !== 201) throw new Error(`bot of ${key}: ${made.statusCode} ${made.body}`);
    const bot = made.json<{ id: string }>().id;
    const { id, messageIds } = await insertConversation(t, {
      tenantId: tenants[key],
      botId: bot,
      startedAt: utcDayStart(0, 1),
      messages: [
        { role: 'visitor', text: 'My PIN is **** and I want a refund' },
        {
          role: 'bot',
          text: 'Refunds take a week [1].',
          sources: [
            {
              n: 1,
              title: 'Refunds',
              url: 'https://example.com/refunds',
              chunk_id: null,
              source_id: null,
              score: 1,
            },
          ],
          feedback: { rating: 'button1', comment: 'ok' },
        },
      ],
    });
    return { bot, conversation: id, messages: messageIds };
  }

  beforeAll(async () => {
    t = await createTestApp();
    const platform = await platformTenantId(t);
    tenants.platform = platform;
    tenants.A = 'dm-a';
    tenants.B = 'dm-b';
    tenants.N = 'dm-n';
    await makeTenant(t, { tenantId: tenants.A, parent: platform, type: '3', domain: 'dm-a.test' });
    await makeTenant(t, { tenantId: tenants.B, parent: platform, type: '3', domain: 'dm-b.test' });
    await makeTenant(t, {
      tenantId: tenants.N,
      parent: platform,
      type: '3',
      domain: 'dm-n.test',
      codes: ['casesummary'],
    });
    const signedIn = async (tenant: string, email: string, role: string) => ({
      cookie: (await makeSignedInUser(t, tenant, email, role)).cookie,
    });
    callers.administrator = await signedIn(tenants.A, 'admin@dm-a.test', 'administrator');
    callers.user = await signedIn(tenants.A, 'user@dm-a.test', 'user');
    callers.agent = await signedIn(tenants.A, 'agent@dm-a.test', 'agent');
    const authorization = await basicCredential(t, tenants.A);
    callers['API credential'] = { authorization };
    callers['wrong API credential'] = { authorization: withWrongSecret(authorization) };
    callers['user without omnirag'] = await signedIn(tenants.N, 'user@dm-n.test', 'user');
    callers['platform master'] = { cookie: await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD) };
    callers.anonymous = {};
    const bAdmin = await signedIn(tenants.B, 'admin@dm-b.test', 'administrator');

    resources.A = await seed('A', callers.user);
    resources.B = await seed('B', bAdmin);
    resources.N = await seed('N', callers['user without omnirag']);
    resources.platform = await seed('platform', callers['platform master']);

    served = servedRoutes(t, isDashboardRoute);
  });
  afterAll(async () => {
    await t.close();
  });

  it('has an expectation row for every dashboard route of the server, and no row without a route', () => {
    expectRowForEveryRoute(served, ROUTES);
    expectOneColumnPerPrincipal(
      Object.values(ROUTES).flatMap((row) => [row.own, row.foreign]),
      PRINCIPALS,
    );
  });

  it(
    'answers every principal as written, foreign ids like unknown ones, shows no other tenant, writes nothing',
    async () => {
      const before = await tablesFingerprint(t, FINGERPRINTED);
      const keptFrom = {} as Record<TenantKey, Set<string>>;
      for (const key of new Set(Object.values(OWN)))
        keptFrom[key] = await idsOfOtherTenants(t, TENANT_TABLES, tenants[key]);
      const walk = await walkMatrix(PRINCIPALS, served, async ({ principal, column, route, wrong }) => {
        const caller = callers[principal];
        const own = OWN[principal];
        const row = defined(ROUTES[route.key]);
        const unknown: Resources = { bot: randomUUID(), conversation: randomUUID(), messages: [] };
        let unknownAnswer = '';
        let calls = 0;
        for (const [target, x, statuses] of [
          ['own', resources[own], row.own],
          ['unknown', unknown, row.foreign],
          ['foreign', resources.B, row.foreign],
        ] as const) {
          const response = await injectAs(t, 'GET', row.url(x), caller);
          calls += 1;
          const expected = expectedStatus(statuses, column);
          const label = `${principal} × ${target} × ${route.key}: ${response.statusCode} ${response.body.slice(0, 160)}`;
          const body = response.json<Record<string, unknown>>();
          if (response.statusCode !== expected) wrong.push(`${label} (expected ${expected})`);
          if (response.statusCode >= 400) {
            if (!isKnownRefusal(response.statusCode, body)) wrong.push(`${label}: not a known refusal`);
          } else if (target === 'own' && !row.shows(body, x)) {
            wrong.push(`${label}: does not show it`);
          }
          const leaked = stringsIn(body).filter((value) => keptFrom[own].has(value));
          if (leaked.length > 0) wrong.push(`${label}: shows ids of others ${leaked.join(', ')}`);
          const answer = `${response.statusCode} ${response.body}`;
          if (target === 'unknown') unknownAnswer = answer;
          if (target === 'foreign' && answer !== unknownAnswer) {
            wrong.push(`${label}: unknown ids were answered ${unknownAnswer}`);
          }
        }
        return calls;
      });
      expectNothingWrong('dashboard', walk, served.length, PRINCIPALS.length);
      expect(walk.attempts).toBe(served.length * PRINCIPALS.length * 3);
      expect(await tablesFingerprint(t, FINGERPRINTED)).toBe(before);
    },
    WALK_LIMIT_MS,
  );

  it("never reaches another tenant's conversation through its own bot's log or a search of the same words", async () => {
    for (const principal of ['administrator', 'API credential', 'platform master'] as const) {
      const mine = resources[OWN[principal]];
      for (const q of ['refund', '****', 'PIN']) {
        const response = await injectAs(
          t,
          'GET',
          `/v1/bots/${mine.bot}/conversations?q=${encodeURIComponent(q)}`,
          callers[principal],
        );
        expect([principal, q, itemIds(response.json())]).toEqual([principal, q, [mine.conversation]]);
      }
    }
  });
});
