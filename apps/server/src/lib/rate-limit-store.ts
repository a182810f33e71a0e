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
 * Counts `amount` requests for `key` in `bucket` (one atomic upsert); a finished window starts again at
 * `amount`. `current` is the count after this one, so the requests counted here hold the places
 * current - amount + 1 to current. The upsert commits without waiting for its WAL flush (synchronous_commit off
 * for this statement alone): the count is exact for every process, only a database crash can forget the last
 * fraction of a second of it, and the row lock that serialises one caller's concurrent requests is held for
 * microseconds instead of a disk flush.
 */
export async function hitCounter(
  db: Db,
  bucket: string,
  key: string,
  windowMs: number,
  amount = 1,
): Promise<RateLimitHit> {
  const [row] = await executePrepared<{ current: number | string; ttl: number | string }>(
    db,
    'rate_limit_hit',
    sql`
    insert into rate_limit_counters as c (bucket, key, count, window_start, expires_at)
    select ${bucket}, ${storedKey(key)}, ${amount}::integer, now(), now() + make_interval(secs => ${windowMs}::double precision / 1000)
    from (select set_config('synchronous_commit', 'off', true)) as async_commit
    on conflict (bucket, key) do update set
      count = case when c.expires_at <= excluded.window_start then excluded.count else c.count + excluded.count end,
      window_start = case when c.expires_at <= excluded.window_start then excluded.window_start else c.window_start end,
      expires_at = case when c.expires_at <= excluded.window_start then excluded.expires_at else c.expires_at end
    returning c.count as current,
      greatest(0, ceil(extract(epoch from (c.expires_at - now())) * 1000))::integer as ttl`,
  );
  if (!row) throw new Error('rate-limit counter upsert returned no row');
  return { current: Number(row.current), ttl: Number(row.ttl) };
}

/** A lease is at most this share of a limit, so a limit below LEASE_SHARE * 2 is counted request by request. */
const LEASE_SHARE = 64;
const MAX_LEASE = 64;
/** A key whose lease was used up within this time is busy: its next lease doubles. */
const BUSY_MS = 1_000;
const MAX_LEASES = 10_000;

/** Places in a key's shared count this process reserved and has not handed out yet. */
interface Lease {
  /** The next place to hand out, and the last one within the limit. */
  next: number;
  last: number;
  /** When the window the places belong to ends (this process's clock). */
  until: number;
  size: number;
  reservedAt: number;
}

interface Waiter {
  resolve: (hit: RateLimitHit) => void;
  reject: (error: unknown) => void;
}

/** The most places one reservation may take for a limit of `max`. */
export const leaseCap = (max: number) => Math.max(1, Math.min(MAX_LEASE, Math.floor(max / LEASE_SHARE)));

/**
 * Counts requests against a limit shared by every process, reserving places of a busy key in the shared count
 * several at a time. A key starts with one place per upsert, so quiet keys and small limits are counted
 * request by request; each lease used up within BUSY_MS doubles the next (up to leaseCap). Places go only to
 * the process that reserved them, so all processes together never let more than `max` requests through a
 * window. What a process reserved and did not use still counts until the window ends: at most leaseCap(max) - 1
 * places per process, which only ever refuses early, never late. Concurrent requests of one key wait for one
 * reservation instead of each making its own, in their order of arrival: a request arriving while others wait
 * queues behind them (a burst cannot starve its first requests), and a reservation takes at least as many places
 * as requests wait, up to leaseCap.
 */
export class LeasedCounters {
  private readonly leases = new Map<string, Lease>();
  /** The requests of a key waiting for places, first come first served; a key is here while it is served. */
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(private readonly db: Db) {}

  async hit(bucket: string, key: string, windowMs: number, max: number): Promise<RateLimitHit> {
    const cap = leaseCap(max);
    if (cap === 1) return hitCounter(this.db, bucket, key, windowMs);
    const id = `${bucket}\u0000${storedKey(key)}`;
    if (!this.waiting.has(id)) {
      const taken = this.take(id);
      if (taken) return taken;
    }
    return new Promise<RateLimitHit>((resolve, reject) => {
      const queue = this.waiting.get(id);
      if (queue) {
        queue.push({ resolve, reject });
        return;
      }
      this.waiting.set(id, [{ resolve, reject }]);
      void this.serve(id, bucket, key, windowMs, max, cap);
    });
  }

  /** Hands places to the waiting requests of `id` in order, reserving more until none waits. */
  private async serve(id: string, bucket: string, key: string, windowMs: number, max: number, cap: number) {
    const queue = this.waiting.get(id) ?? [];
    try {
      // The head of the queue leaves it only once it has its place, so a failed reservation reaches it too.
      for (let waiter = queue[0]; waiter; waiter = queue[0]) {
        const hit = this.take(id) ?? (await this.reserve(id, bucket, key, windowMs, max, cap, queue.length));
        queue.shift();
        waiter.resolve(hit);
      }
    } catch (error) {
      for (const waiter of queue.splice(0)) waiter.reject(error);
    } finally {
      this.waiting.delete(id);
    }
  }

  private take(id: string): RateLimitHit | null {
    const lease = this.leases.get(id);
    if (!lease || lease.next > lease.last) return null;
    const ttl = lease.until - Date.now();
    if (ttl <= 0) return null;
    return { current: lease.next++, ttl };
  }

  private async reserve(
    id: string,
    bucket: string,
    key: string,
    windowMs: number,
    max: number,
    cap: number,
    waiting: number,
  ): Promise<RateLimitHit> {
    const now = Date.now();
    const previous = this.leases.get(id);
    const busy = previous !== undefined && previous.until > now && now - previous.reservedAt < BUSY_MS;
    const size = Math.min(cap, Math.max(waiting, busy ? previous.size * 2 : 1));
    const hit = await hitCounter(this.db, bucket, key, windowMs, size);
    const first = hit.current - size + 1;
    this.keep(id, {
      next: first + 1,
      last: Math.min(hit.current, max),
      until: Date.now() + hit.ttl,
      size: first > max ? 1 : size,
      reservedAt: now,
    });
    return { current: first, ttl: hit.ttl };
  }

  private keep(id: string, lease: Lease) {
    if (!this.leases.has(id) && this.leases.size >= MAX_LEASES) {
      const now = Date.now();
      for (const [other, entry] of this.leases) if (entry.until <= now) this.leases.delete(other);
      if (this.leases.size >= MAX_LEASES) return;
    }
    this.leases.set(id, lease);
  }
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
 * shares one budget per key and a restart remembers it; a busy key reserves its places several at a time
 * (LeasedCounters), so a client sending many requests does not make each of them wait on one row lock. When the database fails, requests are let
 * through with a logged warning: an outage must not turn every request into an error.
 */
export function pgRateLimitStore({ db, log }: PgRateLimitStoreOptions): FastifyRateLimitStoreCtor {
  const blocked = new BlockedKeys();
  const counters = new LeasedCounters(db);
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
      counters.hit(this.bucket, key, timeWindow, max).then(
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
