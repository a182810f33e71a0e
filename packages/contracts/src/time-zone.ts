/**
 * Whether `name` is an IANA time zone this runtime knows (Europe/Berlin, America/New_York, UTC). Checked with Intl,
 * so the browser and the server agree.
 */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z0-9_+\-/]{1,64}$/u.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
