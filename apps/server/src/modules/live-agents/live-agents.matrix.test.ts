import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, users } from '../../db/schema';
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
  type Method,
  type ServedRoute,
  servedRoutes,
  stringsIn,
  underPrefixes,
  walkMatrix,
} from '../../test/authorisation-matrix';
import { defined } from '../../test/defined';
import { timeLimit } from '../../test/time-limits';
import { makeSignedInUser, makeTenant, platformTenantId } from '../accounts/accounts.fixtures';
import { basicCredential } from '../files/files.test-support';

/*
 * The authorisation matrix of the inbox routes, and tenant isolation through every one of them. Each call gets a
 * fresh conversation in the state its route acts on (waiting for a person, or answered by the caller), in the
 * caller's organisation, in another organisation, or none at all (an unknown id): another organisation's
 * conversation must be answered exactly like an unknown one, and every refusal must change nothing. People answer
 * visitors, so an API credential (nobody who could answer) is refused like an anonymous caller. The inbox's live
 * stream is covered by the hand-over tests.
 */

const PRINCIPALS = [
  'administrator',
  'user',
  'agent',
  'API credential',
  'platform master',
  'anonymous',
] as const;
type PrincipalName = (typeof PRINCIPALS)[number];
type TenantKey = 'A' | 'B' | 'platform';

/** Whose conversations are "own" for each principal; "foreign" is always B's. */
const OWN: Record<PrincipalName, TenantKey> = {
  administrator: 'A',
  user: 'A',
  agent: 'A',
  'API credential': 'A',
  'platform master': 'platform',
  anonymous: 'A',
};

/** The state a route's conversation is made in: waiting, or answered by the caller (or B's agent, for B's). */
type Prepared = 'queued' | 'answered';

interface RouteRow {
  method: Method;
  path: (id: string) => string;
  prepare: Prepared;
  body?: Record<string, unknown>;
  own: string;
  /** Another tenant's or an unknown conversation; null for a route without one (a list). */
  foreign: string | null;
  /** What an allowed call on the caller's own conversation must show. */
  shows: (body: Record<string, unknown>, id: string) => boolean;
}

//                     adm usr agt key mst ano
const READ = /*    */ '200 200 200 401 200 401';
const MISS = /*    */ '404 404 404 401 404 401';

const ROUTES: Record<string, RouteRow> = {
  'GET /v1/inbox': {
    method: 'GET',
    path: () => '/v1/inbox',
    prepare: 'queued',
    own: READ,
    foreign: null,
    shows: (body, id) => itemIds(body).includes(id),
  },
  'GET /v1/inbox/summary': {
    method: 'GET',
    path: () => '/v1/inbox/summary',
    prepare: 'queued',
    own: READ,
    foreign: null,
    shows: (body) => typeof body.queued === 'number' && body.queued >= 1,
  },
  'GET /v1/inbox/preferences': {
    method: 'GET',
    path: () => '/v1/inbox/preferences',
    prepare: 'queued',
    own: READ,
    foreign: null,
    shows: (body) => typeof body.language === 'string',
  },
  'PUT /v1/inbox/preferences': {
    method: 'PUT',
    path: () => '/v1/inbox/preferences',
    prepare: 'queued',
    body: { language: 'de' },
    own: READ,
    foreign: null,
    shows: (body) => body.language === 'de',
  },
  'GET /v1/inbox/:p': {
    method: 'GET',
    path: (id) => `/v1/inbox/${id}`,
    prepare: 'queued',
    own: READ,
    foreign: MISS,
    shows: (body, id) => (body.conversation as { id: string }).id === id,
  },
  'POST /v1/inbox/:p/claim': {
    method: 'POST',
    path: (id) => `/v1/inbox/${id}/claim`,
    prepare: 'queued',
    own: READ,
    foreign: MISS,
    shows: (body, id) => body.id === id && body.state === 'agent',
  },
  'POST /v1/inbox/:p/messages': {
    method: 'POST',
    path: (id) => `/v1/inbox/${id}/messages`,
    prepare: 'answered',
    body: { text: 'How can I help?' },
    own: /*        */ '201 201 201 401 201 401',
    foreign: MISS,
    shows: (body) => body.role === 'agent' && body.text === 'How can I help?',
  },
  'POST /v1/inbox/:p/typing': {
    method: 'POST',
    path: (id) => `/v1/inbox/${id}/typing`,
    prepare: 'answered',
    own: /*        */ '204 204 204 401 204 401',
    foreign: MISS,
    shows: () => true,
  },
  'POST /v1/inbox/:p/release': {
    method: 'POST',
    path: (id) => `/v1/inbox/${id}/release`,
    prepare: 'answered',
    own: READ,
    foreign: MISS,
    shows: (body, id) => body.id === id && body.state === 'bot',
  },
  'POST /v1/inbox/:p/close': {
    method: 'POST',
    path: (id) => `/v1/inbox/${id}/close`,
    prepare: 'queued',
    own: READ,
    foreign: MISS,
    shows: (body, id) => body.id === id && body.state === 'closed',
  },
};

const TENANT_TABLES = ['bots', 'conversations', 'conversation_messages'];
const FINGERPRINTED = [
  'conversations',
  'conversation_messages',
  'conversation_events',
  'bots',
  'audit_log',
  'agent_preferences',
];
/** The walk's time limit: each principal on each route with its own, unknown and another tenant's conversation. */
const WALK_LIMIT_MS = timeLimit({ calls: PRINCIPALS.length * Object.keys(ROUTES).length * 3 * 3 });

describe('inbox authorisation matrix and tenant isolation', () => {
  let t: TestApp;
  let served: ServedRoute[] = [];
  const tenants = {} as Record<TenantKey, string>;
  const bots = {} as Record<TenantKey, string>;
  const callers = {} as Record<PrincipalName, Caller>;
  /** The user id of each principal that is a person, and of B's agent. */
  const people = {} as Record<PrincipalName | 'B agent', string | null>;

  /** A conversation of `key`'s bot, waiting for a person or answered by `agent`. */
  async function conversationIn(key: TenantKey, prepared: Prepared, agent: string | null): Promise<string> {
    const now = new Date();
    const [row] = await t.database.db
      .insert(conversations)
      .values({
        tenantId: tenants[key],
        botId: bots[key],
        language: 'en',
        state: prepared === 'answered' && agent !== null ? 'agent' : 'queued',
        handoverReason: 'visitor',
        queuedAt: now,
        ...(prepared === 'answered' && agent !== null
          ? { agentId: agent, agentName: 'Agent', assignedAt: now }
          : {}),
      })
      .returning({ id: conversations.id });
    return defined(row).id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    const platform = await platformTenantId(t);
    tenants.platform = platform;
    tenants.A = 'lm-a';
    tenants.B = 'lm-b';
    await makeTenant(t, { tenantId: tenants.A, parent: platform, type: '3', domain: 'lm-a.test' });
    await makeTenant(t, { tenantId: tenants.B, parent: platform, type: '3', domain: 'lm-b.test' });
    const signedIn = async (tenant: string, email: string, role: string) => {
      const user = await makeSignedInUser(t, tenant, email, role);
      return { caller: { cookie: user.cookie }, id: user.id };
    };
    for (const [name, email, role] of [
      ['administrator', 'admin@lm-a.test', 'administrator'],
      ['user', 'user@lm-a.test', 'user'],
      ['agent', 'agent@lm-a.test', 'agent'],
    ] as const) {
      const made = await signedIn(tenants.A, email, role);
      callers[name] = made.caller;
      people[name] = made.id;
    }
    const bAdmin = await signedIn(tenants.B, 'admin@lm-b.test', 'administrator');
    people['B agent'] = (await signedIn(tenants.B, 'agent@lm-b.test', 'agent')).id;
    callers['API credential'] = { authorization: await basicCredential(t, tenants.A) };
    people['API credential'] = null;
    callers['platform master'] = { cookie: await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD) };
    const [master] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.role, 'master'));
    people['platform master'] = defined(master).id;
    callers.anonymous = {};
    people.anonymous = null;
    for (const [key, maker] of [
      ['A', callers.administrator],
      ['B', bAdmin.caller],
      ['platform', callers['platform master']],
    ] as const) {
      const made = await injectAs(t, 'POST', '/v1/bots', maker, { name: 'Helper' });
      if (made.statusCode !== 201) throw new Error(`bot of ${key}: ${made.statusCode} ${made.body}`);
      bots[key] = made.json<{ id: string }>().id;
    }
    served = servedRoutes(t, underPrefixes(['/v1/inbox'], ['/v1/inbox/events']));
  });
  afterAll(() => t.close());

  it('has an expectation row for every inbox route of the server, and no row without a route', () => {
    expectRowForEveryRoute(served, ROUTES);
    expectOneColumnPerPrincipal(
      Object.values(ROUTES).flatMap((row) => [row.own, row.foreign ?? undefined]),
      PRINCIPALS,
    );
  });

  it(
    'answers every principal as written, foreign ids like unknown ones, shows no other tenant, refusals change nothing',
    async () => {
      const keptFrom = {} as Record<TenantKey, Set<string>>;
      const walk = await walkMatrix(PRINCIPALS, served, async ({ principal, column, route, wrong }) => {
        const caller = callers[principal];
        const own = OWN[principal];
        keptFrom[own] ??= await idsOfOtherTenants(t, TENANT_TABLES, tenants[own]);
        const row = defined(ROUTES[route.key]);
        let unknownAnswer = '';
        let calls = 0;
        const targets: Array<readonly ['own' | 'unknown' | 'foreign', string]> = [['own', row.own]];
        if (row.foreign !== null) targets.push(['unknown', row.foreign], ['foreign', row.foreign]);
        for (const [target, statuses] of targets) {
          const id =
            target === 'unknown'
              ? randomUUID()
              : target === 'own'
                ? await conversationIn(own, row.prepare, people[principal])
                : await conversationIn('B', row.prepare, people['B agent']);
          const before = await tablesFingerprint(t, FINGERPRINTED);
          const response = await injectAs(t, row.method, row.path(id), caller, row.body);
          calls += 1;
          const expected = expectedStatus(statuses, column);
          const label = `${principal} × ${target} × ${route.key}: ${response.statusCode} ${response.body.slice(0, 160)}`;
          const body = response.body === '' ? {} : response.json<Record<string, unknown>>();
          if (response.statusCode !== expected) wrong.push(`${label} (expected ${expected})`);
          if (response.statusCode >= 400) {
            if (!isKnownRefusal(response.statusCode, body)) wrong.push(`${label}: not a known refusal`);
            if ((await tablesFingerprint(t, FINGERPRINTED)) !== before)
              wrong.push(`${label}: refused but changed`);
          } else if (target === 'own' && !row.shows(body, id)) {
            wrong.push(`${label}: does not show it`);
          }
          const leaked = stringsIn(body).filter((value) => keptFrom[own]?.has(value));
          if (leaked.length > 0) wrong.push(`${label}: shows ids of others ${leaked.join(', ')}`);
          // The unknown id differs from the foreign one: compare the answers with the ids taken out.
          const answer = `${response.statusCode} ${response.body.replaceAll(id, '<id>')}`;
          if (target === 'unknown') unknownAnswer = answer;
          if (target === 'foreign' && answer !== unknownAnswer) {
            wrong.push(`${label}: unknown ids were answered ${unknownAnswer}`);
          }
        }
        return calls;
      });
      expectNothingWrong('inbox', walk, served.length, PRINCIPALS.length);
      // Every conversation the walk made is its tenant's own; none moved to another tenant.
      const moved = await t.database.db.execute(
        sql`select count(*)::int as n from conversations c join bots b on b.id = c.bot_id where b.tenant_id <> c.tenant_id`,
      );
      expect((moved as { rows: Array<{ n: number }> }).rows[0]?.n).toBe(0);
    },
    WALK_LIMIT_MS,
  );
});
