import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FILES_UPLOAD_PATH } from '@omnibot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicHeader, fingerprint, makeTenant, platformTenantId } from '../accounts/accounts.fixtures';
import { createTestApp, sessionCookie, TEST_ADMIN_PASSWORD, TEST_ORIGIN, type TestApp } from '../../test/app';

const FOREIGN = 'https://evil.example.net';
const PARTNER = 'https://partner.example.org';

describe('origin check on cookie-authenticated /v1 calls', () => {
  let t: TestApp;
  let cookie: string;
  let child: string;
  let sequence = 0;

  beforeAll(async () => {
    t = await createTestApp({ env: { TRUSTED_ORIGINS: PARTNER } });
    cookie = await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD);
    child = 'origin-child';
    await makeTenant(t, { tenantId: child, parent: await platformTenantId(t), type: '2', domain: 'oc.test' });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A fresh tenant without a credential, so that creating one succeeds when the call is let through. */
  async function freshTenant() {
    const tenantId = `origin-t${++sequence}`;
    await makeTenant(t, { tenantId, parent: child, type: '3', domain: `ot${sequence}.test` });
    return tenantId;
  }

  const createCredential = (tenantId: string, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: `/v1/Account/${tenantId}/credential`,
      headers: { 'x-app-id': 'test', ...headers },
    });

  it('refuses a foreign Origin with 403 { code, message } and changes nothing', async () => {
    const tenantId = await freshTenant();
    const before = await fingerprint(t);
    const response = await createCredential(tenantId, { cookie, origin: FOREIGN });
    expect(response.statusCode).toBe(403);
    const body = response.json<{ code: string; message: string }>();
    expect(body.code).toBe('origin_not_allowed');
    expect(body.message).toMatch(/site/);
    expect(await fingerprint(t)).toBe(before);
  });

  it.each([
    ['own origin (PUBLIC_URL)', TEST_ORIGIN],
    ['its 127.0.0.1 alias', 'http://127.0.0.1:3000'],
    ['TRUSTED_ORIGINS', PARTNER],
  ])('lets the %s through', async (_name, origin) => {
    const response = await createCredential(await freshTenant(), { cookie, origin });
    expect(response.statusCode).toBe(201);
  });

  it.each([
    ['Origin: null (sandboxed page)', { origin: 'null' }],
    ['a look-alike origin', { origin: `${TEST_ORIGIN}.evil.example.net` }],
    ['another port', { origin: 'http://localhost:3001' }],
    ['no Origin but Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['no Origin but Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
  ])('refuses %s', async (_name, headers: Record<string, string>) => {
    const response = await createCredential(await freshTenant(), { cookie, ...headers });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'origin_not_allowed' });
  });

  it.each([
    ['without Origin or Fetch Metadata (not a browser)', {}],
    ['without Origin, Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }],
  ])('lets a cookie call %s through', async (_name, headers: Record<string, string>) => {
    const response = await createCredential(await freshTenant(), { cookie, ...headers });
    expect(response.statusCode).toBe(201);
  });

  it.each(['PUT', 'PATCH', 'DELETE'] as const)('refuses a foreign %s as well', async (method) => {
    const tenantId = await freshTenant();
    const before = await fingerprint(t);
    const response = await t.app.inject({
      method,
      url: `/v1/Account/${tenantId}/credential`,
      headers: { 'x-app-id': 'test', cookie, origin: FOREIGN },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'origin_not_allowed' });
    expect(await fingerprint(t)).toBe(before);
  });

  it.each(['POST', 'PATCH', 'DELETE'] as const)('refuses a foreign tus upload %s', async (method) => {
    const response = await t.app.inject({
      method,
      url: method === 'POST' ? FILES_UPLOAD_PATH : `${FILES_UPLOAD_PATH}/some-upload-id`,
      headers: {
        cookie,
        origin: FOREIGN,
        'tus-resumable': '1.0.0',
        'upload-length': '5',
        'upload-metadata': `filename ${Buffer.from('a.txt').toString('base64')}`,
        ...(method === 'PATCH'
          ? { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }
          : {}),
      },
      ...(method === 'PATCH' ? { payload: Buffer.from('hello') } : {}),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'origin_not_allowed' });
  });

  it('leaves reads alone', async () => {
    const response = await t.app.inject({
      url: `/v1/Account/${child}`,
      headers: { 'x-app-id': 'test', cookie, origin: FOREIGN },
    });
    expect(response.statusCode).toBe(200);
  });

  it('does not affect a call authenticated by an API credential (no cookie)', async () => {
    const created = await createCredential(child, { cookie, origin: TEST_ORIGIN });
    expect(created.statusCode).toBe(201);
    const { key, secret } = created.json<{ key: string; secret: string }>();
    const response = await createCredential(await freshTenant(), {
      authorization: basicHeader(key, secret),
      origin: FOREIGN,
    });
    expect(response.statusCode).toBe(201);
  });

  it("leaves /api/auth to better-auth's own origin check, which refuses a foreign origin", async () => {
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie, origin: FOREIGN },
      payload: {},
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ code: 'auth/invalid-origin' });
    const session = await t.app.inject({ url: '/v1/session', headers: { cookie } });
    expect(session.statusCode).toBe(200);
  });
});

describe('Cache-Control on API answers', () => {
  let t: TestApp;
  let cookie: string;
  const consoleDir = mkdtempSync(path.join(tmpdir(), 'omnibot-console-'));

  beforeAll(async () => {
    mkdirSync(path.join(consoleDir, 'assets'));
    writeFileSync(path.join(consoleDir, 'index.html'), '<html><head><!--omnibot-config--></head></html>');
    writeFileSync(path.join(consoleDir, 'assets', 'app-1a2b3c.js'), 'console.log(1);');
    t = await createTestApp({ consoleDir });
    cookie = await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await t.close();
    rmSync(consoleDir, { recursive: true, force: true });
  });

  it('leaves the console its own caching, even for a signed-in user', async () => {
    const asset = await t.app.inject({ url: '/assets/app-1a2b3c.js', headers: { cookie } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await t.app.inject({ url: '/tenant/view', headers: { cookie } });
    expect(page.headers['cache-control']).toBe('no-cache');
  });

  it('sends no-store with a freshly created, reset and regenerated credential secret', async () => {
    const tenantId = await platformTenantId(t);
    const headers = { cookie, origin: TEST_ORIGIN, 'x-app-id': 'test' };
    for (const [method, path] of [
      ['POST', 'credential'],
      ['PUT', 'credential'],
      ['POST', 'secret'],
      ['PUT', 'key'],
    ] as const) {
      const response = await t.app.inject({ method, url: `/v1/Account/${tenantId}/${path}`, headers });
      expect(response.statusCode, `${method} ${path}`).toBeLessThan(300);
      expect(response.headers['cache-control'], `${method} ${path}`).toBe('no-store');
    }
  });

  it.each(['/v1/session', '/api/auth/get-session'])(
    'sends no-store on %s to a signed-in user',
    async (url) => {
      const response = await t.app.inject({ url, headers: { cookie } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
    },
  );

  it('sends no-store on an API error too', async () => {
    const response = await t.app.inject({ url: '/v1/bots' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['cache-control']).toBe('no-store');
  });
});
