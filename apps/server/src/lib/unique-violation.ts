/** PostgreSQL's unique_violation, under whatever wrapping the driver and drizzle add. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Runs `work`; a unique_violation it ends with becomes `refusal()` (e.g. a 409 for a taken name). */
export async function refuseUniqueViolation<T>(work: () => Promise<T>, refusal: () => Error): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw refusal();
    throw error;
  }
}
