const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const parse = (value: string | Date) => (value instanceof Date ? value : new Date(value));

/** "22 Nov 2026" in the reader's locale; an empty string for a missing or unreadable value. */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = parse(value);
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
}

/** "22 Nov 2026, 14:32" in the reader's locale and time zone. */
export function formatDateTime(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = parse(value);
  return Number.isNaN(date.getTime()) ? '' : dateTimeFormat.format(date);
}
