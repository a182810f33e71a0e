import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/client';
import { LIMITS, RateLimits } from '../modules/auth/rate-limits';
import { createTestApp, signIn, type TestApp } from '../test/app';
import type { JobRunner } from './queue';
import { RATE_LIMIT_SWEEP_CRON, RATE_LIMIT_SWEEP_JOB } from './rate-limit-sweep';

const SIGN_INS = 100;
const KEYS = 10_000;
const ipOf = (i: number) => `10.9.${Math.floor(i / 250)}.${(i % 250) + 1}`;

describe('rate-limit sweep job', () => {
  let t: TestApp;
  let jobs: JobRunner;
  beforeAll(async () => {
    t = await createTestApp({ jobs: { pollingIntervalSeconds: 0.5 } });
    if (!t.app.jobs) throw new Error('the job runner did not start');
    jobs = t.app.jobs;
  });
  afterAll(async () => {
    await t.close();
  });

  const count = async (query: ReturnType<typeof sql>) =>
    Number(rowsOf<{ n: number | string }>(await t.database.db.execute(query))[0]?.n);

  it('is scheduled in the shared job queue', async () => {
    const schedules = await jobs.boss.getSchedules();
    expect(schedules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: RATE_LIMIT_SWEEP_JOB, cron: RATE_LIMIT_SWEEP_CRON }),
      ]),
    );
  });

  it('leaves no row of 10,000 one-off failed sign-ins once their window ended', async () => {
    for (let i = 0; i < SIGN_INS; i++) {
      const response = await signIn(t, `ghost-${i}@example.com`, 'Not-The-Password-1', ipOf(i));
      expect(response.statusCode).toBe(401);
    }
    const email = LIMITS.signInFailuresPerEmail.bucket;
    const ip = LIMITS.signInFailuresPerIp.bucket;
    expect(await count(sql`select count(*) as n from rate_limit_events where bucket = ${email}`)).toBe(
      SIGN_INS,
    );
    expect(await count(sql`select count(*) as n from rate_limit_events where bucket = ${ip}`)).toBe(SIGN_INS);
    expect(await count(sql`select count(*) as n from rate_limit_counters where key like '10.9.%'`)).toBe(
      SIGN_INS,
    );

    await t.database.db.execute(sql`
      insert into rate_limit_events (bucket, key)
      select ${email}, 'ghost-' || i || '@example.com' from generate_series(${SIGN_INS}::integer, ${KEYS - 1}::integer) as i
      union all
      select ${ip}, '10.8.' || (i / 250) || '.' || (i % 250 + 1) from generate_series(${SIGN_INS}::integer, ${KEYS - 1}::integer) as i`);
    await t.database.db.execute(sql`
      insert into rate_limit_counters (bucket, key, count, window_start, expires_at)
      select 'global', '10.8.' || (i / 250) || '.' || (i % 250 + 1), 1, now(), now() + interval '1 minute'
      from generate_series(${SIGN_INS}::integer, ${KEYS - 1}::integer) as i`);
    expect(
      await count(sql`select count(distinct key) as n from rate_limit_events where bucket = ${email}`),
    ).toBe(KEYS);

    // Time passes: every row is now just past the end of its window.
    await t.database.db.execute(
      sql`update rate_limit_events set created_at = created_at - interval '15 minutes 1 second'`,
    );
    await t.database.db.execute(
      sql`update rate_limit_counters set window_start = window_start - interval '1 minute 1 second', expires_at = expires_at - interval '1 minute 1 second'`,
    );
    // Rows still inside their window stay: a fresh failure, and a reset mail older than the sign-in window.
    expect((await signIn(t, 'late@example.com', 'Not-The-Password-1', '192.0.2.9')).statusCode).toBe(401);
    const limits = new RateLimits(t.database.db);
    await limits.record(LIMITS.resetMailsPerAddress, 'mailed@example.com');
    await t.database.db.execute(
      sql`update rate_limit_events set created_at = created_at - interval '30 minutes' where key = 'mailed@example.com'`,
    );

    const id = await jobs.send(RATE_LIMIT_SWEEP_JOB, {});
    expect(await jobs.waitFor(RATE_LIMIT_SWEEP_JOB, id)).toBe('completed');

    const events = rowsOf<{ bucket: string; key: string }>(
      await t.database.db.execute(sql`select bucket, key from rate_limit_events order by bucket, key`),
    );
    expect(events).toEqual([
      { bucket: LIMITS.resetMailsPerAddress.bucket, key: 'mailed@example.com' },
      { bucket: email, key: 'late@example.com' },
      { bucket: ip, key: '192.0.2.9' },
    ]);
    const counters = rowsOf<{ key: string }>(
      await t.database.db.execute(sql`select key from rate_limit_counters order by key`),
    );
    expect(counters).toEqual([{ key: '192.0.2.9' }]);
  }, 180_000);
});
