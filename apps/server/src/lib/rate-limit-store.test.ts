import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app';
import { openDatabase, rowsOf, type Database } from '../db/client';
import { captureLogs, openTestDatabase, testEnv } from '../test/app';
import { hitCounter, LeasedCounters, leaseCap, sweepCounters } from './rate-limit-store';

const CLIENT = '203.0.113.7';

describe('rate limits stored in the database', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function throwawayDatabase(): Promise<Database> {
    const { database, drop } = await openTestDatabase();
    cleanups.push(drop);
    return database;
  }

  /** Another process's view of the same database: its own connection pool on PostgreSQL. */
  async function secondConnection(database: Database): Promise<Database> {
    if (!database.url) return database;
    const other = await openDatabase({ kind: 'postgres', url: database.url });
    cleanups.push(() => other.close());
    return other;
  }

  async function serverOn(
    database: Database,
    env: Record<string, string> = {},
    addRoutes?: (app: App) => void,
  ) {
    const { logs, logStream } = captureLogs();
    const app = await buildApp({ env: testEnv(env), database, consoleDir: null, logStream });
    addRoutes?.(app);
    await app.ready();
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await app.close();
    };
    cleanups.push(close);
    return { app, logs, close };
  }

  const health = (app: App, remoteAddress = CLIENT) => app.inject({ url: '/healthz', remoteAddress });

  it('gives two server processes one budget per client, remembered across a restart', async () => {
    const database = await throwawayDatabase();
    const limits = { RATE_LIMIT_MAX: '4', RATE_LIMIT_WINDOW_MS: '600000' };
    const first = await serverOn(database, limits);
    const second = await serverOn(await secondConnection(database), limits);

    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await health(i % 2 === 0 ? first.app : second.app)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);

    const limited = await health(second.app);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(500);
    const body = limited.json<{ code: unknown; message: unknown }>();
    expect(typeof body.code).toBe('string');
    expect(typeof body.message).toBe('string');
    // Another client has its own budget.
    expect((await health(first.app, '198.51.100.1')).statusCode).toBe(200);

    await first.close();
    await second.close();
    const restarted = await serverOn(database, limits);
    expect((await health(restarted.app)).statusCode).toBe(429);
    expect((await health(restarted.app, '198.51.100.2')).statusCode).toBe(200);
  });

  it('counts a route with its own limit and key apart from the global limit, across processes', async () => {
    const database = await throwawayDatabase();
    const perVisitor = (app: App) => {
      app.get(
        '/v1/test-visitor',
        {
          config: {
            rateLimit: {
              max: 2,
              timeWindow: 60_000,
              keyGenerator: (request) => String(request.headers['x-visitor']),
            },
          },
        },
        async () => ({ ok: true }),
      );
    };
    const first = await serverOn(database, {}, perVisitor);
    const second = await serverOn(await secondConnection(database), {}, perVisitor);
    const visit = (app: App, visitor: string) =>
      app.inject({ url: '/v1/test-visitor', headers: { 'x-visitor': visitor }, remoteAddress: CLIENT });

    expect((await visit(first.app, 'v-1')).statusCode).toBe(200);
    expect((await visit(second.app, 'v-1')).statusCode).toBe(200);
    expect((await visit(first.app, 'v-1')).statusCode).toBe(429);
    expect((await visit(second.app, 'v-1')).statusCode).toBe(429);
    expect((await visit(second.app, 'v-1')).statusCode).toBe(429);
    expect((await visit(second.app, 'v-2')).statusCode).toBe(200);
    expect((await health(first.app)).headers['x-ratelimit-remaining']).toBe('1199');

    const rows = rowsOf<{ bucket: string; key: string; count: number }>(
      await database.db.execute(
        sql`select bucket, key, count from rate_limit_counters where key like 'v-%' order by key`,
      ),
    );
    // Each process counted v-1 until it saw it over the limit, then answered 429 from its own list.
    expect(rows).toEqual([
      { bucket: 'route:GET /v1/test-visitor', key: 'v-1', count: 4 },
      { bucket: 'route:GET /v1/test-visitor', key: 'v-2', count: 1 },
    ]);
  });

  it('counts a request once when routes share one hook array, and keeps a route limit to its own route', async () => {
    const database = await throwawayDatabase();
    const limits = { RATE_LIMIT_MAX: '100', RATE_LIMIT_WINDOW_MS: '600000' };
    // Modules hand every route the same guard array; the limiter must not collect one hook per route in it.
    const shared: Array<(request: unknown, reply: unknown, done: () => void) => void> = [
      (_request, _reply, done) => done(),
    ];
    const { app } = await serverOn(database, limits, (server) => {
      for (const name of ['a', 'b', 'c', 'd'])
        server.get(`/v1/shared-${name}`, { onRequest: shared }, async () => ({}));
      server.get(
        '/v1/shared-limited',
        { onRequest: shared, config: { rateLimit: { max: 1, timeWindow: 60_000 } } },
        async () => ({}),
      );
    });
    expect(shared).toHaveLength(1);
    const remaining = async (url: string) =>
      (await app.inject({ url, remoteAddress: CLIENT })).headers['x-ratelimit-remaining'];
    expect(await remaining('/v1/shared-a')).toBe('99');
    expect(await remaining('/v1/shared-d')).toBe('98');
    // The route's own limit of 1 applies to it alone: the other routes still answer.
    expect((await app.inject({ url: '/v1/shared-limited', remoteAddress: CLIENT })).statusCode).toBe(200);
    expect((await app.inject({ url: '/v1/shared-limited', remoteAddress: CLIENT })).statusCode).toBe(429);
    expect((await app.inject({ url: '/v1/shared-b', remoteAddress: CLIENT })).statusCode).toBe(200);
  });

  it('starts a new window once the old one ended, and sweeps ended windows away', async () => {
    const { db } = await throwawayDatabase();
    expect(await hitCounter(db, 'test', 'k', 60_000)).toMatchObject({ current: 1 });
    const second = await hitCounter(db, 'test', 'k', 60_000);
    expect(second.current).toBe(2);
    expect(second.ttl).toBeGreaterThan(50_000);
    expect(second.ttl).toBeLessThanOrEqual(60_000);
    await hitCounter(db, 'test', 'other', 60_000);

    await db.execute(
      sql`update rate_limit_counters set expires_at = now() - interval '1 second' where key = 'k'`,
    );
    expect(await hitCounter(db, 'test', 'k', 60_000)).toMatchObject({ current: 1 });

    // A client-chosen key far larger than an index entry may be is still counted.
    const huge = randomBytes(50_000).toString('hex');
    expect(await hitCounter(db, 'test', huge, 60_000)).toMatchObject({ current: 1 });
    expect(await hitCounter(db, 'test', huge, 60_000)).toMatchObject({ current: 2 });
    expect(await hitCounter(db, 'test', `${huge}y`, 60_000)).toMatchObject({ current: 1 });

    await db.execute(
      sql`update rate_limit_counters set expires_at = now() - interval '1 second' where key = 'k' or key like 'sha256:%'`,
    );
    expect(await sweepCounters(db)).toBe(3);
    const left = rowsOf<{ key: string }>(await db.execute(sql`select key from rate_limit_counters`));
    expect(left).toEqual([{ key: 'other' }]);
  });

  const countOf = async (database: Database, key: string) =>
    Number(
      rowsOf<{ count: number }>(
        await database.db.execute(sql`select count from rate_limit_counters where key = ${key}`),
      )[0]?.count,
    );

  it('counts small limits request by request, and reserves the places of a busy key several at a time', async () => {
    const database = await throwawayDatabase();
    expect([leaseCap(60), leaseCap(127), leaseCap(128), leaseCap(640), leaseCap(100_000)]).toEqual([
      1, 1, 2, 10, 64,
    ]);
    const counters = new LeasedCounters(database.db);

    for (let i = 1; i <= 5; i++) expect((await counters.hit('test', 'small', 60_000, 100)).current).toBe(i);
    expect(await countOf(database, 'small')).toBe(5);

    // One place, then 2, 4, 8 and the cap of 10 for a limit of 640: 16 requests in five upserts.
    const places = [];
    for (let i = 0; i < 16; i++) places.push((await counters.hit('test', 'busy', 60_000, 640)).current);
    expect(places).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(await countOf(database, 'busy')).toBe(1 + 2 + 4 + 8 + 10);

    // Concurrent requests of one key share reservations and get their places in the order they came.
    const together = await Promise.all(
      Array.from({ length: 40 }, () => counters.hit('test', 'together', 60_000, 640)),
    );
    expect(together.map((hit) => hit.current)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await countOf(database, 'together')).toBeLessThan(40 + leaseCap(640));

    // A request arriving while others wait queues behind them instead of taking the places they wait for.
    const early = Array.from({ length: 30 }, () => counters.hit('test', 'burst', 60_000, 640));
    await early[0];
    const late = Array.from({ length: 30 }, () => counters.hit('test', 'burst', 60_000, 640));
    const earlyPlaces = (await Promise.all(early)).map((hit) => hit.current);
    const latePlaces = (await Promise.all(late)).map((hit) => hit.current);
    expect(Math.max(...earlyPlaces)).toBeLessThan(Math.min(...latePlaces));
    expect([...earlyPlaces, ...latePlaces]).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
  });

  it('never lets more than the limit through across processes that reserve places', async () => {
    const database = await throwawayDatabase();
    const first = new LeasedCounters(database.db);
    const second = new LeasedCounters((await secondConnection(database)).db);
    const max = 640;
    const hits = await Promise.all(
      Array.from({ length: 800 }, (_, i) =>
        (i % 2 === 0 ? first : second).hit('test', 'shared', 60_000, max),
      ),
    );
    const allowed = hits.filter((hit) => hit.current <= max).length;
    // Places one process reserved and did not use are refused to the other: at most cap - 1 each.
    expect(allowed).toBeLessThanOrEqual(max);
    expect(allowed).toBeGreaterThanOrEqual(max - 2 * (leaseCap(max) - 1));
    expect(new Set(hits.map((hit) => hit.current)).size).toBe(800);
  });

  it('fails every waiting request of a key, the first included, when its reservation fails', async () => {
    const database = await throwawayDatabase();
    const connection = await secondConnection(database);
    const counters = new LeasedCounters(connection.db);
    await connection.close();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () => counters.hit('test', 'down', 60_000, 640)),
    );
    expect(outcomes.map((outcome) => outcome.status)).toEqual(Array(5).fill('rejected'));
  });

  it('lets requests through with a warning when the database is down', async () => {
    const database = await throwawayDatabase();
    const connection = await secondConnection(database);
    const server = await serverOn(connection, { RATE_LIMIT_MAX: '1' });
    expect((await health(server.app)).statusCode).toBe(200);
    expect((await health(server.app)).statusCode).toBe(429);

    await connection.close();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await health(server.app, '198.51.100.3')).statusCode);
    expect(statuses).toEqual([200, 200, 200]);
    const warnings = server.logs.filter(
      (line) => line.msg === 'rate-limit store unavailable: requests are let through',
    );
    // One warning per ten seconds, not one per request.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, bucket: 'global' });
    expect(String(warnings[0]?.error)).not.toContain('insert into');
    // A client already known to be over its limit stays limited while the database is down.
    expect((await health(server.app)).statusCode).toBe(429);
  });
});
