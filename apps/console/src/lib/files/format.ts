const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** "20 MB", "1.5 GB", "512 bytes": powers of 1024, at most one decimal, none for whole numbers. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = value >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${rounded.toLocaleString('en-US')} ${UNITS[unit]}`;
}

/** "20,971,520 bytes": the exact size, for titles and screen readers. */
export const formatExactBytes = (bytes: number) =>
  `${bytes.toLocaleString('en-US')} ${bytes === 1 ? 'byte' : 'bytes'}`;

/** Percent of `part` in `whole`, 0 to 100, rounded down so 100 means really done. */
export function percentOf(part: number, whole: number): number {
  if (whole <= 0) return part > 0 ? 100 : 0;
  return Math.min(100, Math.max(0, Math.floor((part / whole) * 100)));
}

/**
 * When a signed download URL stops working: the local driver's `expires` (Unix seconds), or an S3 presigned
 * URL's X-Amz-Date plus X-Amz-Expires. Null when the URL says neither.
 */
export function signedUrlExpiry(url: string): Date | null {
  let params: URLSearchParams;
  try {
    params = new URL(url, 'http://localhost').searchParams;
  } catch {
    return null;
  }
  const expires = params.get('expires');
  if (expires && /^\d+$/u.test(expires)) return new Date(Number(expires) * 1000);
  const amzDate = params.get('X-Amz-Date');
  const amzExpires = params.get('X-Amz-Expires');
  const parts = amzDate ? /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/u.exec(amzDate) : null;
  if (parts && amzExpires && /^\d+$/u.test(amzExpires)) {
    const [, y, mo, d, h, mi, s] = parts.map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    return new Date(Date.UTC(y, mo - 1, d, h, mi, s) + Number(amzExpires) * 1000);
  }
  return null;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** "in 60 minutes (at 14:32)", "in about 2 hours (at 16:32)", "already" when past. */
export function expiryText(expiresAt: Date, now: Date): string {
  const seconds = Math.round((expiresAt.getTime() - now.getTime()) / 1000);
  if (seconds <= 0) return 'already';
  const clock = `${pad(expiresAt.getHours())}:${pad(expiresAt.getMinutes())}`;
  let wait: string;
  if (seconds < 90) wait = `${seconds} seconds`;
  else if (seconds < 90 * 60) wait = `${Math.round(seconds / 60)} minutes`;
  else if (seconds < 36 * 3600) wait = `about ${Math.round(seconds / 3600)} hours`;
  else wait = `about ${Math.round(seconds / 86_400)} days`;
  return `in ${wait} (at ${clock})`;
}

/** "5 Jan 2026, 14:32" in the user's locale conventions but a fixed, unambiguous month name. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}
