import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import { executePrepared, rowsOf, type Db } from '../db/client';

export interface RateLimitHit {
  /** Requests counted in the current window, this one included. */
  current: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

const MAX_KEY_LENGTH = 200;

/** Long keys (client-chosen ids) are stored by their hash: an index entry too large to insert must not exempt them. */
const storedKey = (key: string) =>
  key.length > MAX_KEY_LENGTH ? `sha256:${createHash('sha256').update(key).digest('hex')}` : key;

/**
 * Counts one request for `key` in `bucket` (one atomic upsert); a finished window starts again at 1. The
 * upsert commits without waiting for its WAL flush (synchronous_commit off for this statement alone): the
 * count is exact for every process, only a database crash can forget the last fraction of a second of it,
 * and the row lock that serialises one caller's concurrent requests is held for microseconds instead of a
 * disk flush.
 */
export async function hitCounter(
  db: Db,
  bucket: string,
  key: string,
  windowMs: number,
): Promise<RateLimitHit> {
  const [row] = await executePrepared<{ current: number | string; ttl: number | string }>(
    db,
    'rate_limit_hit',
    sql`
    insert into rate_limit_counters as c (bucket, key, count, window_start, expires_at)
    select ${bucket}, ${storedKey(key)}, 1, now(), now() + make_interval(secs => ${windowMs}::double precision / 1000)
    from (select set_config('synchronous_commit', 'off', true)) as async_commit
    on conflict (bucket, key) do update set
      count = case when c.expires_at <= excluded.window_start then 1 else c.count + 1 end,
      window_start = case when c.expires_at <= excluded.window_start then excluded.window_start else c.window_start end,
      expires_at = case when c.expires_at <= excluded.window_start then excluded.expires_at else c.expires_at end
    returning c.count as current,
      greatest(0, ceil(extract(epoch from (c.expires_at - now())) * 1000))::integer as ttl`,
  );
  if (!row) throw new Error('rate-limit counter upsert returned no row');
  return { current: Number(row.current), ttl: Number(row.ttl) };
}

/** Deletes the counters whose window has ended; returns how many went. */
export async function sweepCounters(db: Db): Promise<number> {
  const result = await db.execute(
    sql`with gone as (delete from rate_limit_counters where expires_at <= now() returning 1) select count(*)::integer as n from gone`,
  );
  return Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
}

const MAX_BLOCKED_KEYS = 10_000;
const WARN_EVERY_MS = 10_000;

/**
 * Keys this process saw over their limit, until their window ends. It only answers "still over" and
 * never "allowed", so it cannot weaken a limit shared with other processes.
 */
class BlockedKeys {
  private readonly entries = new Map<string, { count: number; until: number }>();

  get(id: string, max: number): RateLimitHit | null {
    const entry = this.entries.get(id);
    if (!entry) return null;
    const ttl = entry.until - Date.now();
    if (ttl <= 0) {
      this.entries.delete(id);
      return null;
    }
    return entry.count > max ? { current: entry.count, ttl } : null;
  }

  set(id: string, hit: RateLimitHit) {
    if (this.entries.size >= MAX_BLOCKED_KEYS) {
      const now = Date.now();
      for (const [other, entry] of this.entries) if (entry.until <= now) this.entries.delete(other);
      if (this.entries.size >= MAX_BLOCKED_KEYS) return;
    }
    this.entries.set(id, { count: hit.current, until: Date.now() + hit.ttl });
  }
}

/** The driver's own message (drizzle wraps it in one that repeats the query and its parameters). */
function reasonOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

interface RouteParams {
  groupId?: string;
  routeInfo?: { method?: string | string[]; url?: string };
}

/** Routes with their own `config.rateLimit` count apart from the global limit (a `groupId` shares one count). */
function bucketOf(params: RouteParams): string {
  if (params.groupId) return `group:${params.groupId}`;
  const { method, url } = params.routeInfo ?? {};
  if (!url) return 'custom';
  return `route:${[method ?? 'ALL'].flat().join(',')} ${url}`;
}

export interface PgRateLimitStoreOptions {
  db: Db;
  log: FastifyBaseLogger;
}

/**
 * A `store` for @fastify/rate-limit that keeps its counters in the database, so every server process
 * shares one budget per key and a restart remembers it. When the database fails, requests are let
 * through with a logged warning: an outage must not turn every request into an error.
 */
export function pgRateLimitStore({ db, log }: PgRateLimitStoreOptions): FastifyRateLimitStoreCtor {
  const blocked = new BlockedKeys();
  let lastWarning = 0;

  class PgRateLimitStore implements FastifyRateLimitStore {
    private readonly bucket: string;

    constructor(params: RouteParams | undefined) {
      this.bucket = params?.routeInfo || params?.groupId ? bucketOf(params) : 'global';
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: RateLimitHit) => void,
      timeWindow: number,
      max: number,
    ): void {
      const id = `${this.bucket}\u0000${storedKey(key)}`;
      const known = blocked.get(id, max);
      if (known) {
        callback(null, known);
        return;
      }
      hitCounter(db, this.bucket, key, timeWindow).then(
        (hit) => {
          if (hit.current > max) blocked.set(id, hit);
          callback(null, hit);
        },
        (error: unknown) => {
          const now = Date.now();
          if (now - lastWarning >= WARN_EVERY_MS) {
            lastWarning = now;
            log.warn(
              { bucket: this.bucket, error: reasonOf(error) },
              'rate-limit store unavailable: requests are let through',
            );
          }
          callback(null, { current: 0, ttl: timeWindow });
        },
      );
    }

    // The plugin passes the route's merged rate-limit options (with `routeInfo`), not the route options its types name.
    child(options: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const params = options as unknown as RouteParams;
      return new PgRateLimitStore({ groupId: params.groupId, routeInfo: params.routeInfo ?? {} });
    }
  }

  return PgRateLimitStore;
}
