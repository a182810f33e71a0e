import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEnv, type TestApp } from '../test/app';
import { bearerMatches, isLoopback } from './metrics';

const TOKEN = 'metrics-token-0123456789-abcdef';

describe('/metrics with METRICS_TOKEN set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN, LOG_LEVEL: 'trace' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const scrape = (headers: Record<string, string>, remoteAddress = '203.0.113.7') =>
    t.app.inject({ url: '/metrics', headers, remoteAddress });

  it('answers a caller presenting the token, from anywhere', async () => {
    const response = await scrape({ authorization: `Bearer ${TOKEN}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('http_requests_total');
  });

  it.each([
    ['no Authorization header', {}],
    ['a wrong token', { authorization: `Bearer ${TOKEN}x` }],
    ['a prefix of the token', { authorization: `Bearer ${TOKEN.slice(0, 10)}` }],
    ['the token as Basic credentials', { authorization: `Basic ${TOKEN}` }],
  ])('refuses %s with 401, even from loopback', async (_name, headers: Record<string, string>) => {
    const response = await scrape(headers, '127.0.0.1');
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toContain('Bearer');
    expect(response.json()).toMatchObject({ code: 'unauthenticated' });
    expect(response.body).not.toContain('http_requests_total');
  });

  it('never writes the token to the logs', async () => {
    await scrape({ authorization: `Bearer ${TOKEN}` });
    await scrape({ authorization: `Bearer ${TOKEN}-wrong` });
    expect(t.logs.length).toBeGreaterThan(0);
    expect(JSON.stringify(t.logs)).not.toContain(TOKEN);
  });
});

describe('/metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])(
    'answers the loopback client %s',
    async (ip) => {
      const response = await t.app.inject({ url: '/metrics', remoteAddress: ip });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('http_requests_total');
    },
  );

  it.each(['203.0.113.7', '10.0.0.5', '::ffff:10.0.0.5', '2001:db8::1', '128.0.0.1'])(
    'answers 404 to the remote client %s',
    async (ip) => {
      const response = await t.app.inject({ url: '/metrics', remoteAddress: ip });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found' });
    },
  );

  it('answers 404 to a request relayed by a proxy on this machine', async () => {
    for (const headers of [{ 'x-forwarded-for': '203.0.113.7' }, { forwarded: 'for=203.0.113.7' }]) {
      const response = await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1', headers });
      expect(response.statusCode).toBe(404);
    }
  });
});

describe('metrics access helpers', () => {
  it('refuses a METRICS_TOKEN shorter than 16 characters at start-up', () => {
    expect(() => testEnv({ METRICS_TOKEN: 'too-short' })).toThrow(/METRICS_TOKEN/);
  });

  it('matches only the exact bearer token', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
    expect(bearerMatches('Bearer ', TOKEN)).toBe(false);
    expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
  });

  it('recognises loopback addresses only', () => {
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('::ffff:127.0.0.2')).toBe(true);
    expect(isLoopback('1127.0.0.1')).toBe(false);
    expect(isLoopback('::2')).toBe(false);
    expect(isLoopback('127.0.0.1.evil')).toBe(false);
  });
});
