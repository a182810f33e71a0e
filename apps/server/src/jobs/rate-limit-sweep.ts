import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { sweepCounters } from '../lib/rate-limit-store';
import type { JobRunner } from './queue';

export const RATE_LIMIT_SWEEP_JOB = 'rate-limit-sweep';
/** Every five minutes, so a row outlives its window by five minutes at most. */
export const RATE_LIMIT_SWEEP_CRON = '*/5 * * * *';

/** What keeps its own rate-limit rows: the sign-in and password limits of the auth module. */
export interface SweptLimits {
  sweep(): Promise<unknown>;
}

/** Keeps the rate-limit tables bounded: rows of keys that never came back go once their window ended. */
export async function scheduleRateLimitSweep(
  jobs: JobRunner,
  { db, limits, log }: { db: Db; limits: SweptLimits; log: FastifyBaseLogger },
): Promise<void> {
  await jobs.work(RATE_LIMIT_SWEEP_JOB, async () => {
    await limits.sweep();
    const counters = await sweepCounters(db);
    log.debug({ counters }, 'rate-limit tables swept');
  });
  await jobs.schedule(RATE_LIMIT_SWEEP_JOB, RATE_LIMIT_SWEEP_CRON);
}
