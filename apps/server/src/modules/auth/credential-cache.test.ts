import type { AccountCreated, FeatureCode, Subscription } from '@omnibot/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../app';
import { openDatabase, rowsOf, type Database } from '../../db/client';
import { basicHeader, type Caller, call } from '../accounts/accounts.fixtures';
import {
  captureLogs,
  createTestApp,
  sessionCookie,
  TEST_ADMIN_PASSWORD,
  type TestApp,
  type TestAppOptions,
} from '../../test/app';
import { defined } from '../../test/defined';
import { onPrincipalsChanged } from '../tenancy/principals-changed';
import { CredentialCache } from './credential-cache';
import { requireFeatureCaller } from './feature-guard';

const onPostgres = process.env.OMNIBOT_TEST_DB === 'postgres';
const FEATURE_ROUTE = '/v1/test/omnirag-only';
let sequence = 0;

/** A test app with a route guarded like every feature route (credential or session, then `omnirag`). */
async function appWithFeatureRoute(options: TestAppOptions = {}) {
  const t = await createTestApp({ ...options, skipReady: true });
  t.app.get(FEATURE_ROUTE, { onRequest: requireFeatureCaller(t.app.identity, 'omnirag') }, async () => ({
    ok: true,
  }));
  await t.app.ready();
  return t;
}

/** A tenant made through the API under the caller's tenant (the master's: a partner), with its credential. */
async function createAccount(t: TestApp, caller: Caller, codes: FeatureCode[]) {
  sequence += 1;
  const domain = `c${Date.now().toString(36)}${sequence}.test`;
  const response = await call(t, 'POST', '/v1/Account', caller, {
    name: `Org ${domain}`,
    address: {},
    info: { domain },
    subscriptions: codes,
  });
  if (response.statusCode !== 201) throw new Error(`account not created: ${response.body}`);
  const body = response.json<AccountCreated>();
  return { ...body, domain, caller: { basic: body.credential } as Caller };
}

const feature = async (app: App, caller: Caller) =>
  (
    await app.inject({
      url: FEATURE_ROUTE,
      headers: caller.basic ? { authorization: basicHeader(caller.basic.key, caller.basic.secret) } : {},
    })
  ).statusCode;

/** Removes a tenant's credential row with the triggers off, so no process hears of it. */
async function deleteUnheard(database: Database, tenantId: string) {
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`delete from credentials where tenant_id = ${tenantId}`);
  });
}

/** Polls until `status` answers other than 200; returns how many 200s came before. */
async function refusedWithin(status: () => Promise<number>, limitMs: number): Promise<number> {
  const started = Date.now();
  for (let served = 0; ; served += 1) {
    if ((await status()) !== 200) return served;
    if (Date.now() - started > limitMs) throw new Error(`still answered 200 after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Makes `app` answer `caller` and waits until the answer stays cached: on PostgreSQL the notifications of the
 * writes that made the account arrive a moment later and empty the cache once more.
 */
async function cachedQuietly(app: App, caller: Caller) {
  const header = basicHeader(defined(caller.basic).key, defined(caller.basic).secret);
  const key = CredentialCache.keyOf(header);
  await until(
    async () => {
      if ((await feature(app, caller)) !== 200) return false;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return app.identity.credentialCache?.get(key) !== undefined;
    },
    2000,
    'the credential to stay cached',
  );
}

async function until(check: () => boolean | Promise<boolean>, limitMs: number, what: string) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('credential cache', () => {
  let t: TestApp;
  let master: Caller;
  beforeAll(async () => {
    t = await appWithFeatureRoute();
    master = { cookie: await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD) };
  });
  afterAll(() => t.close());

  it('answers a repeated credential without a query, and forgets it when the row changes', async () => {
    const a = await createAccount(t, master, ['omnirag']);
    await cachedQuietly(t.app, a.caller);
    await deleteUnheard(t.database, a.account.tenant_id);
    // The row is gone, yet the credential still works: the second request read nothing.
    expect(await feature(t.app, a.caller)).toBe(200);

    const b = await createAccount(t, master, ['omnirag']);
    await cachedQuietly(t.app, b.caller);
    await t.database.db.execute(sql`delete from credentials where tenant_id = ${b.account.tenant_id}`);
    const served = await refusedWithin(() => feature(t.app, b.caller), 2000);
    // PGlite hands the notification over before the statement returns.
    if (!onPostgres) expect(served).toBe(0);
    expect(await feature(t.app, b.caller)).toBe(401);
  });

  it('refuses at once after a reset, a deactivation of the tenant or an ancestor, or a revoked subscription', async () => {
    const p = await createAccount(t, master, ['subtenant', 'omnirag']);
    const c = await createAccount(t, p.caller, ['omnirag']);
    const d = await createAccount(t, p.caller, ['omnirag']);
    for (const who of [p, c, d]) expect(await feature(t.app, who.caller)).toBe(200);
    // Each write below tells this process itself, not only through the database's later notification.
    let told = 0;
    const stopTelling = onPrincipalsChanged(t.database.db, () => {
      told += 1;
    });
    const toldOnce = () => {
      expect(told).toBe(1);
      told = 0;
    };

    const reset = await call(t, 'PUT', `/v1/Account/${p.account.tenant_id}/credential`, master);
    expect(reset.statusCode).toBe(200);
    toldOnce();
    expect(await feature(t.app, p.caller)).toBe(401);
    const renewed: Caller = { basic: reset.json<{ key: string; secret: string }>() };
    expect(await feature(t.app, renewed)).toBe(200);

    const subs = (await call(t, 'GET', `/v1/Account/${d.account.tenant_id}/Subscription`, renewed)).json<{
      items: Subscription[];
    }>().items;
    const omnirag = defined(subs.find((s) => s.info.code === 'omnirag'));
    expect(await feature(t.app, d.caller)).toBe(200);
    const revoked = await call(
      t,
      'PUT',
      `/v1/Account/${d.account.tenant_id}/Subscription/${omnirag.id}`,
      renewed,
      { status: 'revoked' },
    );
    expect(revoked.statusCode).toBe(200);
    toldOnce();
    expect(await feature(t.app, d.caller)).toBe(403);

    const active = (tenant: typeof c, isActive: boolean) => ({
      name: tenant.account.name,
      address: {},
      info: { domain: tenant.domain },
      is_active: isActive,
    });
    expect(await feature(t.app, c.caller)).toBe(200);
    const off = await call(t, 'PUT', `/v1/Account/${c.account.tenant_id}`, renewed, active(c, false));
    expect(off.statusCode).toBe(200);
    toldOnce();
    expect(await feature(t.app, c.caller)).toBe(403);
    const on = await call(t, 'PUT', `/v1/Account/${c.account.tenant_id}`, renewed, active(c, true));
    expect(on.statusCode).toBe(200);
    toldOnce();
    expect(await feature(t.app, c.caller)).toBe(200);

    const parentOff = await call(t, 'PUT', `/v1/Account/${p.account.tenant_id}`, master, active(p, false));
    expect(parentOff.statusCode).toBe(200);
    toldOnce();
    expect(await feature(t.app, c.caller)).toBe(403);
    expect(await feature(t.app, renewed)).toBe(403);
    const e = await createAccount(t, master, ['omnirag']);
    toldOnce();
    const key = await call(t, 'POST', `/v1/Account/${e.account.tenant_id}/key`, master, {});
    expect(key.statusCode).toBe(200);
    toldOnce();
    const added = await call(t, 'POST', `/v1/Account/${e.account.tenant_id}/Subscription`, master, {
      info: { code: 'subtenant' },
    });
    expect(added.statusCode).toBe(201);
    toldOnce();
    stopTelling();
  });

  it('stops a feature when its subscription ends, without any write', async () => {
    const p = await createAccount(t, master, ['subtenant', 'omnirag']);
    const c = await createAccount(t, p.caller, ['omnirag']);
    const subs = (await call(t, 'GET', `/v1/Account/${c.account.tenant_id}/Subscription`, p.caller)).json<{
      items: Subscription[];
    }>().items;
    const omnirag = defined(subs.find((s) => s.info.code === 'omnirag'));
    const endsAt = Date.now() + 2000;
    const ending = await call(
      t,
      'PUT',
      `/v1/Account/${c.account.tenant_id}/Subscription/${omnirag.id}`,
      p.caller,
      { status: 'active', ends_at: new Date(endsAt).toISOString() },
    );
    expect(ending.statusCode).toBe(200);
    await cachedQuietly(t.app, c.caller);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, endsAt - Date.now()) + 20));
    expect(await feature(t.app, c.caller)).toBe(403);
  });

  it.runIf(onPostgres)('caches nothing while its listener is lost, and again once it is back', async () => {
    const [a, b] = [await createAccount(t, master, ['omnirag']), await createAccount(t, master, ['omnirag'])];
    const listeners = async () =>
      rowsOf<{ pid: number }>(
        await t.database.db.execute(
          sql`select pid from pg_stat_activity where datname = current_database() and query ilike 'listen omnibot_principals%'`,
        ),
      ).map((row) => row.pid);
    const [pid] = await listeners();
    await t.database.db.execute(sql`select pg_terminate_backend(${defined(pid)})`);
    const off = (line: Record<string, unknown>) => String(line.msg).startsWith('credential cache off');
    await until(() => t.logs.some(off), 2000, 'the lost listener');

    expect(await feature(t.app, a.caller)).toBe(200);
    await deleteUnheard(t.database, a.account.tenant_id);
    expect(await feature(t.app, a.caller)).toBe(401);

    const on = (line: Record<string, unknown>) => String(line.msg).startsWith('credential cache on');
    await until(() => t.logs.some(on), 5000, 'the listener to reconnect');
    expect(await listeners()).not.toContain(pid);
    expect(t.logs.filter(off)).toHaveLength(1);
    await cachedQuietly(t.app, b.caller);
    await deleteUnheard(t.database, b.account.tenant_id);
    expect(await feature(t.app, b.caller)).toBe(200);
  });

  it.runIf(onPostgres)('another process on the same database refuses a revoked credential soon', async () => {
    const url = defined(t.database.url ?? undefined);
    const database = await openDatabase({ kind: 'postgres', url });
    const other = await buildApp({
      env: t.env,
      database,
      consoleDir: null,
      widgetDir: null,
      logStream: captureLogs().logStream,
    });
    try {
      other.get(FEATURE_ROUTE, { onRequest: requireFeatureCaller(other.identity, 'omnirag') }, async () => ({
        ok: true,
      }));
      await other.ready();
      const a = await createAccount(t, master, ['omnirag']);
      await cachedQuietly(other, a.caller);
      const reset = await call(t, 'PUT', `/v1/Account/${a.account.tenant_id}/credential`, master);
      expect(reset.statusCode).toBe(200);
      await refusedWithin(() => feature(other, a.caller), 2000);
      expect(await feature(other, a.caller)).toBe(401);
    } finally {
      await other.close();
      await database.close();
    }
  });
});

describe('credential cache off (CREDENTIAL_CACHE_MS=0)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWithFeatureRoute({ env: { CREDENTIAL_CACHE_MS: '0' } });
  });
  afterAll(() => t.close());

  it('reads the credential on every request', async () => {
    const master = { cookie: await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD) };
    const a = await createAccount(t, master, ['omnirag']);
    expect(await feature(t.app, a.caller)).toBe(200);
    expect(t.app.identity.credentialCache).toBeNull();
    await deleteUnheard(t.database, a.account.tenant_id);
    expect(await feature(t.app, a.caller)).toBe(401);
  });
});

describe('CredentialCache', () => {
  const listening = (max: number) => {
    const cache = new CredentialCache<string>(60_000, max);
    cache.setListening(true);
    return cache;
  };

  it('drops expired entries first, then the oldest, past its bound', async () => {
    const cache = listening(3);
    const now = Date.now();
    cache.set('a', 'A', cache.ticket(), now, null);
    cache.set('b', 'B', cache.ticket(), now, now + 5);
    cache.set('c', 'C', cache.ticket(), now, null);
    await new Promise((resolve) => setTimeout(resolve, 10));
    cache.set('d', 'D', cache.ticket(), Date.now(), null);
    expect(cache.size).toBe(3);
    expect(['a', 'c', 'd'].map((key) => cache.get(key))).toEqual(['A', 'C', 'D']);
    cache.set('e', 'E', cache.ticket(), Date.now(), null);
    expect(cache.size).toBe(3);
    expect(['a', 'c', 'd', 'e'].map((key) => cache.get(key))).toEqual([undefined, 'C', 'D', 'E']);
  });

  it('keeps nothing read before a clear, nothing while not listening, and nothing past its lifetime', () => {
    const cache = listening(10);
    const ticket = cache.ticket();
    cache.clear();
    cache.set('a', 'A', ticket, Date.now(), null);
    expect(cache.get('a')).toBeUndefined();
    cache.set('b', 'B', cache.ticket(), Date.now(), Date.now() - 1);
    expect(cache.get('b')).toBeUndefined();
    cache.set('c', 'C', cache.ticket(), Date.now() - 60_001, null);
    expect(cache.get('c')).toBeUndefined();
    cache.set('d', 'D', cache.ticket(), Date.now(), null);
    expect(cache.get('d')).toBe('D');
    cache.setListening(false);
    expect(cache.get('d')).toBeUndefined();
    cache.set('e', 'E', cache.ticket(), Date.now(), null);
    expect(cache.size).toBe(0);
  });

  it('keys by a digest of the header, never the header itself', () => {
    const header = basicHeader('key', 'secret');
    expect(CredentialCache.keyOf(header)).toMatch(/^[0-9a-f]{64}$/);
    expect(CredentialCache.keyOf(header)).not.toContain(header);
  });
});
