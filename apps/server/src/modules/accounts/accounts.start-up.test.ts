import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, subscriptions, tenants } from '../../db/schema';
import { createTestApp, registerVerified, sessionCookie, type TestApp } from '../../test/app';
import { defined } from '../../test/defined';

// The console's start-up flow reads /v1/session, then the profile, account, credential and
// subscriptions. A partner (type "2") without a credential must read as "code 404" at the credential step, which
// sends its users back to /login (console: start-up-flow.test.ts); only the platform (type "1") is tolerated.
describe('the start-up reads of a partner tenant without a credential', () => {
  let t: TestApp;
  let cookie: string;
  const email = 'pat@no-credential.test';
  const tenantId = 'partner-no-credential';

  beforeAll(async () => {
    t = await createTestApp();
    const [platform] = await t.database.db.select().from(tenants).where(eq(tenants.type, '1'));
    await t.database.db.insert(tenants).values({
      tenantId,
      parentTenantId: defined(platform).tenantId,
      name: 'No Credential Partner',
      type: '2',
      info: { domain: 'no-credential.test' },
    });
    await t.database.db
      .insert(subscriptions)
      .values({ tenantId, code: 'omnirag', info: { code: 'omnirag', name: 'Omni RAG' } });
    cookie = await sessionCookie(t, email, await registerVerified(t, email, 'Pat Partner'));
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ url, headers: { cookie, 'x-app-id': 'omnibot-console' } });

  it('answers every step but the credential, which is a code 404', async () => {
    const session = await get('/v1/session');
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ tenant_id: tenantId, email, must_change_password: false });

    expect((await get(`/v1/Account/${tenantId}/User/${email}?type=email`)).json()).toEqual([
      expect.objectContaining({ tenant_id: tenantId, info: { firstname: 'Pat', lastname: 'Partner' } }),
    ]);
    expect((await get(`/v1/Account/${tenantId}`)).json()).toEqual([
      expect.objectContaining({ tenant_id: tenantId, type: '2', name: 'No Credential Partner' }),
    ]);
    const credential = await get(`/v1/Account/${tenantId}/credential`);
    expect(credential.statusCode).toBe(200);
    expect(credential.json()).toMatchObject({ code: 404 });
    const list = (await get(`/v1/Account/${tenantId}/Subscription`)).json<{
      code: number;
      items: Array<{ info: { code: string }; is_current: boolean }>;
    }>();
    expect(list.code).toBe(200);
    expect(list.items.map((item) => [item.info.code, item.is_current])).toEqual([['omnirag', true]]);
  });

  it('answers code 200 with a masked secret once the tenant has a credential', async () => {
    await t.database.db
      .insert(credentials)
      .values({ tenantId, key: 'keynocredential', secretHash: 'x', secretLast4: 'abcd' });
    expect((await get(`/v1/Account/${tenantId}/credential`)).json()).toMatchObject({
      code: 200,
      key: 'keynocredential',
      secret: '****abcd',
    });
  });
});
