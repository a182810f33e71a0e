import {
  type AccountCreated,
  AUTH_MESSAGES,
  type FeatureCode,
  type Profile,
  type Subscription,
} from '@omnibot/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  authSessions,
  authUsers,
  authVerifications,
  credentials,
  subscriptions,
  tenants,
} from '../../db/schema';
import { requireFeature } from '../auth/feature-guard';
import { requirePrincipal } from '../auth/principal';
import {
  createTestApp,
  lastLinkTo,
  mailsTo,
  pathOf,
  sessionCookie,
  signIn,
  STRONG_PASSWORD,
  TEST_ADMIN_PASSWORD,
  TEST_ORIGIN,
  type TestApp,
} from '../../test/app';
import { type Caller, call, makeSignedInUser, makeUser, platformTenantId } from './accounts.fixtures';
import { defined } from '../../test/defined';

let t: TestApp;
let master: Caller;
let masterId: string;
let platformId: string;
let sequence = 0;
const next = () => `${Date.now().toString(36)}${++sequence}`;

beforeAll(async () => {
  t = await createTestApp({ skipReady: true });
  // A route of a future feature, guarded the way every feature route is.
  t.app.get(
    '/v1/test/omnirag-only',
    { preHandler: [requirePrincipal(t.app.identity), requireFeature(t.database.db, 'omnirag')] },
    async () => ({ ok: true }),
  );
  await t.app.ready();
  master = { cookie: await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD) };
  platformId = await platformTenantId(t);
  const [row] = await t.database.db
    .select({ id: authUsers.id })
    .from(authUsers)
    .where(eq(authUsers.email, 'admin@example.com'));
  masterId = defined(row).id;
});
let scenarios = 0;
afterEach(() => {
  scenarios += 1;
});
afterAll(async () => {
  console.log(`tenancy semantics: ${scenarios} scenarios run`);
  await t.close();
});

/** Creates a tenant through the API as `caller` (under `parent` when given). */
async function createAccount(caller: Caller, codes: FeatureCode[], parent?: string) {
  const domain = `t${next()}.test`;
  const response = await call(t, 'POST', `/v1/Account${parent ? `?tenant_id=${parent}` : ''}`, caller, {
    name: `Org ${domain}`,
    address: { city: 'Lisbon' },
    info: { domain, timezone: 'Europe/Lisbon' },
    subscriptions: codes,
  });
  return { response, domain, body: response.json<AccountCreated>() };
}

/** A partner created by the master, with a signed-in administrator. */
async function partner(codes: FeatureCode[] = ['subtenant', 'omnirag']) {
  const { body, domain } = await createAccount(master, codes);
  const admin = await makeSignedInUser(t, body.account.tenant_id, `boss@${domain}`, 'administrator');
  return { ...body, domain, admin, adminCaller: { cookie: admin.cookie } as Caller };
}

/** A partner and one of its clients, each with a signed-in administrator. */
async function partnerAndClient(clientCodes: FeatureCode[] = ['omnirag']) {
  const p = await partner();
  const { body, domain } = await createAccount(p.adminCaller, clientCodes);
  const admin = await makeSignedInUser(t, body.account.tenant_id, `chief@${domain}`, 'administrator');
  return { p, c: { ...body, domain, admin, adminCaller: { cookie: admin.cookie } as Caller } };
}

const auditRows = (tenantId: string) =>
  t.database.db.select().from(auditLog).where(eq(auditLog.tenantId, tenantId)).orderBy(auditLog.createdAt);

describe('tenants: types, hierarchy and creation', () => {
  it('creates a partner under the platform with a generated id, a credential shown once and subscriptions', async () => {
    const { response, body, domain } = await createAccount(master, ['subtenant', 'omnirag']);
    expect(response.statusCode).toBe(201);
    expect(body.code).toBe(201);
    expect(body.account).toMatchObject({
      type: '2',
      parent_tenant_id: platformId,
      is_active: true,
      name: `Org ${domain}`,
      address: { city: 'Lisbon' },
      info: { domain, timezone: 'Europe/Lisbon' },
      created_by: masterId,
    });
    expect(body.account.tenant_id).toMatch(/^[a-z2-9]{12}$/);
    expect(body.subscriptions.map((s) => [s.info.code, s.info.name, s.is_current])).toEqual([
      ['omnirag', 'Omni RAG', true],
      ['subtenant', 'Client Organisations', true],
    ]);
    expect(body.credential.secret.length).toBeGreaterThanOrEqual(40);

    // The secret is stored only as a hash, and every later read masks it.
    const [stored] = await t.database.db
      .select()
      .from(credentials)
      .where(eq(credentials.tenantId, body.account.tenant_id));
    expect(defined(stored).secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(body.credential.secret);
    const read = await call(t, 'GET', `/v1/Account/${body.account.tenant_id}/credential`, master);
    expect(read.json()).toEqual({
      code: 200,
      key: body.credential.key,
      secret: `****${body.credential.secret.slice(-4)}`,
    });
    const audit = await auditRows(body.account.tenant_id);
    expect(audit.map((row) => [row.action, row.actorId, row.actorKind, row.ip])).toEqual([
      ['tenant.create', masterId, 'user', '127.0.0.1'],
      ['credential.create', masterId, 'user', '127.0.0.1'],
    ]);
    expect(JSON.stringify(audit)).not.toContain(body.credential.secret);
    await t.app.mailer.flush();
    expect(JSON.stringify(t.logs)).not.toContain(body.credential.secret);
  });

  it('gives a partner\'s children type "3"; a client creates none; a partner needs the subtenant code', async () => {
    const p = await partner();
    const client = await createAccount(p.adminCaller, ['omnirag']);
    expect(client.response.statusCode).toBe(201);
    expect(client.body.account).toMatchObject({ type: '3', parent_tenant_id: p.account.tenant_id });

    const clientAdmin = await makeSignedInUser(
      t,
      client.body.account.tenant_id,
      `chief@${client.domain}`,
      'administrator',
    );
    const grandchild = await createAccount({ cookie: clientAdmin.cookie }, ['omnirag']);
    expect(grandchild.response.statusCode).toBe(403);
    expect(grandchild.response.json()).toEqual({
      code: 'forbidden',
      message: 'A client organisation cannot create organisations.',
    });
    // Not even a master can give a client a child.
    const byMaster = await createAccount(master, ['omnirag'], client.body.account.tenant_id);
    expect(byMaster.response.statusCode).toBe(403);

    const noSubtenant = await partner(['omnirag']);
    const refused = await createAccount(noSubtenant.adminCaller, ['omnirag']);
    expect(refused.response.statusCode).toBe(403);
    expect(refused.response.json()).toEqual({
      code: 'forbidden',
      message: 'Your organisation has no Client Organisations subscription.',
    });
    const children = await t.database.db
      .select()
      .from(tenants)
      .where(inArray(tenants.parentTenantId, [noSubtenant.account.tenant_id, client.body.account.tenant_id]));
    expect(children).toHaveLength(0);
  });

  it('lets a master create a client under a partner, and a partner pass on only codes it holds', async () => {
    const p = await partner(['subtenant', 'omnirag']);
    const viaMaster = await createAccount(master, ['omnirag'], p.account.tenant_id);
    expect(viaMaster.response.statusCode).toBe(201);
    expect(viaMaster.body.account).toMatchObject({ type: '3', parent_tenant_id: p.account.tenant_id });

    const before = await t.database.db.select().from(tenants);
    const notHeld = await createAccount(p.adminCaller, ['omnirag', 'casesummary']);
    expect(notHeld.response.statusCode).toBe(403);
    expect(notHeld.response.json()).toEqual({
      code: 'subscription_not_held',
      message: 'Your organisation cannot pass on subscriptions it does not hold: Case Summarization.',
    });
    const none = await call(t, 'POST', '/v1/Account', p.adminCaller, { name: 'X', subscriptions: [] });
    expect(none.statusCode).toBe(400);
    expect(await t.database.db.select().from(tenants)).toHaveLength(before.length);
  });

  it('refuses a domain another organisation already uses', async () => {
    const first = await createAccount(master, ['omnirag']);
    const again = await call(t, 'POST', '/v1/Account', master, {
      name: 'Copycat',
      info: { domain: first.domain.toUpperCase() },
      subscriptions: ['omnirag'],
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: 'domain_taken',
      message: 'Another organisation already uses this domain.',
    });
  });

  it('lists children, finds by domain within reach, and updates the full object', async () => {
    const { p, c } = await partnerAndClient();
    const list = await call(t, 'GET', `/v1/Account?tenant_id=${p.account.tenant_id}`, p.adminCaller);
    expect(list.json()).toEqual({
      code: 200,
      items: [expect.objectContaining({ tenant_id: c.account.tenant_id, type: '3' })],
    });
    // Without ?tenant_id the caller's own tenant is the parent.
    expect((await call(t, 'GET', '/v1/Account', p.adminCaller)).json()).toEqual(list.json());
    expect(
      (await call(t, 'GET', `/v1/Account?tenant_id=${c.account.tenant_id}`, p.adminCaller)).json(),
    ).toEqual({
      code: 404,
      message: 'No accounts',
    });

    const byDomain = await call(
      t,
      'GET',
      `/v1/Account/${p.account.tenant_id}?type=domain&data=${c.domain}`,
      p.adminCaller,
    );
    expect(byDomain.json()).toEqual([expect.objectContaining({ tenant_id: c.account.tenant_id })]);
    // The client cannot find its parent by domain, nor can a stranger find the client.
    expect(
      (
        await call(t, 'GET', `/v1/Account/${c.account.tenant_id}?type=domain&data=${p.domain}`, c.adminCaller)
      ).json(),
    ).toEqual([{ code: 404, message: 'Account not found' }]);
    const stranger = await partner();
    expect(
      (
        await call(
          t,
          'GET',
          `/v1/Account/${stranger.account.tenant_id}?type=domain&data=${c.domain}`,
          stranger.adminCaller,
        )
      ).json(),
    ).toEqual([{ code: 404, message: 'Account not found' }]);

    const update = await call(t, 'PUT', `/v1/Account/${c.account.tenant_id}`, c.adminCaller, {
      ...c.account,
      name: 'Renamed Client',
      address: { street: '1 Main St', city: 'Porto' },
      info: { domain: c.domain, website: 'https://client.test' },
    });
    expect(update.statusCode).toBe(200);
    expect(update.json()).toMatchObject({
      code: 200,
      account: {
        name: 'Renamed Client',
        address: { street: '1 Main St', city: 'Porto' },
        info: { domain: c.domain, website: 'https://client.test' },
        updated_by: c.admin.id,
      },
    });
  });
});

describe('tenant is_active', () => {
  it('only a parent administrator or a master changes it; deactivation blocks sign-in and ends sessions', async () => {
    const { p, c } = await partnerAndClient();
    const member = await makeSignedInUser(t, c.account.tenant_id, `member@${c.domain}`, 'user');
    const body = (is_active: boolean) => ({
      name: c.account.name,
      address: {},
      info: { domain: c.domain },
      is_active,
    });

    const self = await call(t, 'PUT', `/v1/Account/${c.account.tenant_id}`, c.adminCaller, body(false));
    expect(self.statusCode).toBe(403);
    expect(self.json()).toEqual({
      code: 'forbidden',
      message: 'Only the parent organisation can activate or deactivate this organisation.',
    });
    // The same value is no change, so the tenant itself may send it.
    expect(
      (await call(t, 'PUT', `/v1/Account/${c.account.tenant_id}`, c.adminCaller, body(true))).statusCode,
    ).toBe(200);

    const off = await call(t, 'PUT', `/v1/Account/${c.account.tenant_id}`, p.adminCaller, body(false));
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ account: { is_active: false } });
    const sessions = await t.database.db
      .select()
      .from(authSessions)
      .where(inArray(authSessions.userId, [member.id, c.admin.id]));
    expect(sessions).toHaveLength(0);
    expect(
      (await call(t, 'GET', `/v1/Account/${c.account.tenant_id}`, { cookie: member.cookie })).statusCode,
    ).toBe(401);
    const blocked = await signIn(t, member.email, STRONG_PASSWORD);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({ message: AUTH_MESSAGES.domainNotAllowed });
    // The domain of a deactivated tenant leaves the allowlist; a member on another allowed domain gets the
    // user-disabled message.
    const outsider = await makeUser(t, c.account.tenant_id, `outsider-${next()}@example.com`, 'user');
    const disabled = await signIn(t, outsider.email, STRONG_PASSWORD);
    expect(disabled.statusCode).toBe(403);
    expect(disabled.json()).toEqual({ code: 'auth/user-disabled', message: AUTH_MESSAGES.userDisabled });

    expect((await call(t, 'PUT', `/v1/Account/${c.account.tenant_id}`, master, body(true))).statusCode).toBe(
      200,
    );
    expect((await signIn(t, member.email, STRONG_PASSWORD)).statusCode).toBe(200);
    const actions = (await auditRows(c.account.tenant_id)).map((row) => [row.action, row.details]);
    expect(actions).toContainEqual(['tenant.update', { is_active: false }]);
    expect(actions).toContainEqual(['tenant.update', { is_active: true }]);
  });

  it('never deactivates the platform tenant', async () => {
    const [platform] = await t.database.db.select().from(tenants).where(eq(tenants.tenantId, platformId));
    const response = await call(t, 'PUT', `/v1/Account/${platformId}`, master, {
      name: defined(platform).name,
      address: {},
      info: defined(platform).info,
      is_active: false,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ message: 'The platform organisation cannot be deactivated.' });
  });
});

describe('credentials', () => {
  it('creates once, resets, regenerates key and secret; each change is audited with actor and IP', async () => {
    const p = await partner();
    const tenantId = p.account.tenant_id;
    const url = (path: string) => `/v1/Account/${tenantId}/${path}`;
    const fromIp = { ...p.adminCaller, remoteAddress: '203.0.113.7' };
    const works = async (key: string, secret: string) =>
      (await call(t, 'GET', `/v1/Account/${tenantId}`, { basic: { key, secret } })).statusCode;

    expect(await works(p.credential.key, p.credential.secret)).toBe(200);
    const again = await call(t, 'POST', url('credential'), fromIp);
    expect(again.statusCode).toBe(409);

    const reset = await call(t, 'PUT', url('credential'), fromIp);
    expect(reset.statusCode).toBe(200);
    const r = reset.json<{ code: number; key: string; secret: string }>();
    expect(r.code).toBe(200);
    expect(r.key).not.toBe(p.credential.key);
    expect(r.secret).not.toBe(p.credential.secret);
    expect(await works(p.credential.key, p.credential.secret)).toBe(401);
    expect(await works(r.key, r.secret)).toBe(200);

    const newKey = (await call(t, 'POST', url('key'), fromIp, {})).json<{ key: string; secret: string }>();
    expect(newKey.secret).toBe(`****${r.secret.slice(-4)}`);
    expect(await works(r.key, r.secret)).toBe(401);
    expect(await works(newKey.key, r.secret)).toBe(200);
    const newerKey = (await call(t, 'PUT', url('key'), fromIp)).json<{ key: string }>();
    expect(newerKey.key).not.toBe(newKey.key);

    const newSecret = (await call(t, 'PUT', url('secret'), fromIp)).json<{ key: string; secret: string }>();
    expect(newSecret.key).toBe(newerKey.key);
    expect(await works(newerKey.key, r.secret)).toBe(401);
    expect(await works(newerKey.key, newSecret.secret)).toBe(200);
    const newestSecret = (await call(t, 'POST', url('secret'), fromIp)).json<{ secret: string }>();
    expect(await works(newerKey.key, newestSecret.secret)).toBe(200);

    // GET never shows more than the last 4 characters.
    expect((await call(t, 'GET', url('credential'), p.adminCaller)).json()).toEqual({
      code: 200,
      key: newerKey.key,
      secret: `****${newestSecret.secret.slice(-4)}`,
    });
    const audit = (await auditRows(tenantId)).filter((row) => row.action.startsWith('credential.'));
    expect(audit.map((row) => [row.action, row.actorId, row.ip])).toEqual([
      ['credential.create', masterId, '127.0.0.1'],
      ['credential.reset', p.admin.id, '203.0.113.7'],
      ['credential.key', p.admin.id, '203.0.113.7'],
      ['credential.key', p.admin.id, '203.0.113.7'],
      ['credential.secret', p.admin.id, '203.0.113.7'],
      ['credential.secret', p.admin.id, '203.0.113.7'],
    ]);
    const secrets = [p.credential.secret, r.secret, newSecret.secret, newestSecret.secret];
    const everything = JSON.stringify(audit) + JSON.stringify(t.logs);
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });

  it('creates a credential where none exists, and answers 404 for the other calls there', async () => {
    const p = await partner();
    await t.database.db.delete(credentials).where(eq(credentials.tenantId, p.account.tenant_id));
    const base = `/v1/Account/${p.account.tenant_id}`;
    expect((await call(t, 'GET', `${base}/credential`, p.adminCaller)).json()).toEqual({
      code: 404,
      message: 'No credential',
    });
    for (const path of ['credential', 'key', 'secret']) {
      const response = await call(t, 'PUT', `${base}/${path}`, p.adminCaller);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found' });
    }
    const created = await call(t, 'POST', `${base}/credential`, p.adminCaller);
    expect(created.statusCode).toBe(201);
    const fresh = created.json<{ code: number; key: string; secret: string }>();
    expect(fresh.code).toBe(201);
    expect(fresh.secret).toMatch(/^[\w-]{43}$/);
  });

  it('authenticates HTTP Basic key:secret as an administrator of its own tenant and descendants only', async () => {
    const { p, c } = await partnerAndClient();
    const basic = { basic: { key: p.credential.key, secret: p.credential.secret } };
    expect((await call(t, 'GET', `/v1/Account/${c.account.tenant_id}`, basic)).json()).toEqual([
      expect.objectContaining({ tenant_id: c.account.tenant_id }),
    ]);
    expect((await call(t, 'GET', `/v1/Account/${platformId}`, basic)).json()).toEqual([
      { code: 404, message: 'Account not found' },
    ]);
    const user = await call(t, 'POST', `/v1/Account/${p.account.tenant_id}/User`, basic, {
      email: `robot-made-${next()}@${p.domain}`,
      role: 'administrator',
    });
    expect(user.statusCode).toBe(201);
    expect(user.json<{ user: Profile }>().user.created_by).toMatch(/^credential:/);
    const asMaster = await call(t, 'POST', `/v1/Account/${p.account.tenant_id}/User`, basic, {
      email: `robot-master-${next()}@${p.domain}`,
      role: 'master',
    });
    expect(asMaster.statusCode).toBe(403);
    const ownSwitch = await call(t, 'PUT', `/v1/Account/${p.account.tenant_id}`, basic, {
      name: 'x',
      address: {},
      info: { domain: p.domain },
      is_active: false,
    });
    expect(ownSwitch.statusCode).toBe(403);
    const [audit] = (await auditRows(p.account.tenant_id)).filter((row) => row.action === 'user.create');
    expect(audit).toMatchObject({ actorKind: 'credential' });
  });

  it('answers every wrong credential with the same 401, never saying which half was wrong', async () => {
    const p = await partner();
    const url = `/v1/Account/${p.account.tenant_id}`;
    const attempts = [
      basicHeaderRaw(`${p.credential.key}:wrong-secret`),
      basicHeaderRaw(`no-such-key:${p.credential.secret}`),
      basicHeaderRaw(`${p.credential.key}:`),
      basicHeaderRaw(p.credential.key),
      basicHeaderRaw(''),
      'Basic !!!not-base64!!!',
      'Bearer something',
      `Basic ${Buffer.from(`${p.credential.key}:${p.credential.secret}`).toString('base64')}x`,
    ];
    const bodies = new Set<string>();
    for (const authorization of attempts) {
      const response = await t.app.inject({ url, headers: { authorization, 'x-app-id': 'robot' } });
      expect(response.statusCode, authorization).toBe(401);
      bodies.add(response.body);
    }
    expect([...bodies]).toEqual([
      JSON.stringify({ code: 'unauthenticated', message: 'Invalid API credential.' }),
    ]);
  });

  it("stops a deactivated tenant's credential", async () => {
    const { p, c } = await partnerAndClient();
    await call(t, 'PUT', `/v1/Account/${c.account.tenant_id}`, p.adminCaller, {
      name: c.account.name,
      address: {},
      info: { domain: c.domain },
      is_active: false,
    });
    const response = await call(t, 'GET', `/v1/Account/${c.account.tenant_id}`, {
      basic: { key: c.credential.key, secret: c.credential.secret },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      code: 'auth/tenant-disabled',
      message: 'This organisation is deactivated.',
    });
  });
});

const basicHeaderRaw = (value: string) => `Basic ${Buffer.from(value).toString('base64')}`;

describe('subscriptions', () => {
  it("a parent assigns and revokes a child's codes it holds; nobody edits their own", async () => {
    const { p, c } = await partnerAndClient(['omnirag']);
    const base = `/v1/Account/${c.account.tenant_id}/Subscription`;
    const notHeld = await call(t, 'POST', base, p.adminCaller, { info: { code: 'casesummary' } });
    expect(notHeld.statusCode).toBe(403);
    expect(notHeld.json()).toEqual({
      code: 'subscription_not_held',
      message: 'The parent organisation has no current Case Summarization subscription to pass on.',
    });
    const given = await call(t, 'POST', base, p.adminCaller, {
      info: { code: 'subtenant', name: 'ignored' },
      ends_at: '2099-01-01T00:00:00.000Z',
    });
    expect(given.statusCode).toBe(201);
    const sub = given.json<{ subscription: Subscription }>().subscription;
    expect(sub).toMatchObject({
      tenant_id: c.account.tenant_id,
      info: { code: 'subtenant', name: 'Client Organisations' },
      status: 'active',
      ends_at: '2099-01-01T00:00:00.000Z',
      is_current: true,
    });
    expect((await call(t, 'POST', base, p.adminCaller, { info: { code: 'subtenant' } })).statusCode).toBe(
      409,
    );
    expect((await call(t, 'GET', `${base}/${sub.id}`, c.adminCaller)).json()).toEqual({
      code: 200,
      subscription: sub,
    });

    // The client may read its subscriptions but not change them.
    const own = await call(t, 'PUT', `${base}/${sub.id}`, c.adminCaller, { status: 'revoked' });
    expect(own.statusCode).toBe(403);
    expect(own.json()).toEqual({
      code: 'forbidden',
      message: "Your organisation's subscriptions are managed by its parent organisation.",
    });
    const ownPartner = await call(
      t,
      'POST',
      `/v1/Account/${p.account.tenant_id}/Subscription`,
      p.adminCaller,
      {
        info: { code: 'casesummary' },
      },
    );
    expect(ownPartner.statusCode).toBe(403);

    const revoked = await call(t, 'PUT', `${base}/${sub.id}`, p.adminCaller, { ...sub, status: 'revoked' });
    expect(revoked.json()).toMatchObject({
      code: 200,
      subscription: { status: 'revoked', is_current: false },
    });
    const badPeriod = await call(t, 'PUT', `${base}/${sub.id}`, p.adminCaller, {
      status: 'active',
      starts_at: '2030-01-01T00:00:00Z',
      ends_at: '2029-01-01T00:00:00Z',
    });
    expect(badPeriod.statusCode).toBe(400);
  });

  it('revoking a code revokes it in every descendant, and re-granting needs the parent to hold it', async () => {
    const { p, c } = await partnerAndClient(['omnirag']);
    const partnerSubs = (
      await call(t, 'GET', `/v1/Account/${p.account.tenant_id}/Subscription`, master)
    ).json<{ items: Subscription[] }>().items;
    const omnirag = defined(partnerSubs.find((s) => s.info.code === 'omnirag'));
    const revoke = await call(
      t,
      'PUT',
      `/v1/Account/${p.account.tenant_id}/Subscription/${omnirag.id}`,
      master,
      {
        status: 'revoked',
      },
    );
    expect(revoke.statusCode).toBe(200);
    const clientSubs = (
      await call(t, 'GET', `/v1/Account/${c.account.tenant_id}/Subscription`, p.adminCaller)
    ).json<{ items: Subscription[] }>().items;
    expect(clientSubs.map((s) => [s.info.code, s.status])).toEqual([['omnirag', 'revoked']]);
    const regrant = await call(
      t,
      'PUT',
      `/v1/Account/${c.account.tenant_id}/Subscription/${defined(clientSubs[0]).id}`,
      p.adminCaller,
      { status: 'active' },
    );
    expect(regrant.statusCode).toBe(403);
    expect(regrant.json()).toMatchObject({ code: 'subscription_not_held' });
  });

  it("lets only a master edit the platform tenant's own subscriptions", async () => {
    const platformAdmin = await makeSignedInUser(t, platformId, `ops-${next()}@example.com`, 'administrator');
    const subs = (await call(t, 'GET', `/v1/Account/${platformId}/Subscription`, master)).json<{
      items: Subscription[];
    }>().items;
    const target = defined(subs.find((s) => s.info.code === 'casesummary'));
    const url = `/v1/Account/${platformId}/Subscription/${target.id}`;
    expect(
      (await call(t, 'PUT', url, { cookie: platformAdmin.cookie }, { status: 'active' })).statusCode,
    ).toBe(403);
    const byMaster = await call(t, 'PUT', url, master, { status: 'active', ends_at: null });
    expect(byMaster.statusCode).toBe(200);
  });

  it('answers sign-in with "no active subscription" once every subscription lapsed; the platform is exempt', async () => {
    const { p, c } = await partnerAndClient(['omnirag']);
    const member = await makeUser(t, c.account.tenant_id, `late-${next()}@${c.domain}`, 'user');
    expect((await signIn(t, member.email, STRONG_PASSWORD)).statusCode).toBe(200);
    const [sub] = (
      await call(t, 'GET', `/v1/Account/${c.account.tenant_id}/Subscription`, p.adminCaller)
    ).json<{ items: Subscription[] }>().items;
    // Lapsed by date (still "active", but ended yesterday).
    const lapsed = await call(
      t,
      'PUT',
      `/v1/Account/${c.account.tenant_id}/Subscription/${defined(sub).id}`,
      p.adminCaller,
      {
        status: 'active',
        starts_at: new Date(Date.now() - 7 * 86_400_000).toISOString(),
        ends_at: new Date(Date.now() - 86_400_000).toISOString(),
      },
    );
    expect(lapsed.json()).toMatchObject({ subscription: { is_current: false } });
    const refused = await signIn(t, member.email, STRONG_PASSWORD);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: 'auth/no-active-subscription',
      message: 'Your organisation has no active subscription. Contact your administrator.',
    });

    // Straight in the database: revoking through the API would cascade to every tenant of this suite.
    const platformSubs = eq(subscriptions.tenantId, platformId);
    await t.database.db.update(subscriptions).set({ status: 'revoked' }).where(platformSubs);
    try {
      expect((await signIn(t, 'admin@example.com', TEST_ADMIN_PASSWORD)).statusCode).toBe(200);
    } finally {
      await t.database.db.update(subscriptions).set({ status: 'active' }).where(platformSubs);
    }
  });
});

describe('feature guard', () => {
  it('answers 403 for a tenant without the code and lets a tenant with it through', async () => {
    const { p, c } = await partnerAndClient(['omnirag']);
    const other = await createAccount(p.adminCaller, ['subtenant']);
    const without = await makeSignedInUser(
      t,
      other.body.account.tenant_id,
      `x-${next()}@${other.domain}`,
      'user',
    );
    const denied = await t.app.inject({ url: '/v1/test/omnirag-only', headers: { cookie: without.cookie } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({
      code: 'forbidden',
      message: 'Your organisation has no Omni RAG subscription.',
    });
    const allowed = await t.app.inject({ url: '/v1/test/omnirag-only', headers: { cookie: c.admin.cookie } });
    expect(allowed.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/test/omnirag-only' })).statusCode).toBe(401);

    // A subscription still "active" whose end date has passed no longer counts, from the next request on.
    const ended = new Date(Date.now() - 60_000);
    await t.database.db
      .update(subscriptions)
      .set({ endsAt: ended })
      .where(and(eq(subscriptions.tenantId, c.account.tenant_id), eq(subscriptions.code, 'omnirag')));
    const lapsed = await t.app.inject({ url: '/v1/test/omnirag-only', headers: { cookie: c.admin.cookie } });
    expect(lapsed.statusCode).toBe(403);
  });
});

describe('users', () => {
  it('invites by mail: link, set password, sign in', async () => {
    const p = await partner();
    const email = `Newcomer-${next()}@${p.domain}`;
    const created = await call(t, 'POST', `/v1/Account/${p.account.tenant_id}/User`, p.adminCaller, {
      email,
      role: 'user',
      info: { firstname: 'Nina', lastname: 'New' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      code: 201,
      user: {
        email: email.toLowerCase(),
        role: 'user',
        tenant_id: p.account.tenant_id,
        is_active: true,
        email_verified: true,
        must_change_password: false,
        created_by: p.admin.id,
      },
    });
    const [mail] = await mailsTo(t, email);
    expect(defined(mail).subject).toBe(`Omnibot: you are invited to ${p.account.name}`);
    const link = await lastLinkTo(t, email);
    expect(link).toMatch(/^http:\/\/localhost:3000\/api\/auth\/reset-password\/[\w-]+\?callbackURL=/);
    const token = defined(new URL(link).pathname.split('/').at(-1));
    const [stored] = await t.database.db
      .select()
      .from(authVerifications)
      .where(eq(authVerifications.identifier, `reset-password:${token}`));
    const lifetime = new Date(defined(stored).expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(71 * 3_600_000);
    expect(lifetime).toBeLessThanOrEqual(72 * 3_600_000);

    // Until the link is used, no password works.
    expect((await signIn(t, email, STRONG_PASSWORD)).statusCode).toBe(401);
    const opened = await t.app.inject({ url: pathOf(link) });
    expect(opened.statusCode).toBe(302);
    const landing = new URL(String(opened.headers.location));
    expect(`${landing.origin}${landing.pathname}`).toBe('http://localhost:3000/bot/password');
    const set = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      headers: { origin: TEST_ORIGIN },
      payload: { token: landing.searchParams.get('token'), newPassword: 'Granite-Meadow-Lantern-77' },
    });
    expect(set.statusCode).toBe(200);
    const signedIn = await signIn(t, email, 'Granite-Meadow-Lantern-77');
    expect(signedIn.statusCode).toBe(200);
  });

  it('refuses an e-mail domain that is not allowed, and an address already in use', async () => {
    const p = await partner();
    const foreign = await call(t, 'POST', `/v1/Account/${p.account.tenant_id}/User`, p.adminCaller, {
      email: 'someone@evil.test',
      role: 'user',
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({
      code: 'auth/unauthorized-domain',
      message: AUTH_MESSAGES.domainNotAllowed,
    });
    const taken = await call(t, 'POST', `/v1/Account/${p.account.tenant_id}/User`, p.adminCaller, {
      email: p.admin.email,
      role: 'user',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ code: 'auth/email-already-in-use', message: AUTH_MESSAGES.emailInUse });
    expect(await mailsTo(t, 'someone@evil.test')).toHaveLength(0);
  });

  it("never gives a role above the giver's own, and master only in the platform tenant", async () => {
    const p = await partner();
    const member = await makeSignedInUser(t, p.account.tenant_id, `m-${next()}@${p.domain}`, 'user');
    const create = (caller: Caller, tenantId: string, role: string, domain: string) =>
      call(t, 'POST', `/v1/Account/${tenantId}/User`, caller, { email: `r-${next()}@${domain}`, role });

    expect((await create(p.adminCaller, p.account.tenant_id, 'master', p.domain)).json()).toEqual({
      code: 'role_not_allowed',
      message: 'The master role exists only in the platform organisation.',
    });
    expect((await create(master, p.account.tenant_id, 'master', p.domain)).statusCode).toBe(403);
    const platformAdmin = await makeSignedInUser(t, platformId, `pa-${next()}@example.com`, 'administrator');
    expect(
      (await create({ cookie: platformAdmin.cookie }, platformId, 'master', 'example.com')).json(),
    ).toEqual({
      code: 'role_not_allowed',
      message: 'You cannot give a role above your own.',
    });
    expect((await create(master, platformId, 'master', 'example.com')).statusCode).toBe(201);
    expect((await create(p.adminCaller, p.account.tenant_id, 'administrator', p.domain)).statusCode).toBe(
      201,
    );

    // A user may edit their own profile but not their role; an administrator promotes them.
    const selfPromote = await call(
      t,
      'PUT',
      `/v1/Account/${p.account.tenant_id}/User/${member.id}`,
      {
        cookie: member.cookie,
      },
      { role: 'administrator' },
    );
    expect(selfPromote.statusCode).toBe(403);
    const selfEdit = await call(
      t,
      'PUT',
      `/v1/Account/${p.account.tenant_id}/User/${member.id}`,
      {
        cookie: member.cookie,
      },
      { info: { firstname: 'Mia', mobile: '+351 900 000 000' }, address: { city: 'Faro' } },
    );
    expect(selfEdit.json()).toMatchObject({
      code: 200,
      user: {
        info: { firstname: 'Mia', mobile: '+351 900 000 000' },
        address: { city: 'Faro' },
        role: 'user',
      },
    });
    const promoted = await call(
      t,
      'PUT',
      `/v1/Account/${p.account.tenant_id}/User/${member.id}`,
      p.adminCaller,
      {
        role: 'administrator',
      },
    );
    expect(promoted.json()).toMatchObject({ user: { role: 'administrator' } });
    // A platform administrator cannot touch the master.
    const onMaster = await call(
      t,
      'PUT',
      `/v1/Account/${platformId}/User/${masterId}`,
      { cookie: platformAdmin.cookie },
      {
        info: { firstname: 'Hacked' },
      },
    );
    expect(onMaster.statusCode).toBe(403);
  });

  it('keeps the last active administrator: no demotion, no disabling', async () => {
    const p = await partner();
    const url = (id: string) => `/v1/Account/${p.account.tenant_id}/User/${id}`;
    for (const change of [{ role: 'user' }, { is_active: false }, { role: 'agent', is_active: false }]) {
      const response = await call(t, 'PUT', url(p.admin.id), p.adminCaller, change);
      expect(response.statusCode, JSON.stringify(change)).toBe(409);
      expect(response.json()).toEqual({
        code: 'last_administrator',
        message:
          'This is the last active administrator of the organisation. Make someone else an administrator first.',
      });
    }
    const deputy = await makeUser(t, p.account.tenant_id, `deputy-${next()}@${p.domain}`, 'administrator');
    const demoted = await call(t, 'PUT', url(p.admin.id), p.adminCaller, { role: 'user' });
    expect(demoted.statusCode).toBe(200);
    // The deputy is now the last one.
    const byMaster = await call(t, 'PUT', url(deputy.id), master, { is_active: false });
    expect(byMaster.statusCode).toBe(409);
  });

  it('disabling a user bans sign-in and ends their sessions; enabling lifts it', async () => {
    const p = await partner();
    const member = await makeSignedInUser(t, p.account.tenant_id, `d-${next()}@${p.domain}`, 'agent');
    const url = `/v1/Account/${p.account.tenant_id}/User/${member.id}`;
    const off = await call(t, 'PUT', url, p.adminCaller, { is_active: false });
    expect(off.json()).toMatchObject({ user: { is_active: false } });
    const [auth] = await t.database.db.select().from(authUsers).where(eq(authUsers.id, member.id));
    expect(defined(auth).banned).toBe(true);
    expect(
      await t.database.db.select().from(authSessions).where(eq(authSessions.userId, member.id)),
    ).toHaveLength(0);
    expect(
      (await call(t, 'GET', `/v1/Account/${p.account.tenant_id}`, { cookie: member.cookie })).statusCode,
    ).toBe(401);
    expect((await signIn(t, member.email, STRONG_PASSWORD)).json()).toEqual({
      code: 'auth/user-disabled',
      message: AUTH_MESSAGES.userDisabled,
    });
    await call(t, 'PUT', url, p.adminCaller, { is_active: true });
    expect((await signIn(t, member.email, STRONG_PASSWORD)).statusCode).toBe(200);
    const audit = (await auditRows(p.account.tenant_id)).filter((row) => row.action === 'user.update');
    expect(audit.map((row) => row.details)).toEqual([{ is_active: false }, { is_active: true }]);
  });

  it('lists users paged, searched and sorted; a user sees only themselves', async () => {
    const p = await partner();
    const tenantId = p.account.tenant_id;
    for (const [local, role] of [
      ['anna', 'agent'],
      ['bruno', 'user'],
      ['carla', 'administrator'],
      ['dario_x', 'user'],
      ['erik', 'agent'],
    ] as const) {
      await makeUser(t, tenantId, `${local}@${p.domain}`, role);
    }
    const list = async (query: string, caller: Caller = p.adminCaller) =>
      (await call(t, 'GET', `/v1/Account/${tenantId}/User${query}`, caller)).json<{
        code: number;
        items: Profile[];
        total: number;
        page: number;
        page_size: number;
      }>();
    const first = await list('?page=1&page_size=2');
    expect(first).toMatchObject({ code: 200, total: 6, page: 1, page_size: 2 });
    expect(first.items.map((u) => u.email)).toEqual([`anna@${p.domain}`, `boss@${p.domain}`]);
    expect((await list('?page=3&page_size=2')).items.map((u) => u.email)).toEqual([
      `dario_x@${p.domain}`,
      `erik@${p.domain}`,
    ]);
    expect((await list('?q=CARL')).items.map((u) => u.email)).toEqual([`carla@${p.domain}`]);
    // LIKE wildcards in q are plain characters.
    expect((await list('?q=_')).items.map((u) => u.email)).toEqual([`dario_x@${p.domain}`]);
    expect((await list('?q=%25')).total).toBe(0);
    const byRole = await list('?sort=role&order=desc&page_size=3');
    expect(byRole.items.map((u) => u.role)).toEqual(['administrator', 'administrator', 'user']);
    const byEmailDesc = await list('?sort=email&order=desc&page_size=1');
    expect(defined(byEmailDesc.items[0]).email).toBe(`erik@${p.domain}`);

    const member = await makeSignedInUser(t, tenantId, `zed-${next()}@${p.domain}`, 'user');
    const own = await list('', { cookie: member.cookie });
    expect(own.items.map((u) => u.id)).toEqual([member.id]);
    expect(own.total).toBe(1);
  });

  it('finds users by e-mail and id within reach only', async () => {
    const { p, c } = await partnerAndClient();
    const byEmail = await call(
      t,
      'GET',
      `/v1/Account/${c.account.tenant_id}/User/${c.admin.email}?type=email`,
      p.adminCaller,
    );
    expect(byEmail.json()).toEqual([expect.objectContaining({ id: c.admin.id, role: 'administrator' })]);
    const byId = await call(
      t,
      'GET',
      `/v1/Account/${c.account.tenant_id}/User/${c.admin.id}?type=user_id`,
      p.adminCaller,
    );
    expect(byId.json()).toEqual(byEmail.json());
    const upward = await call(
      t,
      'GET',
      `/v1/Account/${p.account.tenant_id}/User/${p.admin.email}?type=email`,
      c.adminCaller,
    );
    expect(upward.json()).toEqual([{ code: 404, message: 'User not found' }]);
    // A user id of another tenant under one's own tenant path is not found either.
    const crossed = await call(
      t,
      'GET',
      `/v1/Account/${p.account.tenant_id}/User/${c.admin.id}?type=user_id`,
      p.adminCaller,
    );
    expect(crossed.json()).toEqual([{ code: 404, message: 'User not found' }]);
  });
});

describe('audit log', () => {
  it('audit rows name the tenant, actor, action, target and IP', async () => {
    const p = await partner();
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, p.account.tenant_id), eq(auditLog.action, 'tenant.create')));
    expect(rows[0]).toMatchObject({
      actorId: masterId,
      actorKind: 'user',
      target: `tenant:${p.account.tenant_id}`,
      ip: '127.0.0.1',
      details: { parent_tenant_id: platformId, type: '2', subscriptions: ['subtenant', 'omnirag'] },
    });
    expect(defined(rows[0]).createdAt).toBeInstanceOf(Date);
  });
});
