import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { makeUser, platformTenantId } from '../accounts/accounts.fixtures';
import {
  createTestApp,
  sessionCookie,
  signIn,
  STRONG_PASSWORD,
  TEST_ORIGIN,
  type TestApp,
} from '../../test/app';

const NEW_PASSWORD = 'Granite-Meadow-Lantern-77';

describe('GET /v1/session', () => {
  let t: TestApp;
  let tenantId: string;

  beforeAll(async () => {
    t = await createTestApp();
    tenantId = await platformTenantId(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 200 with null, not an error, to a caller without a session', async () => {
    for (const cookie of [undefined, 'better-auth.session_token=not-a-session']) {
      const response = await t.app.inject({ url: '/v1/session', headers: cookie ? { cookie } : {} });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toBeNull();
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('answers the signed-in user and their tenant, one-time password pending or not', async () => {
    const email = 'session-reader@example.com';
    await makeUser(t, tenantId, email, 'user');
    const cookie = await sessionCookie(t, email, STRONG_PASSWORD);
    const response = await t.app.inject({ url: '/v1/session', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      email,
      name: `Person ${email}`,
      tenant_id: tenantId,
      role: 'user',
      must_change_password: false,
    });
    await t.database.db.update(users).set({ mustChangePassword: true }).where(eq(users.email, email));
    const pending = await t.app.inject({ url: '/v1/session', headers: { cookie } });
    expect(pending.json()).toMatchObject({ email, must_change_password: true });
  });

  it('still refuses a signed-in user who was disabled, with a 403 that says so', async () => {
    const email = 'session-disabled@example.com';
    await makeUser(t, tenantId, email, 'user');
    const cookie = await sessionCookie(t, email, STRONG_PASSWORD);
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.email, email));
    const response = await t.app.inject({ url: '/v1/session', headers: { cookie } });
    expect(response.statusCode).toBe(403);
    const body = response.json<{ code: string; message: string }>();
    expect(body.code).toMatch(/^auth\//);
    expect(body.message.length).toBeGreaterThan(0);
  });
});

describe('password change brute force', () => {
  let t: TestApp;
  let tenantId: string;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp();
    tenantId = await platformTenantId(t);
  });
  afterAll(async () => {
    await t.close();
  });

  async function signedInUser() {
    const email = `pw-${++sequence}@example.com`;
    await makeUser(t, tenantId, email, 'user');
    return { email, cookie: await sessionCookie(t, email, STRONG_PASSWORD) };
  }

  const change = (
    cookie: string,
    currentPassword: string,
    remoteAddress = '127.0.0.1',
    newPassword = NEW_PASSWORD,
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/me/password',
      headers: { cookie, origin: TEST_ORIGIN },
      remoteAddress,
      payload: { currentPassword, newPassword },
    });

  it('refuses the 6th attempt after 5 wrong current passwords with 429 and Retry-After, even when right', async () => {
    const { email, cookie } = await signedInUser();
    for (let attempt = 1; attempt <= 5; attempt++) {
      const wrong = await change(cookie, `Wrong-Password-${attempt}`, '10.1.0.1');
      expect(wrong.statusCode, `attempt ${attempt}`).toBe(400);
      expect(wrong.json()).toMatchObject({ code: 'auth/wrong-password' });
    }
    const blocked = await change(cookie, STRONG_PASSWORD, '10.1.0.2');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'auth/too-many-requests' });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // The password did not change.
    expect((await signIn(t, email, STRONG_PASSWORD, '10.1.0.3')).statusCode).toBe(200);
  });

  it('counts only failures and clears the count on success', async () => {
    const { email, cookie } = await signedInUser();
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect((await change(cookie, `Wrong-Password-${attempt}`, '10.2.0.1')).statusCode).toBe(400);
    }
    expect((await change(cookie, STRONG_PASSWORD, '10.2.0.1')).statusCode).toBe(200);
    const fresh = await sessionCookie(t, email, NEW_PASSWORD);
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await change(fresh, `Wrong-Password-${attempt}`, '10.2.0.2')).statusCode).toBe(400);
    }
    expect((await change(fresh, NEW_PASSWORD, '10.2.0.2', STRONG_PASSWORD)).statusCode).toBe(429);
  });

  it('limits failures per IP address to 20 in 15 minutes, across users', async () => {
    const ip = '10.3.0.1';
    for (let user = 1; user <= 4; user++) {
      const { cookie } = await signedInUser();
      for (let attempt = 1; attempt <= 5; attempt++) {
        expect((await change(cookie, `Wrong-Password-${attempt}`, ip)).statusCode).toBe(400);
      }
    }
    const { cookie } = await signedInUser();
    const blocked = await change(cookie, `Wrong-Password-x`, ip);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect((await change(cookie, STRONG_PASSWORD, '10.3.0.2')).statusCode).toBe(200);
  });
});
