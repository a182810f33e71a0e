import { z } from 'zod';
import { isTimeZone } from './time-zone';
import { safeString } from './text';

export const SCHEDULE_NAME_MAX = 80;
export const SCHEDULE_DESCRIPTION_MAX = 500;
export const SCHEDULE_LABEL_MAX = 80;
/** Opening ranges per weekday or exception date. */
export const SCHEDULE_RANGES_MAX = 6;
export const SCHEDULE_EXCEPTIONS_MAX = 200;

/** The weekdays in the order a week is shown (Monday first), with their JavaScript day number (Sunday 0). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
const WEEKDAY_OF_JS_DAY: readonly Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
export const WEEKDAY_LABELS: Readonly<Record<Weekday, string>> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

const MINUTES_PER_DAY = 24 * 60;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

const CLOCK = /^([01]\d|2[0-3]):([0-5]\d)$/;
const CLOCK_END = /^(?:([01]\d|2[0-3]):([0-5]\d)|24:00)$/;

/** Minutes since midnight of "HH:MM" ("24:00" is 1440). */
export function clockMinutes(value: string): number {
  if (value === '24:00') return MINUTES_PER_DAY;
  const [hours = '0', minutes = '0'] = value.split(':');
  return Number(hours) * 60 + Number(minutes);
}

/**
 * Whether a range runs past midnight into the next day: its end is not after its start (22:00-06:00). A range
 * ending at 24:00 ends at midnight and is not overnight.
 */
export const isOvernight = (range: { from: string; to: string }) =>
  range.to !== '24:00' && clockMinutes(range.to) <= clockMinutes(range.from);

/** The minutes a range covers counted from the midnight of its day: [start, end), end up to 2880. */
function rangeSpan(range: TimeRange): [number, number] {
  const start = clockMinutes(range.from);
  const end = clockMinutes(range.to);
  return [start, isOvernight(range) ? end + MINUTES_PER_DAY : end];
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * One opening range of a day, "HH:MM" to "HH:MM". An end not after the start runs into the next day (22:00-06:00
 * is open from 22:00 until 06:00 the next morning); 00:00-24:00 is the whole day.
 */
export const TimeRangeSchema = z
  .strictObject({
    from: z.string('The start is a time.').regex(CLOCK, 'The start is a time written HH:MM, 00:00 to 23:59.'),
    to: z.string('The end is a time.').regex(CLOCK_END, 'The end is a time written HH:MM, 00:00 to 24:00.'),
  })
  .refine((range) => range.from !== range.to, 'A range ends at another time than it starts.');
export type TimeRange = z.infer<typeof TimeRangeSchema>;

/** A day's ranges: at most SCHEDULE_RANGES_MAX, none overlapping another (an overnight one counted into the night). */
const DayRangesSchema = z
  .array(TimeRangeSchema, 'The ranges of a day are a list.')
  .max(SCHEDULE_RANGES_MAX, `A day has at most ${SCHEDULE_RANGES_MAX} ranges.`)
  .superRefine((ranges, ctx) => {
    const spans = ranges.map(rangeSpan).sort((a, b) => a[0] - b[0]);
    for (let index = 1; index < spans.length; index++) {
      const previous = spans[index - 1];
      const current = spans[index];
      if (previous && current && current[0] < previous[1]) {
        ctx.addIssue({ code: 'custom', message: 'The ranges of a day overlap; join them into one.' });
        return;
      }
    }
  });

export const WeeklyHoursSchema = z.strictObject({
  mon: DayRangesSchema.default([]),
  tue: DayRangesSchema.default([]),
  wed: DayRangesSchema.default([]),
  thu: DayRangesSchema.default([]),
  fri: DayRangesSchema.default([]),
  sat: DayRangesSchema.default([]),
  sun: DayRangesSchema.default([]),
});
export type WeeklyHours = z.infer<typeof WeeklyHoursSchema>;

/**
 * A holiday or exception date: closed all day, or open only in its own ranges. It replaces the weekly ranges that
 * start on that date; a weekly overnight range of the day before still runs into its morning.
 */
export const ScheduleExceptionSchema = z
  .strictObject({
    date: z
      .string('The date is written YYYY-MM-DD.')
      .refine(isCalendarDate, 'The date is a real calendar date written YYYY-MM-DD.'),
    label: safeString()
      .trim()
      .min(1, 'Give the date a label, for example the name of the holiday.')
      .max(SCHEDULE_LABEL_MAX, `A label has at most ${SCHEDULE_LABEL_MAX} characters.`),
    closed: z.boolean('closed is true or false.'),
    ranges: DayRangesSchema.default([]),
  })
  .superRefine((exception, ctx) => {
    if (exception.closed && exception.ranges.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['ranges'], message: 'A closed date has no opening ranges.' });
    }
    if (!exception.closed && exception.ranges.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['ranges'],
        message: 'A date with its own hours needs at least one range; or mark it closed.',
      });
    }
  });
export type ScheduleException = z.infer<typeof ScheduleExceptionSchema>;

const ExceptionListSchema = z
  .array(ScheduleExceptionSchema, 'The exceptions are a list.')
  .max(SCHEDULE_EXCEPTIONS_MAX, `A schedule has at most ${SCHEDULE_EXCEPTIONS_MAX} exception dates.`)
  .superRefine((exceptions, ctx) => {
    const seen = new Set<string>();
    for (const exception of exceptions) {
      if (seen.has(exception.date)) {
        ctx.addIssue({ code: 'custom', message: `The date ${exception.date} is listed twice.` });
        return;
      }
      seen.add(exception.date);
    }
  });

const ScheduleNameSchema = safeString()
  .trim()
  .min(1, 'The name is required.')
  .max(SCHEDULE_NAME_MAX, `The name has at most ${SCHEDULE_NAME_MAX} characters.`);
const ScheduleDescriptionSchema = safeString()
  .trim()
  .max(SCHEDULE_DESCRIPTION_MAX, `The description has at most ${SCHEDULE_DESCRIPTION_MAX} characters.`);
const TimeZoneSchema = z
  .string('The time zone is an IANA name such as Europe/Berlin.')
  .refine(isTimeZone, 'The time zone is not known; use an IANA name such as Europe/Berlin.');

/** What decides when a schedule is open: a time zone, the weekly hours (or always open), and exception dates. */
const ScheduleHoursShape = {
  time_zone: TimeZoneSchema,
  /** Open around the clock every day (24x7); exception dates still apply. The weekly ranges are then ignored. */
  always_open: z.boolean('always_open is true or false.').default(false),
  weekly: WeeklyHoursSchema.prefault({}),
  exceptions: ExceptionListSchema.default([]),
};

export const ScheduleHoursSchema = z.object(ScheduleHoursShape);
/** The part of a schedule that decides when it is open. */
export type ScheduleHours = z.infer<typeof ScheduleHoursSchema>;

export const CreateScheduleBodySchema = z.strictObject({
  name: ScheduleNameSchema,
  description: ScheduleDescriptionSchema.optional(),
  ...ScheduleHoursShape,
});
export type CreateScheduleBody = z.input<typeof CreateScheduleBodySchema>;

/** Every field optional; `weekly` and `exceptions` are replaced as a whole when given. */
export const UpdateScheduleBodySchema = z.strictObject({
  name: ScheduleNameSchema.optional(),
  description: ScheduleDescriptionSchema.optional(),
  time_zone: TimeZoneSchema.optional(),
  always_open: z.boolean('always_open is true or false.').optional(),
  weekly: WeeklyHoursSchema.optional(),
  exceptions: ExceptionListSchema.optional(),
});
export type UpdateScheduleBody = z.input<typeof UpdateScheduleBodySchema>;

export const ScheduleIdParamsSchema = z.object({ id: z.uuid('Unknown schedule id') });

export const ScheduleListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(50),
});
export type ScheduleListQuery = z.infer<typeof ScheduleListQuerySchema>;

export const ScheduleStateSchema = z.object({
  open: z.boolean(),
  /** When it opens or closes next (ISO 8601, UTC); null when it never changes again. */
  next_change: z.string().nullable(),
});
export type ScheduleState = z.infer<typeof ScheduleStateSchema>;

export const ScheduleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  time_zone: z.string(),
  always_open: z.boolean(),
  weekly: z.object({
    mon: z.array(z.object({ from: z.string(), to: z.string() })),
    tue: z.array(z.object({ from: z.string(), to: z.string() })),
    wed: z.array(z.object({ from: z.string(), to: z.string() })),
    thu: z.array(z.object({ from: z.string(), to: z.string() })),
    fri: z.array(z.object({ from: z.string(), to: z.string() })),
    sat: z.array(z.object({ from: z.string(), to: z.string() })),
    sun: z.array(z.object({ from: z.string(), to: z.string() })),
  }),
  exceptions: z.array(
    z.object({
      date: z.string(),
      label: z.string(),
      closed: z.boolean(),
      ranges: z.array(z.object({ from: z.string(), to: z.string() })),
    }),
  ),
  /** Whether it is open now, and when that changes. */
  state: ScheduleStateSchema,
  /** The bots whose hand-over follows this schedule. */
  bots: z.array(z.object({ id: z.string(), name: z.string() })),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Schedule = z.infer<typeof ScheduleSchema>;

export const ScheduleListSchema = z.object({
  items: z.array(ScheduleSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type ScheduleList = z.infer<typeof ScheduleListSchema>;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export const ScheduleCalendarQuerySchema = z.strictObject({
  month: z
    .string('The month is written YYYY-MM.')
    .regex(MONTH, 'The month is written YYYY-MM, for example 2026-03.')
    .refine((value) => {
      const year = Number(value.slice(0, 4));
      return year >= 1970 && year <= 2200;
    }, 'The month lies between 1970 and 2200.'),
});

/** What applies on one date of a schedule's calendar. */
export const CalendarDaySchema = z.object({
  date: z.string(),
  weekday: z.enum(WEEKDAYS),
  /** `weekly`: the weekly hours; `exception`: a holiday or exception date replaces them. */
  source: z.enum(['weekly', 'exception']),
  /** The exception's label; null on a weekly day. */
  label: z.string().nullable(),
  /** The ranges that start on this date (an overnight one runs into the next). Empty: closed all day. */
  ranges: z.array(z.object({ from: z.string(), to: z.string() })),
  /** Open from midnight to midnight. */
  all_day: z.boolean(),
  /** The clocks change on this date (daylight saving time starts or ends). */
  clock_change: z.boolean(),
});
export type CalendarDay = z.infer<typeof CalendarDaySchema>;

export const ScheduleCalendarSchema = z.object({
  schedule_id: z.string(),
  month: z.string(),
  time_zone: z.string(),
  days: z.array(CalendarDaySchema),
});
export type ScheduleCalendar = z.infer<typeof ScheduleCalendarSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Evaluation: which instants a schedule is open, with Intl only (no date library).

/** A calendar date as numbers; `index` counts days since 1970-01-01 so dates can be stepped. */
interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const dayIndex = (date: LocalDate) => Math.floor(Date.UTC(date.year, date.month - 1, date.day) / DAY_MS);
function dateOfIndex(index: number): LocalDate {
  const date = new Date(index * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}
const pad = (value: number, width = 2) => String(value).padStart(width, '0');
const isoDateOfIndex = (index: number) => {
  const date = dateOfIndex(index);
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
};
const weekdayOfIndex = (index: number): Weekday => WEEKDAY_OF_JS_DAY[(((index + 4) % 7) + 7) % 7] ?? 'mon';
const indexOfIsoDate = (value: string) =>
  dayIndex({
    year: Number(value.slice(0, 4)),
    month: Number(value.slice(5, 7)),
    day: Number(value.slice(8, 10)),
  });

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The wall clock of `zone` at an instant, as the UTC milliseconds of the same wall-clock reading. */
function wallClockAt(zone: string, instant: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(zone).formatToParts(new Date(instant))) {
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

/** The zone's offset from UTC at an instant, in milliseconds (whole seconds). */
const offsetAt = (zone: string, instant: number) => {
  const whole = Math.floor(instant / 1000) * 1000;
  return wallClockAt(zone, whole) - whole;
};

/**
 * The instant the clock of `zone` shows `wall` (UTC milliseconds of the wall-clock reading). A reading the clock
 * shows twice (when it goes back) is taken the first time; one it skips (when it goes forward) is taken as the moment
 * the clock jumps past it, the first instant it shows that reading or later.
 */
export function instantOfWallClock(zone: string, wall: number): number {
  const before = offsetAt(zone, wall - DAY_MS);
  const after = offsetAt(zone, wall + DAY_MS);
  const candidates = [wall - before, wall - after].filter(
    (candidate) => candidate + offsetAt(zone, candidate) === wall,
  );
  if (candidates.length > 0) return Math.min(...candidates);
  // Skipped: the jump lies between the two readings; find the first minute on the later offset.
  let low = wall - after;
  let high = wall - before;
  while (high - low > MINUTE_MS) {
    const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
    if (offsetAt(zone, middle) === after) high = middle;
    else low = middle;
  }
  return high;
}

/** The local date of `zone` at an instant, as a day index. */
const localDayIndex = (zone: string, instant: number) => Math.floor(wallClockAt(zone, instant) / DAY_MS);

/** The instant a local date starts (its 00:00, or the first moment after a skipped midnight). */
const startOfLocalDay = (zone: string, index: number) => instantOfWallClock(zone, index * DAY_MS);

/** What applies on a date: the exception for it, or the weekly hours of its weekday. */
function rangesOn(
  hours: ScheduleHours,
  exceptions: ReadonlyMap<number, ScheduleException>,
  index: number,
): { ranges: TimeRange[]; exception: ScheduleException | null } {
  const exception = exceptions.get(index) ?? null;
  if (exception) return { ranges: exception.closed ? [] : exception.ranges, exception };
  if (hours.always_open) return { ranges: [{ from: '00:00', to: '24:00' }], exception: null };
  return { ranges: hours.weekly[weekdayOfIndex(index)], exception: null };
}

/** The open intervals [start, end) in UTC milliseconds of the ranges starting on a local date. */
function intervalsOn(
  hours: ScheduleHours,
  exceptions: ReadonlyMap<number, ScheduleException>,
  index: number,
): [number, number][] {
  const midnight = index * DAY_MS;
  return rangesOn(hours, exceptions, index).ranges.map((range) => {
    const [start, end] = rangeSpan(range);
    return [
      instantOfWallClock(hours.time_zone, midnight + start * MINUTE_MS),
      instantOfWallClock(hours.time_zone, midnight + end * MINUTE_MS),
    ];
  });
}

/** Sorted, with touching and overlapping intervals joined. */
function merged(intervals: [number, number][]): [number, number][] {
  const sorted = intervals.filter(([start, end]) => end > start).sort((a, b) => a[0] - b[0]);
  const result: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = result.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else result.push([start, end]);
  }
  return result;
}

const exceptionsByDay = (hours: ScheduleHours) =>
  new Map(hours.exceptions.map((exception) => [indexOfIsoDate(exception.date), exception]));

/** Days looked at in one pass: more than a week, so a pass without a change means the weekly hours never change. */
const WINDOW_DAYS = 10;

/**
 * Whether a schedule is open at an instant, and when that next changes (null when it never does: always open, or
 * never open, with no exception date ahead). Ranges are read on the schedule's wall clock: on the day the clocks
 * go forward or back a range still opens and closes at the times written, so 22:00-06:00 lasts 7 or 9 hours then.
 */
export function scheduleStateAt(hours: ScheduleHours, instant: Date | string | number): ScheduleState {
  const at = new Date(instant).getTime();
  if (Number.isNaN(at)) throw new RangeError('scheduleStateAt needs a valid instant.');
  const zone = hours.time_zone;
  const exceptions = exceptionsByDay(hours);
  const exceptionDays = [...exceptions.keys()].sort((a, b) => a - b);
  let cursor = at;
  let open: boolean | null = null;
  for (let pass = 0; pass < 1000; pass++) {
    const today = localDayIndex(zone, cursor);
    const first = today - 1;
    const last = today + WINDOW_DAYS;
    const intervals: [number, number][] = [];
    for (let index = first; index <= last; index++) intervals.push(...intervalsOn(hours, exceptions, index));
    const joined = merged(intervals);
    // Intervals of later dates start no earlier than this.
    const horizon = startOfLocalDay(zone, last + 1);
    const containing = joined.find(([start, end]) => start <= cursor && cursor < end);
    open ??= containing !== undefined;
    if (containing) {
      if (containing[1] < horizon) return { open, next_change: new Date(containing[1]).toISOString() };
    } else {
      const next = joined.find(([start]) => start > cursor);
      if (next) return { open, next_change: new Date(next[0]).toISOString() };
    }
    // Nothing changes up to the horizon. Without an exception date in this window the weekly hours are the same
    // every week, so nothing changes until the next exception date.
    const hasException = exceptionDays.some((index) => index >= first && index <= last);
    if (hasException) {
      cursor = horizon - MINUTE_MS;
      continue;
    }
    const ahead = exceptionDays.find((index) => index > last);
    if (ahead === undefined) return { open, next_change: null };
    cursor = startOfLocalDay(zone, ahead - 1);
  }
  return { open: open ?? false, next_change: null };
}

/** What applies on each date of a month (YYYY-MM) of a schedule, in its time zone. */
export function scheduleMonth(hours: ScheduleHours, month: string): CalendarDay[] {
  const year = Number(month.slice(0, 4));
  const monthNumber = Number(month.slice(5, 7));
  const first = dayIndex({ year, month: monthNumber, day: 1 });
  const next = dayIndex({
    year: monthNumber === 12 ? year + 1 : year,
    month: monthNumber === 12 ? 1 : monthNumber + 1,
    day: 1,
  });
  const exceptions = exceptionsByDay(hours);
  const days: CalendarDay[] = [];
  for (let index = first; index < next; index++) {
    const { ranges, exception } = rangesOn(hours, exceptions, index);
    const start = startOfLocalDay(hours.time_zone, index);
    const end = startOfLocalDay(hours.time_zone, index + 1);
    days.push({
      date: isoDateOfIndex(index),
      weekday: weekdayOfIndex(index),
      source: exception ? 'exception' : 'weekly',
      label: exception?.label ?? null,
      ranges: ranges.map((range) => ({ from: range.from, to: range.to })),
      all_day: ranges.some((range) => range.from === '00:00' && range.to === '24:00'),
      clock_change: offsetAt(hours.time_zone, start) !== offsetAt(hours.time_zone, end - 1),
    });
  }
  return days;
}
