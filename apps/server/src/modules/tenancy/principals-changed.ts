import type { Db } from '../../db/client';

/** The channel the database notifies (a trigger) on every write to credentials, tenants or subscriptions. */
export const PRINCIPALS_CHANNEL = 'omnibot_principals';

const forgetters = new WeakMap<Db, Set<() => void>>();

/** Runs `forget` whenever this process changes principals through `db`; returns the function that stops it. */
export function onPrincipalsChanged(db: Db, forget: () => void): () => void {
  let set = forgetters.get(db);
  if (!set) {
    set = new Set();
    forgetters.set(db, set);
  }
  set.add(forget);
  return () => set.delete(forget);
}

/**
 * Call after a write to credentials, tenants or subscriptions has committed: this process forgets what it
 * cached about principals at once, since the database's notification reaches it only later.
 */
export function principalsChanged(db: Db): void {
  for (const forget of forgetters.get(db) ?? []) forget();
}
