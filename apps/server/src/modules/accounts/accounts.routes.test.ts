import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { credentials, subscriptions, tenants, users } from '../../db/schema';
import {
  createTestApp,
  registerVerified,
  sessionCookie,
  TEST_ADMIN_PASSWORD,
  type TestApp,
} from '../../test/app';
import { defined } from '../../test/defined';

describe('account service: the start-up read side', () => {
  let t: TestApp;
  let master: string;
  let platformId: string;
  beforeAll(async () => {
    t = await createTestApp();
    master = await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD);
    const [platform] = await t.database.db.select().from(tenants).where(eq(tenants.type, '1'));
    platformId = defined(platform).tenantId;
    await t.database.db.insert(tenants).values([
      {
        tenantId: 'partner-a',
        parentTenantId: platformId,
        name: 'Partner A',
        type: '2',
        info: { domain: 'a.test' },
      },
      {
        tenantId: 'client-a1',
        parentTenantId: 'partner-a',
        name: 'Client A1',
        type: '3',
        info: { domain: 'a1.test' },
      },
      {
        tenantId: 'partner-b',
        parentTenantId: platformId,
        name: 'Partner B',
        type: '2',
        info: { domain: 'b.test' },
      },
    ]);
    await t.database.db
      .insert(credentials)
      .values({ tenantId: 'partner-a', key: 'key-partner-a', secretHash: 'x', secretLast4: 'wxyz' });
    await t.database.db
      .insert(subscriptions)
      .values({ tenantId: 'partner-a', code: 'omnirag', info: { code: 'omnirag', name: 'Omni RAG' } });
  });
  afterAll(() => t.close());

  const get = (url: string, cookie: string, appId: string | null = 'omnibot-console') =>
    t.app.inject({ url, headers: { cookie, ...(appId ? { 'x-app-id': appId } : {}) } });

  it('walks the start-up flow for the master: profile by e-mail, account, credential, subscriptions', async () => {
    const profile = await get(`/v1/Account/${platformId}/User/admin@example.com?type=email`, master);
    expect(profile.statusCode).toBe(200);
    const [me] = profile.json<Array<Record<string, unknown>>>();
    expect(me).toMatchObject({
      tenant_id: platformId,
      role: 'master',
      email: 'admin@example.com',
      info: { firstname: 'Platform', lastname: 'Administrator' },
    });
    expect(me).not.toHaveProperty('password');

    const account = await get(`/v1/Account/${platformId}`, master);
    expect(account.json()).toEqual([
      expect.objectContaining({
        tenant_id: platformId,
        type: '1',
        is_active: true,
        info: { domain: 'example.com' },
      }),
    ]);

    expect((await get(`/v1/Account/${platformId}/credential`, master)).json()).toEqual({
      code: 404,
      message: 'No credential',
    });
    const subs = (await get(`/v1/Account/${platformId}/Subscription`, master)).json<{
      code: number;
      items: Array<{ info: { code: string }; is_current: boolean }>;
    }>();
    expect(subs.code).toBe(200);
    expect(subs.items.map((item) => item.info.code)).toEqual([
      'casesummary',
      'omniassist',
      'omnirag',
      'subtenant',
    ]);
    expect(subs.items.every((item) => item.is_current)).toBe(true);

    const byId = await get(`/v1/Account/${platformId}/User/${String(defined(me).id)}?type=user_id`, master);
    expect(byId.json()).toEqual([me]);
  });

  it('masks the secret of a credential', async () => {
    expect((await get('/v1/Account/partner-a/credential', master)).json()).toEqual({
      code: 200,
      key: 'key-partner-a',
      secret: '****wxyz',
    });
  });

  it('requires the X-App-Id header (400) and a session (401)', async () => {
    const noApp = await get(`/v1/Account/${platformId}`, master, null);
    expect(noApp.statusCode).toBe(400);
    expect(noApp.json()).toMatchObject({ code: 'invalid_argument' });
    expect((await get(`/v1/Account/${platformId}`, master, 'bad id with spaces')).statusCode).toBe(400);
    const anonymous = await get(`/v1/Account/${platformId}`, '');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'unauthenticated' });
  });

  it('answers a code item for an unknown account, and a 400 for an unknown lookup type', async () => {
    expect((await get('/v1/Account/no-such-tenant', master)).json()).toEqual([
      { code: 404, message: 'Account not found' },
    ]);
    expect((await get(`/v1/Account/${platformId}/User/x?type=name`, master)).statusCode).toBe(400);
  });

  it('scopes a partner user to their own tenant and their own profile', async () => {
    const email = 'member@a.test';
    const password = await registerVerified(t, email, 'Mia Member');
    const cookie = await sessionCookie(t, email, password);
    const own = await get('/v1/Account/partner-a', cookie);
    expect(own.json()).toEqual([expect.objectContaining({ tenant_id: 'partner-a', name: 'Partner A' })]);
    expect((await get(`/v1/Account/partner-a/User/${email}?type=email`, cookie)).json()).toEqual([
      expect.objectContaining({ email, role: 'user', info: { firstname: 'Mia', lastname: 'Member' } }),
    ]);
    // Foreign tenants look exactly like missing ones.
    for (const other of [platformId, 'partner-b', 'client-a1', 'no-such-tenant']) {
      expect((await get(`/v1/Account/${other}`, cookie)).json()).toEqual([
        { code: 404, message: 'Account not found' },
      ]);
      expect((await get(`/v1/Account/${other}/credential`, cookie)).json()).toEqual({
        code: 404,
        message: 'No credential',
      });
      expect((await get(`/v1/Account/${other}/Subscription`, cookie)).json()).toEqual({
        code: 404,
        message: 'No subscription',
      });
    }
    expect((await get(`/v1/Account/${platformId}/User/admin@example.com?type=email`, cookie)).json()).toEqual(
      [{ code: 404, message: 'User not found' }],
    );
  });

  it('lets a partner administrator reach its child but not its parent or sibling', async () => {
    const email = 'boss@a.test';
    const password = await registerVerified(t, email, 'Bea Boss');
    await t.database.db.update(users).set({ role: 'administrator' }).where(eq(users.email, email));
    const cookie = await sessionCookie(t, email, password);
    expect((await get('/v1/Account/client-a1', cookie)).json()).toEqual([
      expect.objectContaining({ tenant_id: 'client-a1', type: '3' }),
    ]);
    expect((await get('/v1/Account/partner-b', cookie)).json()).toEqual([
      { code: 404, message: 'Account not found' },
    ]);
    expect((await get(`/v1/Account/${platformId}`, cookie)).json()).toEqual([
      { code: 404, message: 'Account not found' },
    ]);
  });
});
