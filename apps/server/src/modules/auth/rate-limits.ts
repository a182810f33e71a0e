import { and, count, eq, gte, lt, min } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rateLimitEvents } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { AUTH_ERROR_CODES, AUTH_MESSAGES } from '@omnibot/contracts';

export interface Limit {
  bucket: string;
  max: number;
  windowMs: number;
}

const MINUTE = 60_000;
export const LIMITS = {
  signInFailuresPerEmail: { bucket: 'sign-in-failure:email', max: 5, windowMs: 15 * MINUTE },
  signInFailuresPerIp: { bucket: 'sign-in-failure:ip', max: 20, windowMs: 15 * MINUTE },
  passwordChangeFailuresPerUser: { bucket: 'password-change-failure:user', max: 5, windowMs: 15 * MINUTE },
  passwordChangeFailuresPerIp: { bucket: 'password-change-failure:ip', max: 20, windowMs: 15 * MINUTE },
  resetMailsPerAddress: { bucket: 'mail:reset', max: 3, windowMs: 60 * MINUTE },
  verificationMailsPerAddress: { bucket: 'mail:verification', max: 3, windowMs: 60 * MINUTE },
} satisfies Record<string, Limit>;

/** Database-backed limits, so they hold across server processes and restarts. */
export class RateLimits {
  constructor(private readonly db: Db) {}

  /** Throws 429 with a Retry-After (seconds) when `key` used up `limit` in its window. */
  async assertAllowed(limit: Limit, key: string): Promise<void> {
    const since = new Date(Date.now() - limit.windowMs);
    const [row] = await this.db
      .select({ used: count(), oldest: min(rateLimitEvents.createdAt) })
      .from(rateLimitEvents)
      .where(
        and(
          eq(rateLimitEvents.bucket, limit.bucket),
          eq(rateLimitEvents.key, key),
          gte(rateLimitEvents.createdAt, since),
        ),
      );
    if (!row || row.used < limit.max) return;
    const oldest = row.oldest ? new Date(row.oldest).getTime() : Date.now();
    const retryAfter = Math.max(1, Math.ceil((oldest + limit.windowMs - Date.now()) / 1000));
    throw new TooManyRequests(retryAfter);
  }

  async record(limit: Limit, key: string): Promise<void> {
    await this.db.insert(rateLimitEvents).values({ bucket: limit.bucket, key });
    await this.db
      .delete(rateLimitEvents)
      .where(
        and(
          eq(rateLimitEvents.bucket, limit.bucket),
          eq(rateLimitEvents.key, key),
          lt(rateLimitEvents.createdAt, new Date(Date.now() - limit.windowMs)),
        ),
      );
  }

  async clear(limit: Limit, key: string): Promise<void> {
    await this.db
      .delete(rateLimitEvents)
      .where(and(eq(rateLimitEvents.bucket, limit.bucket), eq(rateLimitEvents.key, key)));
  }

  /** Drops events outside their limit's window, and those of buckets no limit knows after a day. */
  async sweep(): Promise<void> {
    const now = Date.now();
    for (const limit of Object.values(LIMITS) as Limit[]) {
      await this.db
        .delete(rateLimitEvents)
        .where(
          and(
            eq(rateLimitEvents.bucket, limit.bucket),
            lt(rateLimitEvents.createdAt, new Date(now - limit.windowMs)),
          ),
        );
    }
    await this.db
      .delete(rateLimitEvents)
      .where(lt(rateLimitEvents.createdAt, new Date(now - 24 * 60 * MINUTE)));
  }
}

class TooManyRequests extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, AUTH_ERROR_CODES.tooManyRequests, AUTH_MESSAGES.tooManyRequests, {
      'retry-after': String(retryAfterSeconds),
    });
  }
}
