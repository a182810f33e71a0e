import type { Account, Profile, Subscription } from '@omnibot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credentials, subscriptions, tenants, users } from '../../db/schema';
import { createTestApp, sessionCookie, TEST_ADMIN_PASSWORD, type TestApp } from '../../test/app';
import {
  type Caller,
  call,
  fingerprint,
  makeSignedInUser,
  makeTenant,
  makeUser,
  platformTenantId,
  routeTable,
} from './accounts.fixtures';
import { defined } from '../../test/defined';

/*
 * Malformed input for every /v1/Account route (taken from the server's route table), sent by a master so that a
 * refusal can only come from input checking, never from authorisation. Every refused request must answer 4xx
 * with { code, message }, never 5xx, and must change nothing in the database.
 *
 * SQL-looking and HTML-looking strings are refused where a field has a format (ids, e-mail, domain, codes, roles,
 * dates). In free-text fields (names, addresses, search) they are data: stored and answered back verbatim, as
 * JSON, never interpreted (queries are parameterised; the console renders text, never markup).
 */

const SQL = "x'); DROP TABLE tenants; --";
const HTML = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
const ONE_MB = 'a'.repeat(1024 * 1024 + 10);
const TEN_KB = 'b'.repeat(10 * 1024);
const BAD_BYTES_MARK = '@@bad-bytes@@';

type Method = 'GET' | 'POST' | 'PUT';
interface Probe {
  kind: string;
  url: string;
  payload?: unknown;
  /** Raw body bytes with a content type (invalid JSON, invalid UTF-8, wrong media type). */
  raw?: { body: string | Buffer; type: string };
  appId?: string;
}

interface Ids {
  partner: string;
  client: string;
  subscription: string;
  user: string;
  userEmail: string;
}

/**
 * Builds the probes of one route, and its controls: the same requests made valid, which must be accepted (so a
 * refusal is due to the defect, not to something else).
 */
function probesFor(method: Method, route: string, ids: Ids): { probes: Probe[]; controls: Probe[] } {
  const controls: Probe[] = [];
  const path = (tenant: string) =>
    route
      .replace('/v1/Account/:p', `/v1/Account/${tenant}`)
      .replace('/Subscription/:p', `/Subscription/${ids.subscription}`)
      .replace('/User/:p', method === 'GET' ? `/User/${ids.userEmail}` : `/User/${ids.user}`);
  const target = route.includes('Subscription') || route.includes('User') ? ids.client : ids.partner;
  const base = path(target);
  const query = route === '/v1/Account/:p/User/:p' && method === 'GET' ? '?type=email' : '';
  const url = `${base}${query}`;
  const probes: Probe[] = [];
  const add = (kind: string, probe: Omit<Probe, 'kind'>) => probes.push({ kind, ...probe });

  // Path and header problems apply to every route with a tenant in its path.
  if (route.startsWith('/v1/Account/:p')) {
    add('SQL-looking id', { url: `${path("x'%20OR%201=1--")}${query}` });
    add('HTML-looking id', { url: `${path('%3Cscript%3Ealert(1)%3C%2Fscript%3E')}${query}` });
    add('invalid UTF-8 in URL', { url: `${path('%FF%FE')}${query}` });
    add('oversized id', { url: `${path('a'.repeat(5000))}${query}` });
  }
  add('bad X-App-Id', { url, appId: '<script>' });
  add('extra query parameter', { url: `${url}${query ? '&' : '?'}unexpected=1` });

  const bodyProbes = (
    valid: object,
    wrongTypes: object[],
    missing: object[] | null,
    constrained: object[],
    withText?: (text: string) => object,
  ) => {
    controls.push({ kind: 'control', url, payload: valid });
    add('extra field', { url, payload: { ...valid, unexpected: true } });
    for (const payload of wrongTypes) add('wrong type', { url, payload });
    for (const payload of missing ?? []) add('missing required field', { url, payload });
    for (const payload of constrained) add('SQL/HTML in a formatted field', { url, payload });
    add('oversized string (1 MB)', { url, payload: { ...valid, padding: ONE_MB } });
    add('invalid JSON', { url, raw: { body: '{"name": "unfinished', type: 'application/json' } });
    // Where the route has a free-text field, the bad bytes sit in an otherwise valid body.
    const [head, tail] = JSON.stringify(withText ? withText(BAD_BYTES_MARK) : { name: BAD_BYTES_MARK }).split(
      BAD_BYTES_MARK,
    );
    add('invalid UTF-8', {
      url,
      raw: {
        body: Buffer.concat([
          Buffer.from(defined(head)),
          Buffer.from([0x4f, 0xff, 0xfe, 0xc3]),
          Buffer.from(defined(tail)),
        ]),
        type: 'application/json',
      },
    });
    add('prototype poisoning', {
      url,
      raw: { body: '{"__proto__":{"isAdmin":true}}', type: 'application/json' },
    });
    add('wrong media type', { url, raw: { body: 'name=x', type: 'text/plain' } });
  };

  const key = `${method} ${route}`;
  switch (key) {
    case 'GET /v1/Account':
      add('wrong type', { url: `/v1/Account?tenant_id=a&tenant_id=b` });
      add('SQL/HTML in a formatted field', { url: `/v1/Account?tenant_id=${encodeURIComponent(SQL)}` });
      add('SQL/HTML in a formatted field', { url: `/v1/Account?tenant_id=${encodeURIComponent(HTML)}` });
      add('oversized string (1 MB)', { url: `/v1/Account?tenant_id=${ONE_MB}` });
      break;
    case 'POST /v1/Account': {
      const valid = { name: 'Valid', subscriptions: ['omnirag'] };
      bodyProbes(
        valid,
        [
          { name: 123, subscriptions: ['omnirag'] },
          { name: 'x', subscriptions: 'omnirag' },
          { name: 'x', subscriptions: [42] },
          { name: 'x', subscriptions: ['omnirag'], address: 'Main Street 1' },
          { name: 'x', subscriptions: ['omnirag'], info: { domain: 7 } },
        ],
        [{}, { name: 'x' }, { subscriptions: ['omnirag'] }, { name: '   ', subscriptions: ['omnirag'] }],
        [
          { ...valid, info: { domain: SQL } },
          { ...valid, info: { domain: HTML } },
          { ...valid, info: { email: HTML } },
          { ...valid, subscriptions: [SQL] },
          { ...valid, name: TEN_KB },
        ],
        (text) => ({ ...valid, name: text }),
      );
      add('SQL/HTML in a formatted field', {
        url: `/v1/Account?tenant_id=${encodeURIComponent(SQL)}`,
        payload: valid,
      });
      break;
    }
    case 'GET /v1/Account/:p':
      add('wrong type', { url: `${base}?type=phone&data=x` });
      add('missing required field', { url: `${base}?type=domain` });
      add('SQL/HTML in a formatted field', { url: `${base}?type=domain&data=${encodeURIComponent(SQL)}` });
      add('SQL/HTML in a formatted field', { url: `${base}?type=domain&data=${encodeURIComponent(HTML)}` });
      add('oversized string (1 MB)', { url: `${base}?type=domain&data=${ONE_MB}` });
      break;
    case 'PUT /v1/Account/:p': {
      const valid = { name: 'Valid', address: {}, info: { domain: 'partner.input.test' } };
      bodyProbes(
        valid,
        [
          { name: true, address: {}, info: {} },
          { name: 'x', address: [], info: {} },
          { ...valid, is_active: 'no' },
          { ...valid, address: { city: 5 } },
        ],
        [{}, { name: 'x' }, { name: 'x', address: {} }],
        [
          { ...valid, info: { domain: SQL } },
          { ...valid, info: { domain: HTML } },
          { ...valid, info: { email: SQL } },
          { ...valid, address: { zipcode: TEN_KB } },
        ],
        (text) => ({ ...valid, name: text }),
      );
      break;
    }
    case 'POST /v1/Account/:p/credential':
    case 'PUT /v1/Account/:p/credential':
    case 'POST /v1/Account/:p/key':
    case 'PUT /v1/Account/:p/key':
    case 'POST /v1/Account/:p/secret':
    case 'PUT /v1/Account/:p/secret':
      // These take no body: every field is an extra field, and nothing is required.
      bodyProbes({}, [[], 'text', 42, [{ key: 'chosen' }]] as unknown as object[], null, [
        { key: SQL },
        { secret: HTML },
      ]);
      break;
    case 'GET /v1/Account/:p/credential':
    case 'GET /v1/Account/:p/Subscription':
      add('wrong type', { url: base.replace(ids.partner, 'a%20b').replace(ids.client, 'a%20b') });
      break;
    case 'GET /v1/Account/:p/Subscription/:p':
      add('wrong type', { url: base.replace(ids.subscription, 'not-a-uuid') });
      add('SQL/HTML in a formatted field', {
        url: base.replace(ids.subscription, encodeURIComponent(SQL)),
      });
      break;
    case 'POST /v1/Account/:p/Subscription': {
      const valid = { info: { code: 'omnirag' } };
      bodyProbes(
        valid,
        [
          { info: { code: 5 } },
          { info: 'omnirag' },
          { ...valid, starts_at: 12 },
          { ...valid, status: true },
          { ...valid, ends_at: 'tomorrow' },
        ],
        [{}, { status: 'active' }, { info: {} }],
        [
          { info: { code: SQL } },
          { info: { code: HTML } },
          { ...valid, status: SQL },
          { ...valid, starts_at: HTML },
        ],
      );
      break;
    }
    case 'PUT /v1/Account/:p/Subscription/:p': {
      const valid = { status: 'active' };
      bodyProbes(
        valid,
        [{ status: 1 }, { status: 'active', ends_at: 'next week' }, { status: 'active', starts_at: [] }],
        [{}, { ends_at: null }],
        [{ status: SQL }, { status: HTML }, { status: 'active', ends_at: SQL }],
      );
      add('wrong type', { url: base.replace(ids.subscription, 'not-a-uuid'), payload: valid });
      break;
    }
    case 'GET /v1/Account/:p/User':
      add('wrong type', { url: `${base}?page=abc` });
      add('wrong type', { url: `${base}?page_size=0` });
      add('wrong type', { url: `${base}?page_size=101` });
      add('wrong type', { url: `${base}?sort=password` });
      add('wrong type', { url: `${base}?order=sideways` });
      add('SQL/HTML in a formatted field', { url: `${base}?sort=${encodeURIComponent(SQL)}` });
      add('oversized string (1 MB)', { url: `${base}?q=${ONE_MB}` });
      break;
    case 'GET /v1/Account/:p/User/:p':
      add('missing required field', { url: base });
      add('wrong type', { url: `${base}?type=phone` });
      add('SQL/HTML in a formatted field', {
        url: `${base.replace(ids.userEmail, encodeURIComponent(SQL))}?type=email`,
      });
      add('SQL/HTML in a formatted field', {
        url: `${base.replace(ids.userEmail, encodeURIComponent(HTML))}?type=user_id`,
      });
      break;
    case 'POST /v1/Account/:p/User': {
      const valid = { email: 'valid@client.input.test', role: 'user' };
      bodyProbes(
        valid,
        [
          { email: 5, role: 'user' },
          { email: 'x@client.input.test', role: 7 },
          { ...valid, info: 'Ann' },
          { ...valid, username: ['a'] },
        ],
        [{}, { email: 'x@client.input.test' }, { role: 'user' }],
        [
          { email: `${SQL}@client.input.test`, role: 'user' },
          { email: HTML, role: 'user' },
          { ...valid, role: SQL },
          { ...valid, role: HTML },
          { ...valid, username: TEN_KB },
        ],
        (text) => ({ ...valid, email: 'bytes@client.input.test', username: text }),
      );
      break;
    }
    case 'PUT /v1/Account/:p/User/:p': {
      const valid = { info: { firstname: 'Valid' } };
      // Every field is optional ("fields left out stay as they are"): no missing-field case exists.
      bodyProbes(
        valid,
        [{ role: 1 }, { is_active: 'yes' }, { info: [] }, { username: 42 }],
        null,
        [{ role: SQL }, { role: HTML }, { info: { firstname: TEN_KB } }],
        (text) => ({ info: { firstname: text } }),
      );
      add('SQL/HTML in a formatted field', {
        url: base.replace(ids.user, encodeURIComponent(SQL)),
        payload: valid,
      });
      break;
    }
    default:
      throw new Error(`no malformed-input probes for ${key}: add them here`);
  }
  if (method === 'GET') controls.push({ kind: 'control', url });
  return { probes, controls };
}

describe('account service: malformed input and mass assignment', () => {
  let t: TestApp;
  let master: Caller;
  let ids: Ids;
  let platform: string;

  beforeAll(async () => {
    t = await createTestApp();
    master = { cookie: await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD) };
    platform = await platformTenantId(t);
    await makeTenant(t, {
      tenantId: 'in-partner',
      parent: platform,
      type: '2',
      domain: 'partner.input.test',
      codes: ['subtenant', 'omnirag'],
    });
    await makeTenant(t, {
      tenantId: 'in-client',
      parent: 'in-partner',
      type: '3',
      domain: 'client.input.test',
    });
    for (const tenantId of ['in-partner', 'in-client']) {
      await t.database.db
        .insert(credentials)
        .values({ tenantId, key: `key${tenantId.replace('-', '')}`, secretHash: 'x', secretLast4: 'abcd' });
    }
    const victim = await makeUser(t, 'in-client', 'victim@client.input.test', 'user');
    const [sub] = await t.database.db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(eq(subscriptions.tenantId, 'in-client'));
    ids = {
      partner: 'in-partner',
      client: 'in-client',
      subscription: defined(sub).id,
      user: victim.id,
      userEmail: victim.email,
    };
  });
  afterAll(() => t.close());

  it('refuses malformed input on every route with 4xx { code, message }, never 5xx, storing nothing', async () => {
    const served = routeTable(t).filter((route) => route.url.startsWith('/v1/Account'));
    expect(served).toHaveLength(19);
    const byKind = new Map<string, number>();
    const failures: string[] = [];
    let total = 0;
    const send = (method: Method, probe: Probe) =>
      t.app.inject({
        method,
        url: probe.url,
        headers: {
          cookie: defined(master.cookie),
          'x-app-id': probe.appId ?? 'omnibot-console',
          ...(probe.raw ? { 'content-type': probe.raw.type } : {}),
        },
        ...(probe.raw
          ? { payload: probe.raw.body }
          : probe.payload === undefined
            ? {}
            : { payload: probe.payload as object }),
      });
    const statuses = new Map<string, number>();
    const controls: Array<[Method, Probe]> = [];
    let before = await fingerprint(t);
    for (const route of served) {
      const method = route.method as Method;
      const built = probesFor(method, route.url, ids);
      controls.push(...built.controls.map((probe): [Method, Probe] => [method, probe]));
      for (const probe of built.probes) {
        const response = await send(method, probe);
        total += 1;
        byKind.set(probe.kind, (byKind.get(probe.kind) ?? 0) + 1);
        const label = `${method} ${route.url} [${probe.kind}] ${probe.url.slice(0, 90)}: ${response.statusCode} ${response.body.slice(0, 140)}`;
        let body: { code?: unknown; message?: unknown } = {};
        try {
          body = response.json();
        } catch {
          failures.push(`${label} (not JSON)`);
        }
        const after = await fingerprint(t);
        const shaped = typeof body.code === 'string' && typeof body.message === 'string';
        const answer = `${response.statusCode} ${String(body.code)}`;
        statuses.set(answer, (statuses.get(answer) ?? 0) + 1);
        if (response.statusCode < 400 || response.statusCode >= 500 || !shaped) failures.push(label);
        if (after !== before) failures.push(`${label} (changed the database)`);
        before = after;
      }
    }
    // The valid twins are accepted (a 409 means the thing exists already, which is no input error).
    let controlled = 0;
    for (const [method, probe] of controls) {
      const response = await send(method, probe);
      controlled += 1;
      if (!(response.statusCode < 300 || response.statusCode === 409)) {
        failures.push(
          `control ${method} ${probe.url}: ${response.statusCode} ${response.body.slice(0, 140)}`,
        );
      }
    }
    const kinds = [...byKind.entries()].map(([kind, n]) => `${kind} ${n}`).join(', ');
    const answers = [...statuses.entries()].map(([answer, n]) => `${answer} x${n}`).join(', ');
    console.log(
      `malformed input: ${total} refused requests over ${served.length} routes (${kinds}); answers: ${answers}; ` +
        `${controlled} valid controls accepted; wrong answers or stored rejects: ${failures.length}`,
    );
    expect(failures).toEqual([]);
  });

  it('stores SQL- and HTML-looking text in free-text fields verbatim and answers it back as JSON data', async () => {
    let cases = 0;
    const created = await call(t, 'POST', '/v1/Account?tenant_id=in-partner', master, {
      name: SQL,
      address: { street: HTML, city: SQL },
      info: { website: HTML },
      subscriptions: ['omnirag'],
    });
    cases += 1;
    expect(created.statusCode).toBe(201);
    expect(created.headers['content-type']).toMatch(/^application\/json/);
    expect(created.headers['x-content-type-options']).toBe('nosniff');
    const account = created.json<{ account: Account }>().account;
    const read = await call(t, 'GET', `/v1/Account/${account.tenant_id}`, master);
    expect(read.json<Account[]>()[0]).toMatchObject({
      name: SQL,
      address: { street: HTML, city: SQL },
      info: { website: HTML },
    });
    expect(read.body).toContain(JSON.stringify(HTML).slice(1, -1));

    const updated = await call(t, 'PUT', '/v1/Account/in-client', master, {
      name: HTML,
      address: { zipcode: '1000-001', state: SQL },
      info: { domain: 'client.input.test', work: HTML.slice(0, 40) },
    });
    cases += 1;
    expect(updated.json<{ account: Account }>().account).toMatchObject({
      name: HTML,
      address: { state: SQL },
      info: { work: HTML.slice(0, 40) },
    });

    const user = await call(t, 'POST', '/v1/Account/in-client/User', master, {
      email: 'quoted@client.input.test',
      role: 'user',
      username: SQL,
      info: { firstname: HTML.slice(0, 100), lastname: SQL },
    });
    cases += 1;
    expect(user.statusCode).toBe(201);
    const profile = user.json<{ user: Profile }>().user;
    expect(profile).toMatchObject({ username: SQL, info: { firstname: HTML.slice(0, 100), lastname: SQL } });
    const edited = await call(t, 'PUT', `/v1/Account/in-client/User/${profile.id}`, master, {
      address: { street: HTML },
    });
    cases += 1;
    expect(edited.json<{ user: Profile }>().user.address).toEqual({ street: HTML });

    for (const q of [SQL, HTML, "' OR '1'='1", '%FF%FE']) {
      const search = await call(t, 'GET', `/v1/Account/in-client/User?q=${encodeURIComponent(q)}`, master);
      cases += 1;
      expect(search.statusCode).toBe(200);
      const found = search.json<{ items: Profile[] }>().items;
      const texts = (item: Profile) => [item.email, item.username, item.info.firstname, item.info.lastname];
      expect(found.every((item) => texts(item).some((text) => text?.includes(q)))).toBe(true);
    }
    // The tables are still there and still answer.
    expect((await t.database.db.select().from(tenants)).length).toBeGreaterThan(3);
    console.log(`free-text data cases stored and answered verbatim: ${cases}`);
  });

  describe('mass assignment: identity and ownership fields in bodies never move or elevate', () => {
    // Identity and ownership fields any record echoes back (accepted, ignored)...
    const intruder = {
      id: '00000000-0000-4000-8000-000000000000',
      tenant_id: 'chosen-id',
      created_by: 'mallory',
      created_at: '2000-01-01T00:00:00.000Z',
      updated_by: 'mallory',
    };
    // ...and those of an account.
    const accountIntruder = { ...intruder, parent_tenant_id: 'in-partner', parent: 'in-partner', type: '1' };

    it('a new tenant gets a generated id, its type from the parent, the caller as creator, and is active', async () => {
      const admin = await makeSignedInUser(
        t,
        'in-partner',
        `boss-${Date.now()}@partner.input.test`,
        'administrator',
      );
      const response = await call(
        t,
        'POST',
        '/v1/Account',
        { cookie: admin.cookie },
        {
          ...accountIntruder,
          parent_tenant_id: platform,
          parent: platform,
          is_active: false,
          name: 'Mass Assignment Client',
          subscriptions: ['omnirag'],
        },
      );
      expect(response.statusCode).toBe(201);
      const account = response.json<{ account: Account }>().account;
      expect(account.tenant_id).not.toBe('chosen-id');
      expect(account.id).not.toBe(intruder.id);
      expect(account).toMatchObject({
        type: '3',
        parent_tenant_id: 'in-partner',
        is_active: true,
        created_by: admin.id,
      });
      expect(account.created_at).not.toBe(intruder.created_at);
      expect(
        await t.database.db.select().from(tenants).where(eq(tenants.tenantId, 'chosen-id')),
      ).toHaveLength(0);
      // A field with no place in an account is refused outright.
      const role = await call(
        t,
        'POST',
        '/v1/Account',
        { cookie: admin.cookie },
        {
          name: 'With Role',
          subscriptions: ['omnirag'],
          role: 'master',
        },
      );
      expect(role.statusCode).toBe(400);
    });

    it('an account update keeps its id, type, parent and creator', async () => {
      const clientAdmin = await makeSignedInUser(
        t,
        'in-client',
        `chief-${Date.now()}@client.input.test`,
        'administrator',
      );
      const [before] = await t.database.db.select().from(tenants).where(eq(tenants.tenantId, 'in-client'));
      const response = await call(
        t,
        'PUT',
        '/v1/Account/in-client',
        { cookie: clientAdmin.cookie },
        {
          ...accountIntruder,
          parent_tenant_id: null,
          name: 'Still Here',
          address: {},
          info: { domain: 'client.input.test' },
        },
      );
      expect(response.statusCode).toBe(200);
      const [after] = await t.database.db.select().from(tenants).where(eq(tenants.tenantId, 'in-client'));
      expect(after).toMatchObject({
        id: defined(before).id,
        tenantId: 'in-client',
        type: '3',
        parentTenantId: 'in-partner',
        createdBy: defined(before).createdBy,
        name: 'Still Here',
      });
      expect(defined(after).createdAt).toEqual(defined(before).createdAt);
    });

    it('a new user lands in the path tenant with a generated id; an update moves nobody and changes no e-mail', async () => {
      const created = await call(t, 'POST', '/v1/Account/in-client/User', master, {
        ...intruder,
        tenant_id: 'in-partner',
        email: 'placed@client.input.test',
        role: 'agent',
        must_change_password: true,
        email_verified: false,
      });
      expect(created.statusCode).toBe(201);
      const user = created.json<{ user: Profile }>().user;
      expect(user.id).not.toBe(intruder.id);
      expect(user).toMatchObject({ tenant_id: 'in-client', role: 'agent', must_change_password: false });
      expect(user.created_by).not.toBe('mallory');
      // Fields that have no place in a user are refused outright.
      for (const field of ['type', 'parent', 'parent_tenant_id']) {
        const refused = await call(t, 'POST', '/v1/Account/in-client/User', master, {
          email: `refused-${field}@client.input.test`,
          role: 'user',
          [field]: 'in-partner',
        });
        expect(refused.statusCode, field).toBe(400);
      }

      const member = await makeSignedInUser(t, 'in-client', `member-${Date.now()}@client.input.test`, 'user');
      const self = await call(
        t,
        'PUT',
        `/v1/Account/in-client/User/${member.id}`,
        { cookie: member.cookie },
        {
          ...intruder,
          tenant_id: 'in-partner',
          email: 'someone-else@client.input.test',
          role: 'administrator',
        },
      );
      expect(self.statusCode).toBe(403);
      const quiet = await call(
        t,
        'PUT',
        `/v1/Account/in-client/User/${member.id}`,
        { cookie: member.cookie },
        {
          ...intruder,
          tenant_id: 'in-partner',
          email: 'someone-else@client.input.test',
          info: { firstname: 'Only This' },
        },
      );
      expect(quiet.statusCode).toBe(200);
      const [row] = await t.database.db.select().from(users).where(eq(users.id, member.id));
      expect(row).toMatchObject({
        tenantId: 'in-client',
        email: member.email,
        role: 'user',
        info: { firstname: 'Only This' },
      });
    });

    it('a subscription lands on the path tenant, keeps its catalogue name, and never changes its code', async () => {
      const created = await call(t, 'POST', '/v1/Account/in-client/Subscription', master, {
        ...intruder,
        tenant_id: 'in-partner',
        is_current: true,
        info: { code: 'subtenant', name: 'Free Everything', description: 'mine' },
      });
      expect(created.statusCode).toBe(201);
      const sub = created.json<{ subscription: Subscription }>().subscription;
      expect(sub).toMatchObject({
        tenant_id: 'in-client',
        info: { code: 'subtenant', name: 'Client Organisations' },
      });
      expect(sub.id).not.toBe(intruder.id);
      const updated = await call(t, 'PUT', `/v1/Account/in-client/Subscription/${sub.id}`, master, {
        ...intruder,
        status: 'active',
        info: { code: 'casesummary', name: 'Case Summarization' },
      });
      expect(updated.json<{ subscription: Subscription }>().subscription.info.code).toBe('subtenant');
      const codes = await t.database.db
        .select({ code: subscriptions.code })
        .from(subscriptions)
        .where(eq(subscriptions.tenantId, 'in-client'));
      expect(codes.map((c) => c.code).sort()).toEqual(['omnirag', 'subtenant']);
    });
  });
});
