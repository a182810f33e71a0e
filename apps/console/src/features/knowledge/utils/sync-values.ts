import {
  isTimeZone,
  type KnowledgeSource,
  SYNC_WEEKDAYS,
  type SourceSyncScheduleBody,
  type SyncWeekday,
} from '@omnibot/contracts';

export const WEEKDAY_LABEL: Record<SyncWeekday, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

export const WEEKDAY_OPTIONS = SYNC_WEEKDAYS.map((day) => ({ value: day, label: WEEKDAY_LABEL[day] }));

/** Only web pages and sitemaps are read again on a schedule. */
export const canSchedule = (source: KnowledgeSource) => source.type === 'url' || source.type === 'sitemap';

/** The reader's own time zone, the default of a new schedule. */
export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Every IANA time zone the browser knows, with UTC. */
export function timeZoneOptions(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
}

export interface SyncFormValues {
  frequency: 'off' | 'daily' | 'weekly';
  weekday: SyncWeekday;
  time: string;
  time_zone: string;
}

export function syncFormValuesOf(source: KnowledgeSource): SyncFormValues {
  const sync = source.sync;
  if (sync.frequency === 'off') {
    return { frequency: 'off', weekday: 'monday', time: '03:00', time_zone: browserTimeZone() };
  }
  return {
    frequency: sync.frequency,
    weekday: sync.frequency === 'weekly' ? sync.weekday : 'monday',
    time: sync.time,
    time_zone: sync.time_zone,
  };
}

export function syncBodyOf(values: SyncFormValues): SourceSyncScheduleBody {
  if (values.frequency === 'off') return { frequency: 'off' };
  if (values.frequency === 'daily') {
    return { frequency: 'daily', time: values.time, time_zone: values.time_zone };
  }
  return { frequency: 'weekly', weekday: values.weekday, time: values.time, time_zone: values.time_zone };
}

export function validateSync(values: SyncFormValues): Partial<Record<keyof SyncFormValues, string>> {
  if (values.frequency === 'off') return {};
  const errors: Partial<Record<keyof SyncFormValues, string>> = {};
  if (!/^([01]\d|2[0-3]):[0-5]\d$/u.test(values.time)) {
    errors.time = 'Enter the time as HH:MM on a 24-hour clock, e.g. 03:30';
  }
  if (!isTimeZone(values.time_zone)) errors.time_zone = 'Choose a time zone from the list';
  return errors;
}

/** "Daily at 03:30 (Europe/Berlin)", "Mondays at 08:00 (UTC)" or "Off". */
export function describeSchedule(sync: KnowledgeSource['sync']): string {
  if (sync.frequency === 'off') return 'Off';
  const when = sync.frequency === 'daily' ? 'Daily' : `${WEEKDAY_LABEL[sync.weekday]}s`;
  return `${when} at ${sync.time} (${sync.time_zone})`;
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "in 3 hours", "5 minutes ago", "now": the largest whole unit between `value` and `now`. */
export function formatRelative(value: string, now: Date = new Date()): string {
  const diff = new Date(value).getTime() - now.getTime();
  if (Number.isNaN(diff)) return '';
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return format.format(Math.round(diff / ms), unit);
  }
  return format.format(0, 'minute');
}
