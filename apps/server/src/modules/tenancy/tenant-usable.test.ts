import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type AccountCreated, AUTH_MESSAGES, type FeatureCode, FileItemSchema } from '@omnibot/contracts';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authSessions, tenants, users } from '../../db/schema';
import {
  createTestApp,
  mailsTo,
  pathOf,
  register,
  sessionCookie,
  signIn,
  STRONG_PASSWORD,
  TEST_ADMIN_PASSWORD,
  type TestApp,
} from '../../test/app';
import { type Caller, call, fingerprint, makeSignedInUser } from '../accounts/accounts.fixtures';
import { injectUpload } from '../files/files.test-support';
import { isTenantUsable } from './tenant-usable';

let t: TestApp;
let dataDir: string;
let master: Caller;
let sequence = 0;
const next = () => `${Date.now().toString(36)}${++sequence}`;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(tmpdir(), 'omnibot-usable-'));
  // free.test is allowed but owned by no tenant; example.com is the platform tenant's (the master's) domain.
  t = await createTestApp({ env: { DATA_DIR: dataDir, ALLOWED_EMAIL_DOMAINS: 'example.com,free.test' } });
  master = { cookie: await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD) };
});
afterAll(async () => {
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** A tenant created through the API by `caller` (under the caller's own tenant unless `parent` is given). */
async function createAccount(caller: Caller, codes: FeatureCode[], parent?: string) {
  const domain = `u${next()}.test`;
  const response = await call(t, 'POST', `/v1/Account${parent ? `?tenant_id=${parent}` : ''}`, caller, {
    name: `Org ${domain}`,
    address: {},
    info: { domain },
    subscriptions: codes,
  });
  expect(response.statusCode, response.body).toBe(201);
  return { ...response.json<AccountCreated>(), domain };
}

/** A partner (made by the master) and one of its clients, each with a signed-in administrator. */
async function partnerAndClient() {
  const p = await createAccount(master, ['subtenant', 'omnirag']);
  const pAdmin = await makeSignedInUser(t, p.account.tenant_id, `boss@${p.domain}`, 'administrator');
  const c = await createAccount({ cookie: pAdmin.cookie }, ['omnirag']);
  const cAdmin = await makeSignedInUser(t, c.account.tenant_id, `chief@${c.domain}`, 'administrator');
  return {
    p: { ...p, admin: pAdmin, caller: { cookie: pAdmin.cookie } as Caller },
    c: { ...c, admin: cAdmin, caller: { cookie: cAdmin.cookie } as Caller },
  };
}

const setActive = (account: AccountCreated['account'], isActive: boolean, caller: Caller = master) =>
  call(t, 'PUT', `/v1/Account/${account.tenant_id}`, caller, {
    name: account.name,
    address: {},
    info: account.info,
    is_active: isActive,
  });

/** A fresh signed download URL (path and query) for a file the client's administrator uploads. */
async function downloadLink(cookie: string) {
  const stored = await injectUpload(t, cookie, `report-${next()}.txt`, Buffer.from('quarterly numbers'));
  const response = await t.app.inject({
    url: `/v1/files/object?path=${encodeURIComponent(stored)}`,
    headers: { cookie },
  });
  expect(response.statusCode, response.body).toBe(200);
  return pathOf(FileItemSchema.parse(response.json()).url);
}

const sessionsOf = (userIds: string[]) =>
  t.database.db.select().from(authSessions).where(inArray(authSessions.userId, userIds));

describe('a tenant is usable only when it and every ancestor are active', () => {
  it("deactivating a partner cuts off its client's sessions, credential, sign-in, registration and links; reactivating restores them", async () => {
    const { p, c } = await partnerAndClient();
    const clientCredential = { basic: { key: c.credential.key, secret: c.credential.secret } };
    const clientUrl = `/v1/Account/${c.account.tenant_id}`;
    // A member on an allowed domain other than the client's own, so sign-in reaches the session check.
    const outsider = await makeSignedInUser(t, c.account.tenant_id, `outsider-${next()}@example.com`, 'user');
    const link = await downloadLink(c.admin.cookie);
    expect((await call(t, 'GET', clientUrl, c.caller)).statusCode).toBe(200);
    expect((await call(t, 'GET', clientUrl, clientCredential)).statusCode).toBe(200);
    expect((await t.app.inject({ url: link })).body).toBe('quarterly numbers');

    expect((await setActive(p.account, false)).statusCode).toBe(200);

    expect(await sessionsOf([c.admin.id, outsider.id, p.admin.id])).toHaveLength(0);
    expect((await call(t, 'GET', clientUrl, c.caller)).statusCode).toBe(401);
    expect((await call(t, 'GET', clientUrl, { cookie: outsider.cookie })).statusCode).toBe(401);
    const credential = await call(t, 'GET', clientUrl, clientCredential);
    expect(credential.statusCode).toBe(403);
    expect(credential.json()).toEqual({
      code: 'auth/tenant-disabled',
      message: 'This organisation is deactivated.',
    });
    // The same answers a user of a deactivated tenant gets: its domain leaves the allowlist, and a member on
    // another allowed domain is told the user is disabled.
    const ownDomain = await signIn(t, c.admin.email, STRONG_PASSWORD);
    expect(ownDomain.statusCode).toBe(403);
    expect(ownDomain.json()).toEqual({
      code: 'auth/unauthorized-domain',
      message: AUTH_MESSAGES.domainNotAllowed,
    });
    const otherDomain = await signIn(t, outsider.email, STRONG_PASSWORD);
    expect(otherDomain.statusCode).toBe(403);
    expect(otherDomain.json()).toEqual({ code: 'auth/user-disabled', message: AUTH_MESSAGES.userDisabled });
    expect(await sessionsOf([c.admin.id, outsider.id])).toHaveLength(0);

    const before = await fingerprint(t);
    const newcomer = `newcomer-${next()}@${c.domain}`;
    const registration = await register(t, newcomer, STRONG_PASSWORD);
    expect(registration.statusCode).toBe(403);
    expect(registration.json()).toEqual({
      code: 'auth/unauthorized-domain',
      message: AUTH_MESSAGES.domainNotAllowed,
    });
    expect(await fingerprint(t)).toBe(before);
    expect(await mailsTo(t, newcomer)).toHaveLength(0);

    const refused = await t.app.inject({ url: link });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: 'storage/unauthorized',
      message: 'This organisation is deactivated.',
    });

    expect((await setActive(p.account, true)).statusCode).toBe(200);

    expect((await signIn(t, c.admin.email, STRONG_PASSWORD)).statusCode).toBe(200);
    expect((await signIn(t, outsider.email, STRONG_PASSWORD)).statusCode).toBe(200);
    expect((await call(t, 'GET', clientUrl, clientCredential)).statusCode).toBe(200);
    expect((await t.app.inject({ url: link })).body).toBe('quarterly numbers');
    expect((await register(t, newcomer, STRONG_PASSWORD)).statusCode).toBe(200);
    const [joined] = await t.database.db.select().from(users).where(eq(users.email, newcomer));
    expect(joined).toMatchObject({ tenantId: c.account.tenant_id, role: 'user' });
  });

  it('keeps a client that is itself inactive unusable when its partner comes back', async () => {
    const { p, c } = await partnerAndClient();
    const clientCredential = { basic: { key: c.credential.key, secret: c.credential.secret } };
    expect((await setActive(c.account, false, p.caller)).statusCode).toBe(200);
    expect((await setActive(p.account, false)).statusCode).toBe(200);
    expect((await setActive(p.account, true)).statusCode).toBe(200);

    expect(await isTenantUsable(t.database.db, p.account.tenant_id)).toBe(true);
    expect(await isTenantUsable(t.database.db, c.account.tenant_id)).toBe(false);
    expect((await call(t, 'GET', `/v1/Account/${c.account.tenant_id}`, clientCredential)).statusCode).toBe(
      403,
    );
    expect((await signIn(t, c.admin.email, STRONG_PASSWORD)).statusCode).toBe(403);
  });

  it('refuses a surviving session and credential of a client whose partner was switched off directly', async () => {
    const { p, c } = await partnerAndClient();
    const link = await downloadLink(c.admin.cookie);
    // Flipped in the database, so no session is ended: every request must check the chain itself.
    await t.database.db
      .update(tenants)
      .set({ isActive: false })
      .where(eq(tenants.tenantId, p.account.tenant_id));
    expect(await sessionsOf([c.admin.id])).not.toHaveLength(0);

    const session = await call(t, 'GET', `/v1/Account/${c.account.tenant_id}`, c.caller);
    expect(session.statusCode).toBe(403);
    expect(session.json()).toEqual({ code: 'auth/user-disabled', message: AUTH_MESSAGES.userDisabled });
    const files = await t.app.inject({ url: '/v1/files', headers: { cookie: c.admin.cookie } });
    expect(files.statusCode).toBe(403);
    expect((await t.app.inject({ url: link })).statusCode).toBe(403);
    const credential = await call(t, 'GET', `/v1/Account/${c.account.tenant_id}`, {
      basic: { key: c.credential.key, secret: c.credential.secret },
    });
    expect(credential.statusCode).toBe(403);

    await t.database.db
      .update(tenants)
      .set({ isActive: true })
      .where(eq(tenants.tenantId, p.account.tenant_id));
    expect((await call(t, 'GET', `/v1/Account/${c.account.tenant_id}`, c.caller)).statusCode).toBe(200);
  });

  it('answers false for a tenant that does not exist and true for the platform', async () => {
    expect(await isTenantUsable(t.database.db, 'no-such-tenant')).toBe(false);
    const [platform] = await t.database.db.select().from(tenants).where(eq(tenants.type, '1'));
    expect(await isTenantUsable(t.database.db, platform?.tenantId ?? '')).toBe(true);
  });
});

describe("an e-mail domain belongs to its tenant's subtree", () => {
  const invite = (tenantId: string, caller: Caller, email: string) =>
    call(t, 'POST', `/v1/Account/${tenantId}/User`, caller, { email, role: 'user' });

  it("refuses an invitation to another organisation's domain with 409, storing and sending nothing", async () => {
    const a = await partnerAndClient();
    const b = await partnerAndClient();
    const attempts: Array<[string, string, Caller, string]> = [
      ['partner B takes partner A', b.p.account.tenant_id, b.p.caller, a.p.domain],
      ['partner B takes client A', b.p.account.tenant_id, b.p.caller, a.c.domain],
      ['client B takes client A, inviting into itself', b.c.account.tenant_id, b.c.caller, a.c.domain],
      ["partner B takes the platform's domain", b.p.account.tenant_id, b.p.caller, 'example.com'],
      ["client A takes its own partner's domain", a.c.account.tenant_id, a.c.caller, a.p.domain],
      [
        "partner B's API credential takes partner A",
        b.p.account.tenant_id,
        { basic: { key: b.p.credential.key, secret: b.p.credential.secret } },
        a.p.domain,
      ],
    ];
    for (const [label, tenantId, caller, domain] of attempts) {
      const before = await fingerprint(t);
      const email = `taken-${next()}@${domain}`;
      const response = await invite(tenantId, caller, email);
      expect(response.statusCode, label).toBe(409);
      expect(response.json(), label).toEqual({
        code: 'domain_taken',
        message: 'This e-mail domain belongs to another organisation.',
      });
      expect(await fingerprint(t), label).toBe(before);
      expect(await mailsTo(t, email), label).toHaveLength(0);
    }
  });

  it('keeps a deactivated organisation’s domain its own', async () => {
    const a = await partnerAndClient();
    const b = await partnerAndClient();
    expect((await setActive(a.p.account, false)).statusCode).toBe(200);
    const before = await fingerprint(t);
    const response = await invite(b.p.account.tenant_id, b.p.caller, `late-${next()}@${a.c.domain}`);
    expect(response.statusCode).toBe(409);
    expect(await fingerprint(t)).toBe(before);
  });

  it("lets an administrator invite on its own subtree's domains, and a master anywhere", async () => {
    const a = await partnerAndClient();
    const b = await partnerAndClient();
    const intoPartner = await invite(a.p.account.tenant_id, a.p.caller, `down-${next()}@${a.c.domain}`);
    expect(intoPartner.statusCode, intoPartner.body).toBe(201);
    const intoClient = await invite(a.c.account.tenant_id, a.p.caller, `own-${next()}@${a.c.domain}`);
    expect(intoClient.statusCode, intoClient.body).toBe(201);
    const byMaster = await invite(b.p.account.tenant_id, master, `moved-${next()}@${a.p.domain}`);
    expect(byMaster.statusCode, byMaster.body).toBe(201);
    // A domain nobody owns still follows the allowlist.
    const allowed = await invite(b.p.account.tenant_id, b.p.caller, `free-${next()}@free.test`);
    expect(allowed.statusCode, allowed.body).toBe(201);
  });

  it('lets registration join only the usable tenant that owns the domain', async () => {
    const { c } = await partnerAndClient();
    const email = `self-${next()}@${c.domain}`;
    expect((await register(t, email, STRONG_PASSWORD)).statusCode).toBe(200);
    const [joined] = await t.database.db.select().from(users).where(eq(users.email, email));
    expect(joined?.tenantId).toBe(c.account.tenant_id);
    const before = await fingerprint(t);
    const unowned = await register(t, `nobody-${next()}@unowned-${next()}.test`, STRONG_PASSWORD);
    expect(unowned.statusCode).toBe(403);
    expect(await fingerprint(t)).toBe(before);
  });
});
