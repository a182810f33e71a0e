/*
 * Time limits of the tests that do much work, derived from how much they do: a machine busy with other work slows
 * such a test in proportion, and a fixed limit then fails it for the machine's sake. Each allowance is about twenty
 * times what the piece of work takes on a two-core machine whose cores are both busy with other work (a load
 * average of 18 to 25), so that only a test that waits on something that never comes runs out of time.
 */

/** One request through the app (database work included) and a fingerprint of the tables around it: ~50 ms busy. */
const CALL_ALLOWANCE_MS = 1_000;

/** One sign-in, registration or password change, each hashing a password with scrypt: ~300 ms busy. */
const PASSWORD_ALLOWANCE_MS = 6_000;

/** Vitest's limit for the tests of this workspace (vitest.config.ts), which a derived limit never goes under. */
const DEFAULT_LIMIT_MS = 30_000;

/** The time limit of a test making `calls` requests and `passwords` password hashes. */
export function timeLimit(work: { calls?: number; passwords?: number }): number {
  const derived = (work.calls ?? 0) * CALL_ALLOWANCE_MS + (work.passwords ?? 0) * PASSWORD_ALLOWANCE_MS;
  return Math.max(DEFAULT_LIMIT_MS, derived);
}
