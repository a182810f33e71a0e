import { AUTH_MESSAGES } from '@omnibot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authUsers, authVerifications, subscriptions, tenants, users } from '../../db/schema';
import {
  createTestApp,
  lastLinkTo,
  mailsTo,
  pathOf,
  register,
  registerVerified,
  sessionCookie,
  signIn,
  STRONG_PASSWORD,
  TEST_ADMIN_PASSWORD,
  TEST_ORIGIN,
  type TestApp,
} from '../../test/app';
import { defined } from '../../test/defined';
import { timeLimit } from '../../test/time-limits';

const post = (t: TestApp, url: string, payload: unknown, remoteAddress = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { origin: TEST_ORIGIN },
    payload: payload as object,
    remoteAddress,
  });

let sequence = 0;
/** A fresh address on the platform tenant's domain (example.com, the master's domain). */
const newEmail = (prefix = 'user') => `${prefix}-${Date.now().toString(36)}-${++sequence}@example.com`;

describe('identity', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ALLOWED_EMAIL_DOMAINS: 'example.com,allowed-without-tenant.test' } });
    await t.database.db
      .insert(tenants)
      .values({ tenantId: 'partner-1', name: 'Partner One', type: '2', info: { domain: 'partner.test' } });
    // Users of a tenant without a current subscription cannot sign in.
    await t.database.db
      .insert(subscriptions)
      .values({ tenantId: 'partner-1', code: 'omnirag', info: { code: 'omnirag', name: 'Omni RAG' } });
  });
  afterAll(() => t.close());

  describe('registration', () => {
    it('registers, mails a verification link, and joins the tenant owning the domain as a user', async () => {
      const response = await register(t, 'Ada.Lovelace@Partner.test', STRONG_PASSWORD, 'Ada King Lovelace');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: true, message: 'Registration Successfull!!' });
      const [profile] = await t.database.db
        .select()
        .from(users)
        .where(eq(users.email, 'ada.lovelace@partner.test'));
      expect(profile).toMatchObject({
        tenantId: 'partner-1',
        role: 'user',
        isActive: true,
        username: 'Ada King Lovelace',
      });
      expect(defined(profile).info).toEqual({ firstname: 'Ada', lastname: 'King Lovelace' });
      const [mail] = await mailsTo(t, 'ada.lovelace@partner.test');
      expect(defined(mail).subject).toBe('Omnibot: verify your email address');
      expect(defined(mail).links[0]).toMatch(/^http:\/\/localhost:3000\/api\/auth\/verify-email\?token=/);
    });

    it('refuses an address already registered', async () => {
      const email = newEmail();
      await register(t, email, STRONG_PASSWORD);
      const again = await register(t, email, STRONG_PASSWORD);
      expect(again.statusCode).toBe(422);
      expect(again.json()).toEqual({
        code: 'auth/email-already-in-use',
        message: 'The email is already in use',
      });
    });

    it.each([
      ['too short', 'Ab1-xyz'],
      ['long but guessable', 'password1234'],
      ['keyboard walk', 'qwertyuiop12'],
    ])('refuses a weak password (%s) and stores nothing', async (_label, password) => {
      const email = newEmail('weak');
      const response = await register(t, email, password);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: 'auth/weak-password',
        message: 'Weak Password. Please use a strong password',
      });
      expect(await t.database.db.select().from(authUsers).where(eq(authUsers.email, email))).toHaveLength(0);
    });

    it.each(['not-an-email', 'a@b', '', 'x@@example.com'])('refuses the invalid e-mail %j', async (email) => {
      const response = await register(t, email, STRONG_PASSWORD);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 'auth/invalid-email', message: 'The email is not valid' });
    });

    it('refuses a domain no tenant owns, even when sign-in allows it', async () => {
      for (const email of ['someone@evil.test', 'someone@allowed-without-tenant.test']) {
        const response = await register(t, email, STRONG_PASSWORD);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({
          code: 'auth/unauthorized-domain',
          message: 'Email domain not allowed. Please verify your email.',
        });
      }
    });

    it('verifies through the mailed link, then signs in', async () => {
      const email = newEmail('verify');
      await register(t, email, STRONG_PASSWORD, 'Grace Hopper');
      const before = await signIn(t, email, STRONG_PASSWORD);
      expect(before.statusCode).toBe(403);
      expect(before.json()).toMatchObject({ code: 'auth/email-not-verified' });

      const verify = await t.app.inject({ url: pathOf(await lastLinkTo(t, email)) });
      expect(verify.statusCode).toBe(302);
      expect(verify.headers.location).toBe('/login?verified=1');

      const after = await signIn(t, email, STRONG_PASSWORD);
      expect(after.statusCode).toBe(200);
      expect(after.json()).toMatchObject({ status: true, user: { email } });
      expect(after.body).not.toContain('token');
      const cookie = String(after.headers['set-cookie']);
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Lax');
    });

    it('resends the verification mail on request, at most 3 mails per address per hour', async () => {
      const email = newEmail('resend');
      await register(t, email, STRONG_PASSWORD); // the first mail
      const resend = () =>
        post(t, '/api/auth/send-verification-email', { email, callbackURL: '/login?verified=1' });
      expect((await resend()).statusCode).toBe(200);
      expect((await resend()).statusCode).toBe(200);
      const limited = await resend();
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3000);
      expect(await mailsTo(t, email)).toHaveLength(3);
    });
  });

  describe('sign-in', () => {
    it('signs the master in and reports the session', async () => {
      const cookie = await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD);
      const session = await t.app.inject({ url: '/v1/session', headers: { cookie } });
      expect(session.statusCode).toBe(200);
      expect(session.json()).toMatchObject({
        email: 'admin@example.com',
        role: 'master',
        must_change_password: false,
      });
    });

    it('answers an unknown e-mail and a wrong password identically', async () => {
      const known = newEmail('known');
      await registerVerified(t, known);
      const unknown = await signIn(t, 'nobody-here@example.com', 'Whatever-Password-1', '10.1.0.1');
      const wrong = await signIn(t, known, 'Whatever-Password-1', '10.1.0.2');
      expect(unknown.statusCode).toBe(401);
      expect(wrong.statusCode).toBe(401);
      expect(unknown.body).toBe(wrong.body);
      expect(unknown.json()).toEqual({
        code: 'auth/invalid-credential',
        message: 'Email or Password not correct. Please try again',
      });
    });

    it(
      'takes no measurably different time for an unknown e-mail and a wrong password',
      { timeout: timeLimit({ passwords: 9 }) },
      async () => {
        const time = async (email: string, index: number) => {
          const started = performance.now();
          await signIn(t, email, 'Whatever-Password-1', `10.2.${index}.1`);
          return performance.now() - started;
        };
        const known = newEmail('timing');
        await registerVerified(t, known);
        const unknown: number[] = [];
        const wrong: number[] = [];
        for (let i = 0; i < 4; i += 1) {
          unknown.push(await time(`ghost-${i}@example.com`, i));
          wrong.push(await time(known, i + 10));
        }
        // Both paths run one scrypt hash; they may differ by noise, not by the cost of a hash. The fastest of each
        // path's runs is compared: other work on the machine only ever adds to a run's time.
        const [a, b] = [Math.min(...unknown), Math.min(...wrong)];
        expect(Math.abs(a - b)).toBeLessThan(Math.max(a, b) * 0.5 + 20);
      },
    );

    it('refuses an invalid e-mail, and tells a domain outside the allowlist only to the holder of the password', async () => {
      const invalid = await signIn(t, 'not-an-email', 'x');
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json()).toEqual({ code: 'auth/invalid-email', message: 'The email is not valid' });
      // A user whose domain left the allowlist and who gives the right password is told why.
      const outsider = newEmail('outside');
      const password = await registerVerified(t, outsider);
      const moved = outsider.replace('@example.com', '@moved-away.test');
      await t.database.db.update(authUsers).set({ email: moved }).where(eq(authUsers.email, outsider));
      const holder = await signIn(t, moved, password, '10.5.0.1');
      expect(holder.statusCode).toBe(403);
      expect(holder.json()).toEqual({
        code: 'auth/unauthorized-domain',
        message: 'Email domain not allowed. Please verify your email.',
      });
      const guessed = await signIn(t, moved, 'Whatever-Password-1', '10.5.0.2');
      expect(guessed.statusCode).toBe(401);
      expect(guessed.json()).toEqual({
        code: 'auth/invalid-credential',
        message: 'Email or Password not correct. Please try again',
      });
    });

    it('answers a domain no tenant owns like a wrong password of a known domain, with the same work', async () => {
      const known = newEmail('domain-known');
      await registerVerified(t, known);
      const context = await t.app.auth.$context;
      const hashes = vi.spyOn(context.password, 'hash');
      const verifies = vi.spyOn(context.password, 'verify');
      const attempt = async (email: string, ip: string) => {
        hashes.mockClear();
        verifies.mockClear();
        const response = await signIn(t, email, 'Whatever-Password-1', ip);
        return {
          answer: `${response.statusCode} ${response.body}`,
          passwordWork: hashes.mock.calls.length + verifies.mock.calls.length,
        };
      };
      try {
        const unknownDomain = await attempt('someone@evil.test', '10.6.0.1');
        const unknownUser = await attempt('nobody-at-all@partner.test', '10.6.0.2');
        const wrongPassword = await attempt(known, '10.6.0.3');
        expect(unknownDomain).toEqual(wrongPassword);
        expect(unknownUser).toEqual(wrongPassword);
        expect(wrongPassword.passwordWork).toBe(1);
      } finally {
        hashes.mockRestore();
        verifies.mockRestore();
      }
      // Failures count alike too: the sixth attempt on an unknown domain is limited like one on a known address.
      const counted = async (email: string, prefix: string) => {
        const statuses: number[] = [];
        for (let i = 0; i < 6; i += 1)
          statuses.push((await signIn(t, email, 'Whatever-Password-1', `${prefix}.${i}`)).statusCode);
        return statuses;
      };
      expect(await counted('limited@evil.test', '10.7.0')).toEqual(
        await counted(newEmail('limited'), '10.7.1'),
      );
      expect(await counted('limited-too@evil.test', '10.7.2')).toEqual([401, 401, 401, 401, 401, 429]);
    });

    it('refuses a disabled user, a banned user and the user of a disabled tenant', async () => {
      const email = newEmail('disabled');
      const password = await registerVerified(t, email);
      await t.database.db.update(users).set({ isActive: false }).where(eq(users.email, email));
      const disabled = await signIn(t, email, password);
      expect(disabled.statusCode).toBe(403);
      expect(disabled.json()).toEqual({
        code: 'auth/user-disabled',
        message: "The user is disabled and can't sign in",
      });

      await t.database.db.update(users).set({ isActive: true }).where(eq(users.email, email));
      await t.database.db.update(authUsers).set({ banned: true }).where(eq(authUsers.email, email));
      const banned = await signIn(t, email, password);
      expect(banned.json(), banned.body).toMatchObject({ message: AUTH_MESSAGES.userDisabled });

      await t.database.db.update(authUsers).set({ banned: false }).where(eq(authUsers.email, email));
      // A member of a tenant whose domain differs from theirs: the tenant's switch still applies.
      await t.database.db.update(users).set({ tenantId: 'partner-1' }).where(eq(users.email, email));
      expect((await signIn(t, email, password)).statusCode).toBe(200);
      const partnerUser = 'member@partner.test';
      const partnerPassword = await registerVerified(t, partnerUser);
      await t.database.db.update(tenants).set({ isActive: false }).where(eq(tenants.tenantId, 'partner-1'));
      const tenantOff = await signIn(t, email, password);
      // The allowlist holds active tenants' domains only, so the tenant's own domain is refused first.
      const ownDomainOff = await signIn(t, partnerUser, partnerPassword);
      await t.database.db.update(tenants).set({ isActive: true }).where(eq(tenants.tenantId, 'partner-1'));
      expect(tenantOff.statusCode).toBe(403);
      expect(tenantOff.json()).toMatchObject({ message: AUTH_MESSAGES.userDisabled });
      expect(ownDomainOff.json()).toMatchObject({ message: AUTH_MESSAGES.domainNotAllowed });
    });

    it(
      'limits failed sign-ins to 5 per e-mail in 15 minutes, with Retry-After',
      { timeout: timeLimit({ passwords: 7 }) },
      async () => {
        const email = newEmail('locked');
        const password = await registerVerified(t, email);
        for (let i = 0; i < 5; i += 1)
          expect((await signIn(t, email, 'Wrong-Password-123', `10.3.0.${i}`)).statusCode).toBe(401);
        const sixth = await signIn(t, email, password, '10.3.1.1');
        expect(sixth.statusCode).toBe(429);
        expect(sixth.json()).toMatchObject({ code: 'auth/too-many-requests' });
        const retryAfter = Number(sixth.headers['retry-after']);
        expect(retryAfter).toBeGreaterThan(800);
        expect(retryAfter).toBeLessThanOrEqual(900);
      },
    );

    it(
      'limits failed sign-ins to 20 per IP address in 15 minutes',
      { timeout: timeLimit({ passwords: 23 }) },
      async () => {
        const ip = '10.4.0.1';
        for (let i = 0; i < 20; i += 1) {
          expect((await signIn(t, `spray-${i}@example.com`, 'Wrong-Password-123', ip)).statusCode).toBe(401);
        }
        const email = newEmail('ip-limit');
        const password = await registerVerified(t, email);
        const next = await signIn(t, email, password, ip);
        expect(next.statusCode).toBe(429);
        expect((await signIn(t, email, password, '10.4.0.2')).statusCode).toBe(200);
      },
    );

    it('blocks better-auth endpoints that /v1 manages instead', async () => {
      const cookie = await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD);
      for (const url of [
        '/api/auth/admin/list-users',
        '/api/auth/change-password',
        '/api/auth/update-user',
        '/api/auth/delete-user',
      ]) {
        const response = await t.app.inject({
          method: 'POST',
          url,
          headers: { cookie, origin: TEST_ORIGIN },
          payload: {},
        });
        expect(response.statusCode, url).toBe(404);
      }
    });

    it('signs out', async () => {
      const cookie = await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD);
      const out = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-out',
        headers: { cookie, origin: TEST_ORIGIN },
        payload: {},
      });
      expect(out.statusCode).toBe(200);
      const after = await t.app.inject({ url: '/v1/session', headers: { cookie } });
      expect(after.statusCode).toBe(200);
      expect(after.json()).toBeNull();
    });
  });

  describe('password reset', () => {
    const resetUrl = `${TEST_ORIGIN}/bot/password`;

    it('answers the same success whether or not the address exists', async () => {
      const known = await post(t, '/api/auth/request-password-reset', {
        email: 'admin@example.com',
        redirectTo: resetUrl,
      });
      const unknown = await post(t, '/api/auth/request-password-reset', {
        email: 'nobody@example.com',
        redirectTo: resetUrl,
      });
      expect(known.statusCode).toBe(200);
      expect(known.body).toBe(unknown.body);
      expect(known.json()).toEqual({ status: true, message: 'Password reset email successfull' });
      expect(await mailsTo(t, 'nobody@example.com')).toHaveLength(0);
    });

    it.each([
      [undefined, 400, 'auth/missing-continue-uri'],
      ['', 400, 'auth/missing-continue-uri'],
      ['not a url', 400, 'auth/invalid-continue-uri'],
      ['javascript:alert(1)', 400, 'auth/invalid-continue-uri'],
      ['https://evil.test/bot/password', 403, 'auth/unauthorized-continue-uri'],
      ['http://localhost.evil.test:3000/bot/password', 403, 'auth/unauthorized-continue-uri'],
      ['http://localhost:3000.evil.test/bot/password', 400, 'auth/invalid-continue-uri'],
      ['http://user@localhost:3000/bot/password', 403, 'auth/unauthorized-continue-uri'],
    ])('refuses the continue URL %j', async (redirectTo, status, code) => {
      const response = await post(t, '/api/auth/request-password-reset', {
        email: 'admin@example.com',
        redirectTo,
      });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toMatchObject({ code });
    });

    it('resets once with a token that works once, expires in an hour, and signs out other sessions', async () => {
      const email = newEmail('reset');
      const password = await registerVerified(t, email);
      const oldSession = await sessionCookie(t, email, password);

      await post(t, '/api/auth/request-password-reset', { email, redirectTo: resetUrl });
      const link = await lastLinkTo(t, email);
      const opened = await t.app.inject({ url: pathOf(link) });
      expect(opened.statusCode).toBe(302);
      const landing = new URL(String(opened.headers.location));
      expect(`${landing.origin}${landing.pathname}`).toBe(resetUrl);
      const token = defined(landing.searchParams.get('token'));

      const [stored] = await t.database.db
        .select()
        .from(authVerifications)
        .where(eq(authVerifications.identifier, `reset-password:${token}`));
      const lifetime = new Date(defined(stored).expiresAt).getTime() - Date.now();
      expect(lifetime).toBeGreaterThan(59 * 60_000);
      expect(lifetime).toBeLessThanOrEqual(60 * 60_000);

      const weak = await post(t, '/api/auth/reset-password', { token, newPassword: 'password1234' });
      expect(weak.json()).toMatchObject({ code: 'auth/weak-password' });
      const newPassword = 'Granite-Meadow-Lantern-77';
      expect((await post(t, '/api/auth/reset-password', { token, newPassword })).statusCode).toBe(200);
      const reused = await post(t, '/api/auth/reset-password', {
        token,
        newPassword: 'Another-Granite-Path-88',
      });
      expect(reused.statusCode).toBe(400);
      expect(reused.json()).toMatchObject({ code: 'auth/invalid-action-code' });

      const revoked = await t.app.inject({ url: '/v1/session', headers: { cookie: oldSession } });
      expect(revoked.json()).toBeNull();
      expect((await signIn(t, email, password)).statusCode).toBe(401);
      expect((await signIn(t, email, newPassword)).statusCode).toBe(200);
    });

    it('refuses an expired token, and its link lands on the screen with an error', async () => {
      await post(t, '/api/auth/request-password-reset', { email: 'admin@example.com', redirectTo: resetUrl });
      const link = await lastLinkTo(t, 'admin@example.com');
      const token = defined(new URL(link).pathname.split('/').at(-1));
      await t.database.db
        .update(authVerifications)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(authVerifications.identifier, `reset-password:${token}`));
      const opened = await t.app.inject({ url: pathOf(link) });
      expect(String(opened.headers.location)).toContain('/bot/password?error=INVALID_TOKEN');
      const response = await post(t, '/api/auth/reset-password', {
        token,
        newPassword: 'Granite-Meadow-Lantern-77',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: 'auth/invalid-action-code',
        message: AUTH_MESSAGES.invalidResetToken,
      });
    });

    it('sends at most 3 reset mails per address per hour', async () => {
      const email = newEmail('reset-limit');
      const statuses = [];
      for (let i = 0; i < 4; i += 1)
        statuses.push(
          (await post(t, '/api/auth/request-password-reset', { email, redirectTo: resetUrl })).statusCode,
        );
      expect(statuses).toEqual([200, 200, 200, 429]);
    });
  });

  describe('password change (profile)', () => {
    it('answers 404 "No user is signed in." without a session', async () => {
      const response = await post(t, '/v1/me/password', {
        currentPassword: 'x',
        newPassword: 'Granite-Meadow-Lantern-77',
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ code: 'auth/no-current-user', message: 'No user is signed in.' });
    });

    it('changes the password, refusing a wrong current one and a weak new one', async () => {
      const email = newEmail('change');
      const password = await registerVerified(t, email);
      const cookie = await sessionCookie(t, email, password);
      const change = (currentPassword: string, newPassword: string) =>
        t.app.inject({
          method: 'POST',
          url: '/v1/me/password',
          headers: { cookie, origin: TEST_ORIGIN },
          payload: { currentPassword, newPassword },
        });
      expect((await change('Not-The-Password-1', 'Granite-Meadow-Lantern-77')).json()).toMatchObject({
        code: 'auth/wrong-password',
      });
      expect((await change(password, 'password12345')).json()).toMatchObject({ code: 'auth/weak-password' });
      const ok = await change(password, 'Granite-Meadow-Lantern-77');
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ code: 200 });
      expect((await signIn(t, email, 'Granite-Meadow-Lantern-77')).statusCode).toBe(200);
    });
  });

  it('answers an unexpected failure with 500 "Internal Server Error" and a request id in the log', async () => {
    const broken = await createTestApp();
    await broken.database.close();
    const response = await signIn(broken, 'admin@example.com', TEST_ADMIN_PASSWORD);
    expect(response.statusCode).toBe(500);
    const body = response.json<{ code: string; message: string; requestId: string }>();
    expect(body.message).toBe('Internal Server Error');
    expect(broken.logs.some((line) => line.reqId === body.requestId && line.level === 50)).toBe(true);
    await broken.close();
  });
});

describe('first start', () => {
  it('creates the master with a one-time password printed once, which must be changed first', async () => {
    const t = await createTestApp({ env: { ADMIN_PASSWORD: '', ADMIN_EMAIL: 'root@ops.example.org' } });
    try {
      const line = t.logs.find((entry) => typeof entry.oneTimePassword === 'string');
      const password = defined(line).oneTimePassword as string;
      expect(String(defined(line).msg)).toContain(password);
      const cookie = await sessionCookie(t, 'root@ops.example.org', password);
      const session = await t.app.inject({ url: '/v1/session', headers: { cookie } });
      expect(session.json()).toMatchObject({ role: 'master', must_change_password: true });
      const { tenant_id } = session.json<{ tenant_id: string }>();
      const blocked = await t.app.inject({
        url: `/v1/Account/${tenant_id}`,
        headers: { cookie, 'x-app-id': 'test' },
      });
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json()).toMatchObject({ code: 'auth/password-change-required' });

      const changed = await t.app.inject({
        method: 'POST',
        url: '/v1/me/password',
        headers: { cookie, origin: TEST_ORIGIN },
        payload: { currentPassword: password, newPassword: 'Granite-Meadow-Lantern-77' },
      });
      expect(changed.statusCode).toBe(200);
      const fresh = await sessionCookie(t, 'root@ops.example.org', 'Granite-Meadow-Lantern-77');
      expect(
        (
          await t.app.inject({
            url: `/v1/Account/${tenant_id}`,
            headers: { cookie: fresh, 'x-app-id': 'test' },
          })
        ).statusCode,
      ).toBe(200);

      // A second start creates nothing and prints no password.
      const { bootstrap } = await import('../../bootstrap');
      const before = t.logs.length;
      await bootstrap({ db: t.database.db, env: t.env, auth: t.app.auth, logger: t.app.log });
      expect(t.logs.slice(before).some((entry) => entry.oneTimePassword)).toBe(false);
      expect(await t.database.db.select().from(users).where(eq(users.role, 'master'))).toHaveLength(1);
      expect((await signIn(t, 'root@ops.example.org', 'Granite-Meadow-Lantern-77')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
