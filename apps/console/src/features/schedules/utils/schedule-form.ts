import {
  CreateScheduleBodySchema,
  type CreateScheduleBody,
  isOvernight,
  type Schedule,
  type UpdateScheduleBody,
  WEEKDAYS,
  type Weekday,
} from '@omnibot/contracts';

export interface RangeValues {
  from: string;
  to: string;
}

export interface ExceptionValues {
  date: string;
  label: string;
  closed: boolean;
  ranges: RangeValues[];
}

/** The schedule form: what the API takes, every weekday listed. */
export interface ScheduleFormValues {
  name: string;
  description: string;
  time_zone: string;
  always_open: boolean;
  weekly: Record<Weekday, RangeValues[]>;
  exceptions: ExceptionValues[];
}

/** The browser's own time zone, the likeliest one for a new schedule. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every IANA time zone the browser knows, UTC included. */
export function timeZoneOptions(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const zones = new Set(['UTC', ...known]);
  if (current !== '') zones.add(current);
  return [...zones];
}

/** A new schedule: office hours Monday to Friday, 09:00 to 17:00, in the browser's time zone. */
export function emptyScheduleForm(): ScheduleFormValues {
  const office = () => [{ from: '09:00', to: '17:00' }];
  return {
    name: '',
    description: '',
    time_zone: browserTimeZone(),
    always_open: false,
    weekly: { mon: office(), tue: office(), wed: office(), thu: office(), fri: office(), sat: [], sun: [] },
    exceptions: [],
  };
}

export function scheduleFormOf(schedule: Schedule): ScheduleFormValues {
  const copy = (ranges: RangeValues[]) => ranges.map((range) => ({ from: range.from, to: range.to }));
  return {
    name: schedule.name,
    description: schedule.description,
    time_zone: schedule.time_zone,
    always_open: schedule.always_open,
    weekly: Object.fromEntries(WEEKDAYS.map((day) => [day, copy(schedule.weekly[day])])) as Record<
      Weekday,
      RangeValues[]
    >,
    exceptions: schedule.exceptions.map((exception) => ({
      date: exception.date,
      label: exception.label,
      closed: exception.closed,
      ranges: copy(exception.ranges),
    })),
  };
}

/** The body the API takes; a closed date's ranges are dropped (the form keeps them while it is edited). */
export function scheduleBodyOf(values: ScheduleFormValues): CreateScheduleBody {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    time_zone: values.time_zone,
    always_open: values.always_open,
    weekly: values.weekly,
    exceptions: values.exceptions.map((exception) => ({
      date: exception.date,
      label: exception.label.trim(),
      closed: exception.closed,
      ranges: exception.closed ? [] : exception.ranges,
    })),
  };
}

export const updateBodyOf = (values: ScheduleFormValues): UpdateScheduleBody => scheduleBodyOf(values);

/**
 * The form's errors by field path, from the same schema the server checks with: a range's times on the range, a
 * day's overlap on the day, a date's problems on the date.
 */
export function validateScheduleForm(values: ScheduleFormValues): Record<string, string> {
  const parsed = CreateScheduleBodySchema.safeParse(scheduleBodyOf(values));
  if (parsed.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String).join('.');
    errors[path] ??= issue.message;
  }
  return errors;
}

/** "22:00–06:00 (overnight)" */
export const rangeText = (range: RangeValues) =>
  `${range.from}–${range.to}${isOvernight(range) ? ' (overnight)' : ''}`;

/** The first month a calendar shows: this month. */
export function currentMonth(now: Date = new Date()): string {
  return `${String(now.getFullYear())}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}

/** The month `step` months after `month` (YYYY-MM). */
export function shiftMonth(month: string, step: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + step;
  return `${String(Math.floor(index / 12))}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** "March 2026" */
export function monthTitle(month: string): string {
  const date = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1));
  return date.toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}
