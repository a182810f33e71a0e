import { z } from 'zod';
import { isTimeZone } from './time-zone';

/** The weekdays a weekly re-sync can run on, Monday first. */
export const SYNC_WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type SyncWeekday = (typeof SYNC_WEEKDAYS)[number];

/** The spelling the runtime gives a time zone ("europe/berlin" -> "Europe/Berlin"). */
const canonicalTimeZone = (name: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;

const TimeSchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/u, 'The time must be HH:MM on a 24-hour clock, e.g. 03:30');

const TimeZoneSchema = z
  .string()
  .trim()
  .refine(isTimeZone, 'The time zone must be an IANA time zone, e.g. Europe/Berlin')
  .transform(canonicalTimeZone);

/**
 * When a web page or sitemap source is read again on its own: never, every day, or once a week, at a local time
 * in an IANA time zone.
 */
export const SourceSyncScheduleSchema = z.discriminatedUnion('frequency', [
  z.strictObject({ frequency: z.literal('off') }),
  z.strictObject({ frequency: z.literal('daily'), time: TimeSchema, time_zone: TimeZoneSchema }),
  z.strictObject({
    frequency: z.literal('weekly'),
    weekday: z.enum(SYNC_WEEKDAYS, 'The weekday must be monday to sunday'),
    time: TimeSchema,
    time_zone: TimeZoneSchema,
  }),
]);
export type SourceSyncSchedule = z.output<typeof SourceSyncScheduleSchema>;

/** A source's schedule as the API returns it (already checked and spelled canonically when it was set). */
export const SourceSyncSettingSchema = z.discriminatedUnion('frequency', [
  z.object({ frequency: z.literal('off') }),
  z.object({ frequency: z.literal('daily'), time: z.string(), time_zone: z.string() }),
  z.object({
    frequency: z.literal('weekly'),
    weekday: z.enum(SYNC_WEEKDAYS),
    time: z.string(),
    time_zone: z.string(),
  }),
]);
export type SourceSyncScheduleBody = z.input<typeof SourceSyncScheduleSchema>;

/** A schedule that runs (daily or weekly). */
export type SourceSyncRun = Exclude<SourceSyncSchedule, { frequency: 'off' }>;

/** What the last sync of a source found. */
export const SYNC_OUTCOMES = ['unchanged', 'changed', 'failed'] as const;
export type SyncOutcome = (typeof SYNC_OUTCOMES)[number];

export const SourceSyncResultSchema = z.object({
  outcome: z.enum(SYNC_OUTCOMES),
  /** What happened, in plain words ("No page changed.", "The site answered with HTTP status 500."). */
  message: z.string(),
  /** When that sync finished. */
  at: z.string(),
});
export type SourceSyncResult = z.infer<typeof SourceSyncResultSchema>;

interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock reading in `timeZone` at `ms`, as if that reading were UTC (so offset = reading - ms). */
function wallClockMs(timeZone: string, ms: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
}

const offsetAt = (timeZone: string, ms: number) =>
  wallClockMs(timeZone, Math.floor(ms / 1000) * 1000) - Math.floor(ms / 1000) * 1000;

const DAY_MS = 86_400_000;

/**
 * The instant a local date and time names in `timeZone`. A time that occurs twice (clocks go back) is its first
 * occurrence; a time that does not exist (clocks go forward) moves forward by the length of the gap, so 02:30 on
 * the night clocks jump from 02:00 to 03:00 is 03:30.
 */
export function localToInstant(date: LocalDate, minutes: number, timeZone: string): Date {
  const local = Date.UTC(date.year, date.month - 1, date.day) + minutes * 60_000;
  const before = offsetAt(timeZone, local - DAY_MS);
  const after = offsetAt(timeZone, local + DAY_MS);
  const candidates = [local - before, local - after].filter(
    (instant) => instant + offsetAt(timeZone, instant) === local,
  );
  if (candidates.length > 0) return new Date(Math.min(...candidates));
  return new Date(local - before);
}

/**
 * The first run of `schedule` strictly after `after`: the next day (or the next chosen weekday) whose local
 * time in the schedule's zone is later than `after`, across daylight-saving changes (see localToInstant).
 */
export function nextSyncAt(schedule: SourceSyncRun, after: Date): Date {
  const [hours = 0, mins = 0] = schedule.time.split(':').map(Number);
  const minutes = hours * 60 + mins;
  const today = new Date(wallClockMs(schedule.time_zone, after.getTime()));
  for (let offset = -1; offset <= 8; offset++) {
    const day = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + offset));
    if (schedule.frequency === 'weekly') {
      // getUTCDay counts from Sunday = 0; SYNC_WEEKDAYS counts from Monday.
      const weekday = SYNC_WEEKDAYS[(day.getUTCDay() + 6) % 7];
      if (weekday !== schedule.weekday) continue;
    }
    const instant = localToInstant(
      { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate() },
      minutes,
      schedule.time_zone,
    );
    if (instant.getTime() > after.getTime()) return instant;
  }
  throw new Error('no run of the schedule within eight days');
}
