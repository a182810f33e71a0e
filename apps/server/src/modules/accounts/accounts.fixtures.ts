import { CONSOLE_APP_ID, type FeatureCode, SUBSCRIPTION_CATALOGUE } from '@omnibot/contracts';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client';
import { subscriptions, tenants, users } from '../../db/schema';
import { sessionCookie, STRONG_PASSWORD, tablesFingerprint, type TestApp } from '../../test/app';
import { defined } from '../../test/defined';

/** Test helpers of the account-service suites (not used by the server). */

export interface Caller {
  cookie?: string;
  basic?: { key: string; secret: string };
  appId?: string | null;
  remoteAddress?: string;
}

export const basicHeader = (key: string, secret: string) =>
  `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;

/** An account-service request with the X-App-Id header and the caller's session or credential. */
export function call(
  t: TestApp,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  caller: Caller,
  payload?: unknown,
) {
  const headers: Record<string, string> = {};
  if (caller.appId !== null) headers['x-app-id'] = caller.appId ?? CONSOLE_APP_ID;
  if (caller.cookie) headers.cookie = caller.cookie;
  if (caller.basic) headers.authorization = basicHeader(caller.basic.key, caller.basic.secret);
  return t.app.inject({
    method,
    url,
    headers,
    remoteAddress: caller.remoteAddress ?? '127.0.0.1',
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** A tenant written straight to the database, with current subscriptions for `codes`. */
export async function makeTenant(
  t: TestApp,
  tenant: { tenantId: string; parent: string | null; type: '2' | '3'; domain: string; codes?: FeatureCode[] },
) {
  await t.database.db.insert(tenants).values({
    tenantId: tenant.tenantId,
    parentTenantId: tenant.parent,
    name: `Tenant ${tenant.tenantId}`,
    type: tenant.type,
    info: { domain: tenant.domain },
  });
  const codes = tenant.codes ?? ['omnirag'];
  if (codes.length > 0) {
    await t.database.db.insert(subscriptions).values(
      codes.map((code) => ({
        tenantId: tenant.tenantId,
        code,
        info: { code, ...SUBSCRIPTION_CATALOGUE[code] },
      })),
    );
  }
}

/** A verified user with STRONG_PASSWORD and a profile, written through better-auth's adapter. */
export async function makeUser(t: TestApp, tenantId: string, email: string, role: string) {
  const context = await t.app.auth.$context;
  const user = await context.internalAdapter.createUser(
    { email, name: `Person ${email}`, emailVerified: true },
    { method: 'admin' },
  );
  await context.internalAdapter.linkAccount({
    userId: user.id,
    providerId: 'credential',
    accountId: user.id,
    password: await context.password.hash(STRONG_PASSWORD),
  });
  await t.database.db.insert(users).values({ id: user.id, tenantId, email, role, username: user.name });
  return { id: user.id, email };
}

export async function makeSignedInUser(t: TestApp, tenantId: string, email: string, role: string) {
  const user = await makeUser(t, tenantId, email, role);
  return { ...user, cookie: await sessionCookie(t, email, STRONG_PASSWORD) };
}

export async function platformTenantId(t: TestApp): Promise<string> {
  const rows = rowsOf<{ tenant_id: string }>(
    await t.database.db.execute(sql`select tenant_id from tenants where type = '1'`),
  );
  return defined(rows[0]).tenant_id;
}

const FINGERPRINTED = [
  'tenants',
  'credentials',
  'subscriptions',
  'users',
  'auth_users',
  'auth_accounts',
  'auth_sessions',
  'auth_verifications',
  'audit_log',
];

/** A digest of every table the account service writes: equal digests mean nothing changed. */
export const fingerprint = (t: TestApp): Promise<string> => tablesFingerprint(t, FINGERPRINTED);

export interface RouteEntry {
  method: string;
  /** The path with every parameter written `:p` (printRoutes merges names, e.g. `:key|:id`). */
  url: string;
}

/**
 * Every route the server registered, read from Fastify's own route tree (`printRoutes`), so the result does not
 * depend on when a plugin was loaded. HEAD routes (Fastify's automatic mirrors of GET) are left out.
 */
export function routeTable(t: TestApp): RouteEntry[] {
  const stack: string[] = [];
  const routes: RouteEntry[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = defined(match[1]).length / 4;
    const path = (depth > 0 ? defined(stack[depth - 1]) : '') + defined(match[2]);
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) {
      if (method === 'HEAD') continue;
      routes.push({ method, url: path.replace(/:[^/]+/g, ':p') });
    }
  }
  return routes;
}

/**
 * Three client tenants under the platform, each with a signed-in user: `a` and `b` hold omnirag (two tenants to
 * keep apart), `noRag` holds only casesummary. Returns the users' session cookies.
 */
export async function makeOmniragTenants(t: TestApp, ids: { a: string; b: string; noRag: string }) {
  const platform = await platformTenantId(t);
  await makeTenant(t, { tenantId: ids.a, parent: platform, type: '3', domain: 'a.test' });
  await makeTenant(t, { tenantId: ids.b, parent: platform, type: '3', domain: 'b.test' });
  await makeTenant(t, {
    tenantId: ids.noRag,
    parent: platform,
    type: '3',
    domain: 'norag.test',
    codes: ['casesummary'],
  });
  return {
    alice: { cookie: (await makeSignedInUser(t, ids.a, 'alice@a.test', 'user')).cookie },
    bob: { cookie: (await makeSignedInUser(t, ids.b, 'bob@b.test', 'user')).cookie },
    noRag: { cookie: (await makeSignedInUser(t, ids.noRag, 'user@norag.test', 'user')).cookie },
  };
}
