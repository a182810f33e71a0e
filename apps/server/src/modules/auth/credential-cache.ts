import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { resilientListener } from '../../db/listener';
import { onPrincipalsChanged, PRINCIPALS_CHANNEL } from '../tenancy/principals-changed';

const CREDENTIAL_CACHE_MAX_ENTRIES = 10_000;

interface Entry<V> {
  value: V;
  expiresAt: number;
}

/**
 * Successful resolutions of API credentials, kept per process under a SHA-256 of the whole Authorization header.
 * It answers only while the process listens to the database's notifications of changed principals; every
 * notification, local write, or loss of the listener empties it.
 */
export class CredentialCache<V> {
  private entries = new Map<string, Entry<V>>();
  private generation = 0;
  /** True while the listener is connected: only then may entries be kept or answered. */
  private listening = false;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = CREDENTIAL_CACHE_MAX_ENTRIES,
  ) {}

  static keyOf(authorization: string): string {
    return createHash('sha256').update(authorization).digest('hex');
  }

  get active(): boolean {
    return this.listening;
  }

  get size(): number {
    return this.entries.size;
  }

  setListening(listening: boolean) {
    this.listening = listening;
    this.clear();
  }

  get(key: string, now = Date.now()): V | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Taken before reading the database; `set` keeps nothing read before a later clear. */
  ticket(): number {
    return this.generation;
  }

  /**
   * Keeps `value` until the TTL or `validUntil` (a time on this process's clock), whichever comes first. `readAt`
   * is when the read began, so the TTL never outlives the data.
   */
  set(key: string, value: V, ticket: number, readAt: number, validUntil: number | null) {
    if (!this.listening || ticket !== this.generation) return;
    const expiresAt = Math.min(readAt + this.ttlMs, validUntil ?? Number.POSITIVE_INFINITY);
    const now = Date.now();
    if (expiresAt <= now) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.makeRoom(now);
    this.entries.set(key, { value, expiresAt });
  }

  clear() {
    this.generation += 1;
    this.entries.clear();
  }

  private makeRoom(now: number) {
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) this.entries.delete(key);
    }
    // Maps iterate in insertion order, so the first keys are the oldest.
    for (const key of this.entries.keys()) {
      if (this.entries.size < this.maxEntries) break;
      this.entries.delete(key);
    }
  }
}

/**
 * The cache of API credentials for `ttlMs` (null for 0: never cache). It answers once the app is ready and
 * listening on the database's channel; while the listener is down it answers nothing and reconnects with backoff.
 */
export function registerCredentialCache<V>(
  app: FastifyInstance,
  database: Database,
  ttlMs: number,
): CredentialCache<V> | null {
  if (ttlMs <= 0) return null;
  const cache = new CredentialCache<V>(ttlMs);
  const stopLocal = onPrincipalsChanged(database.db, () => cache.clear());
  const listener = resilientListener(
    database,
    PRINCIPALS_CHANNEL,
    {
      onNotify: () => cache.clear(),
      onUp: () => cache.setListening(true),
      onDown: () => cache.setListening(false),
    },
    {
      logger: app.log,
      lost: 'credential cache off: lost the database notification listener',
      back: 'credential cache on: listening to the database again',
    },
  );
  app.addHook('onReady', listener.start);
  app.addHook('onClose', async () => {
    stopLocal();
    await listener.stop();
  });
  return cache;
}
