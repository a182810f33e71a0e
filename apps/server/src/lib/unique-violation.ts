/** Whether a PostgreSQL error with this SQLSTATE is somewhere under the wrapping the driver and drizzle add. */
function hasSqlState(error: unknown, state: string): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    if ((current as { code?: unknown }).code === state) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** PostgreSQL's unique_violation, under whatever wrapping the driver and drizzle add. */
export const isUniqueViolation = (error: unknown): boolean => hasSqlState(error, '23505');

/**
 * A foreign key refused the change: foreign_key_violation (a referenced row is missing, or a row still referenced
 * by a NO ACTION key was deleted) or restrict_violation (the same under ON DELETE RESTRICT).
 */
export const isForeignKeyViolation = (error: unknown): boolean =>
  hasSqlState(error, '23503') || hasSqlState(error, '23001');

/** Runs `work`; a unique_violation it ends with becomes `refusal()` (e.g. a 409 for a taken name). */
export async function refuseUniqueViolation<T>(work: () => Promise<T>, refusal: () => Error): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw refusal();
    throw error;
  }
}
