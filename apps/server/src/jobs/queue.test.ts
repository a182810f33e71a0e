import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/app';
import { JobRunner } from './queue';

const silent = Fastify({ logger: { level: 'silent' } }).log;

describe('job runner', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function startRunner(pollingIntervalSeconds = 0.5) {
    const { database, drop } = await openTestDatabase();
    cleanups.push(drop);
    const runner = await JobRunner.start(database, silent, { pollingIntervalSeconds });
    cleanups.push(() => runner.stop());
    return { database, runner };
  }

  it('runs queued jobs with their data and reports a throwing handler as failed', async () => {
    const { runner } = await startRunner();
    const seen: string[] = [];
    await runner.work<{ word: string }>('test-echo', async ({ word }) => {
      if (word === 'boom') throw new Error('boom');
      seen.push(word);
    });

    const done = await runner.send('test-echo', { word: 'hello' });
    expect(await runner.waitFor('test-echo', done)).toBe('completed');
    expect(seen).toEqual(['hello']);
    const failed = await runner.send('test-echo', { word: 'boom' });
    expect(await runner.waitFor('test-echo', failed)).toBe('failed');
  });

  // The bound is the poll interval: a job started any sooner was not started by the next poll.
  const POLL_SECONDS = 120;
  it(
    'starts a job this process queued without waiting for the next poll',
    async () => {
      const { runner } = await startRunner(POLL_SECONDS);
      const seen: string[] = [];
      await runner.work<{ word: string }>('test-prompt', async ({ word }) => {
        seen.push(word);
      });
      // The worker's first poll found the queue empty; the next one is POLL_SECONDS away.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const startedAt = Date.now();
      const id = await runner.send('test-prompt', { word: 'now' });
      expect(await runner.waitFor('test-prompt', id, POLL_SECONDS * 1000)).toBe('completed');
      expect(seen).toEqual(['now']);
      expect(Date.now() - startedAt).toBeLessThan(POLL_SECONDS * 1000);
    },
    (POLL_SECONDS + 30) * 1000,
  );

  it('queues many jobs in one call, in order, each with the options given', async () => {
    const { database, runner } = await startRunner();
    const seen: number[] = [];
    await runner.work<{ n: number }>('test-many', async ({ n }) => {
      seen.push(n);
    });
    expect(await runner.sendMany('test-many', [])).toEqual([]);
    const ids = await runner.sendMany(
      'test-many',
      Array.from({ length: 30 }, (_, n) => ({ n })),
      { retryLimit: 5 },
    );
    expect(new Set(ids).size).toBe(30);
    for (const id of ids) expect(await runner.waitFor('test-many', id)).toBe('completed');
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, n) => n));
    const { rows } = await database.executeSql(
      "select id, data->>'n' as n, retry_limit from pgboss.job where name = 'test-many'",
    );
    const byId = new Map(
      (rows as Array<{ id: string; n: string; retry_limit: number }>).map((r) => [r.id, r]),
    );
    ids.forEach((id, n) => expect(byId.get(id)).toEqual({ id, n: String(n), retry_limit: 5 }));
  });

  it('lets timers and requests run between jobs that never wait for I/O', async () => {
    const { runner } = await startRunner();
    let done = 0;
    await runner.work('test-busy', async () => {
      // A job made of promises that resolve at once, as statements on PGlite do.
      for (let i = 0; i < 50; i++) await Promise.resolve();
      done += 1;
    });
    const ids = await runner.sendMany(
      'test-busy',
      Array.from({ length: 200 }, () => ({})),
    );
    const doneWhenTimerRan = await new Promise<number>((resolve) => setTimeout(() => resolve(done), 0));
    for (const id of ids) expect(await runner.waitFor('test-busy', id)).toBe('completed');
    expect(done).toBe(200);
    expect(doneWhenTimerRan).toBeLessThan(200);
  });

  it('lets a running job finish when it stops', async () => {
    const { database, runner } = await startRunner();
    let release = () => undefined as void;
    let markStarted = () => undefined as void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    let finished = false;
    await runner.work('test-slow', async () => {
      markStarted();
      await new Promise<void>((done) => (release = done));
      finished = true;
    });
    const id = await runner.send('test-slow', {});
    await started;

    const stopping = runner.stop();
    release();
    await stopping;
    expect(finished).toBe(true);
    const { rows } = await database.executeSql('select state from pgboss.job where id = $1', [id]);
    expect(rows).toEqual([{ state: 'completed' }]);
  });
});
