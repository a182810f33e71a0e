/** The value a test expects to exist; a missing one fails the test with a clear message instead of a TypeError later. */
export function defined<T>(value: T | null | undefined, what = 'value'): T {
  if (value === null || value === undefined) throw new Error(`Expected a ${what}, found ${String(value)}.`);
  return value;
}
