import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EnvError, loadEnv } from './env';
import { objectStoreOrigins } from './app';
import { createTestApp, testEnv, type TestApp } from './test/app';

describe('server foundation', () => {
  let t: TestApp;
  const consoleDir = mkdtempSync(path.join(tmpdir(), 'omnibot-console-'));

  beforeAll(async () => {
    writeFileSync(
      path.join(consoleDir, 'index.html'),
      '<html><head><!--omnibot-config--><title>x</title></head><body>console</body></html>',
    );
    t = await createTestApp({ consoleDir, skipReady: true, env: { PRODUCT_NAME: 'Acme <Bot>' } });
    t.app.post(
      '/v1/test-echo',
      { schema: { body: z.object({ name: z.string().min(2), count: z.number().int() }) } },
      async (request) => request.body,
    );
    t.app.get('/v1/test-boom', async () => {
      throw new Error('secret internal detail');
    });
    await t.app.ready();
  });
  afterAll(async () => {
    await t.close();
    rmSync(consoleDir, { recursive: true, force: true });
  });

  it('answers /healthz and /readyz', async () => {
    const health = await t.app.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready' });
  });

  it.each(['/v1/nothing-here', '/api/nothing', '/v1', '/api/auth-unknown/x?y=1'])(
    'answers JSON 404 for unknown API path %s, never the console',
    async (url) => {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.json()).toMatchObject({ code: 'not_found' });
    },
  );

  it('serves the console with its configuration for other GET paths (SPA fallback)', async () => {
    const response = await t.app.inject({ url: '/tenant/view?tenant_id=abc' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain('name="omnibot-config"');
    expect(response.body).toContain('&quot;productName&quot;:&quot;Acme &lt;Bot&gt;&quot;');
    expect(response.body).not.toContain('<Bot>');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('answers a POST to a console path with JSON 404', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/tenant' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'not_found' });
  });

  it('rejects an invalid body with 400 naming the field', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/test-echo',
      payload: { name: 'a', count: 1 },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ code: string; message: string }>();
    expect(body.code).toBe('invalid_argument');
    expect(body.message).toMatch(/^body\.name: /);
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/v1/test-echo',
      payload: { name: 'ab', count: 'x' },
    });
    expect(wrongType.json<{ message: string }>().message).toMatch(/^body\.count: /);
  });

  it('answers a malformed URL with 400 JSON', async () => {
    const response = await t.app.inject({ url: '/v1/Account/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    const body = response.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual(['code', 'message']);
    expect(body.code).toBe('invalid_argument');
  });

  it('rejects malformed JSON with 400 JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/test-echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_json' });
  });

  it('rejects a body over 1 MB with 413', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/test-echo',
      payload: { name: 'x'.repeat(1024 * 1024 + 10), count: 1 },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'payload_too_large' });
  });

  it('turns an unexpected error into 500 with a request id that is in the log, and no detail', async () => {
    const response = await t.app.inject({ url: '/v1/test-boom' });
    expect(response.statusCode).toBe(500);
    const body = response.json<{ code: string; message: string; requestId: string }>();
    expect(body.code).toBe('internal');
    expect(response.body).not.toContain('secret internal detail');
    expect(response.body).not.toContain('at ');
    expect(response.headers['x-request-id']).toBe(body.requestId);
    const logged = t.logs.find((line) => line.reqId === body.requestId && line.level === 50);
    expect(logged).toBeDefined();
    expect(JSON.stringify(logged)).toContain('secret internal detail');
  });

  it('exposes Prometheus metrics by route with database pool stats', async () => {
    await t.app.inject({ url: '/healthz' });
    const response = await t.app.inject({ url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toMatch(
      /http_requests_total\{method="GET",route="\/healthz",status_code="200"\} \d+/,
    );
    expect(response.body).toContain('http_request_duration_seconds_bucket');
    expect(response.body).toMatch(/db_pool_connections_total\{driver="(pglite|postgres)"\}/);
  });

  it('publishes the OpenAPI document at /docs', async () => {
    const json = await t.app.inject({ url: '/docs/json' });
    expect(json.statusCode).toBe(200);
    expect(json.json<{ paths: Record<string, unknown> }>().paths).toHaveProperty('/readyz');
    const ui = await t.app.inject({ url: '/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });

  it('reports not ready (503 with a reason) once the database is closed', async () => {
    // Its own app: closing the suite's database would break every test that runs after this one.
    const own = await createTestApp();
    try {
      await own.database.close();
      const ready = await own.app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'unavailable', reason: 'database unreachable' });
      expect((await own.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe('content security policy', () => {
  it('lets previews load from the object store that presigns download links', () => {
    expect(objectStoreOrigins(testEnv())).toEqual([]);
    expect(objectStoreOrigins(testEnv({ S3_BUCKET: 'media', S3_REGION: 'eu-west-1' }))).toEqual([
      'https://media.s3.eu-west-1.amazonaws.com',
    ]);
    expect(
      objectStoreOrigins(
        testEnv({ S3_BUCKET: 'media', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'true' }),
      ),
    ).toEqual(['http://127.0.0.1:9000']);
    expect(
      objectStoreOrigins(testEnv({ S3_BUCKET: 'media', S3_ENDPOINT: 'https://s3.example.net' })),
    ).toEqual(['https://media.s3.example.net']);
  });
});

describe('configuration', () => {
  it('stops start-up naming the bad variable', () => {
    expect(() => loadEnv({ PORT: 'eighty' })).toThrow(EnvError);
    expect(() => loadEnv({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadEnv({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });

  it('applies the embedded defaults', () => {
    const env = loadEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe('./data');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PUBLIC_URL).toBe('http://localhost:3000');
    expect(env.ENVIRONMENT_BADGE).toBe('PRODUCTION');
  });
});
