import { describe, expect, it } from 'vitest';
import { isTimeZone } from './time-zone';
import { nextSyncAt, type SourceSyncRun, SourceSyncScheduleSchema, type SyncWeekday } from './knowledge-sync';

const daily = (time: string, time_zone: string): SourceSyncRun => ({ frequency: 'daily', time, time_zone });
const weekly = (weekday: SyncWeekday, time: string, time_zone: string): SourceSyncRun => ({
  frequency: 'weekly',
  weekday,
  time,
  time_zone,
});

/** [what, schedule, after (UTC), expected next run (UTC)] */
const CASES: Array<[string, SourceSyncRun, string, string]> = [
  [
    'UTC, a minute before the time: today',
    daily('03:30', 'UTC'),
    '2026-01-10T03:29:00Z',
    '2026-01-10T03:30:00Z',
  ],
  [
    'UTC, exactly at the time: tomorrow (strictly after)',
    daily('03:30', 'UTC'),
    '2026-01-10T03:30:00Z',
    '2026-01-11T03:30:00Z',
  ],
  [
    'Berlin in winter (UTC+1)',
    daily('09:00', 'Europe/Berlin'),
    '2026-01-10T07:00:00Z',
    '2026-01-10T08:00:00Z',
  ],
  [
    'Berlin in summer (UTC+2)',
    daily('09:00', 'Europe/Berlin'),
    '2026-07-01T00:00:00Z',
    '2026-07-01T07:00:00Z',
  ],
  [
    'Berlin, clocks go forward: 02:30 does not exist, runs at 03:30 CEST',
    daily('02:30', 'Europe/Berlin'),
    '2026-03-28T02:00:00Z',
    '2026-03-29T01:30:00Z',
  ],
  [
    'Berlin, the day after clocks went forward',
    daily('02:30', 'Europe/Berlin'),
    '2026-03-29T01:30:00Z',
    '2026-03-30T00:30:00Z',
  ],
  [
    'Berlin, 09:00 across the spring change keeps local time',
    daily('09:00', 'Europe/Berlin'),
    '2026-03-28T08:00:00Z',
    '2026-03-29T07:00:00Z',
  ],
  [
    'Berlin, clocks go back: 02:30 happens twice, the first one runs',
    daily('02:30', 'Europe/Berlin'),
    '2026-10-24T23:00:00Z',
    '2026-10-25T00:30:00Z',
  ],
  [
    'Berlin, clocks go back: the second 02:30 does not run again',
    daily('02:30', 'Europe/Berlin'),
    '2026-10-25T00:30:00Z',
    '2026-10-26T01:30:00Z',
  ],
  [
    'New York, clocks go forward: 02:15 runs at 03:15 EDT',
    daily('02:15', 'America/New_York'),
    '2026-03-08T05:00:00Z',
    '2026-03-08T07:15:00Z',
  ],
  [
    'New York, clocks go back: the first 01:30 (EDT)',
    daily('01:30', 'America/New_York'),
    '2026-11-01T04:00:00Z',
    '2026-11-01T05:30:00Z',
  ],
  [
    'New York, after the first 01:30: the next day in EST',
    daily('01:30', 'America/New_York'),
    '2026-11-01T05:30:00Z',
    '2026-11-02T06:30:00Z',
  ],
  [
    'weekly Monday 08:00 Berlin, from a Wednesday',
    weekly('monday', '08:00', 'Europe/Berlin'),
    '2026-01-14T12:00:00Z',
    '2026-01-19T07:00:00Z',
  ],
  [
    'weekly Monday, a minute before on that Monday',
    weekly('monday', '08:00', 'Europe/Berlin'),
    '2026-01-19T06:59:00Z',
    '2026-01-19T07:00:00Z',
  ],
  [
    'weekly Monday, at the time: a week later',
    weekly('monday', '08:00', 'Europe/Berlin'),
    '2026-01-19T07:00:00Z',
    '2026-01-26T07:00:00Z',
  ],
  [
    'weekly Sunday 02:30 Berlin on the spring-forward Sunday',
    weekly('sunday', '02:30', 'Europe/Berlin'),
    '2026-03-25T00:00:00Z',
    '2026-03-29T01:30:00Z',
  ],
  [
    'weekly Sunday 10:00 New York across the fall-back week',
    weekly('sunday', '10:00', 'America/New_York'),
    '2026-10-25T14:00:00Z',
    '2026-11-01T15:00:00Z',
  ],
  [
    'Kolkata (UTC+5:30, no DST)',
    daily('23:45', 'Asia/Kolkata'),
    '2026-06-01T18:00:00Z',
    '2026-06-01T18:15:00Z',
  ],
  [
    'Kathmandu (UTC+5:45), midnight, exactly at it',
    daily('00:00', 'Asia/Kathmandu'),
    '2026-06-01T18:15:00Z',
    '2026-06-02T18:15:00Z',
  ],
  [
    'Sydney, clocks go back in April: the first 02:30 (AEDT)',
    daily('02:30', 'Australia/Sydney'),
    '2026-04-04T13:00:00Z',
    '2026-04-04T15:30:00Z',
  ],
  [
    'Sydney, clocks go forward in October: 02:30 runs at 03:30 AEDT',
    daily('02:30', 'Australia/Sydney'),
    '2026-10-03T14:00:00Z',
    '2026-10-03T16:30:00Z',
  ],
  [
    'weekly Saturday 23:59 UTC, half a minute late: next Saturday',
    weekly('saturday', '23:59', 'UTC'),
    '2026-01-10T23:59:30Z',
    '2026-01-17T23:59:00Z',
  ],
  [
    'Berlin midnight across the new year',
    daily('00:00', 'Europe/Berlin'),
    '2026-12-31T23:00:00Z',
    '2027-01-01T23:00:00Z',
  ],
  [
    'local date ahead of UTC: Tokyo 07:00 on the local next day',
    daily('07:00', 'Asia/Tokyo'),
    '2026-05-10T23:00:00Z',
    '2026-05-11T22:00:00Z',
  ],
  [
    'local date behind UTC: Los Angeles Friday 20:00 is Saturday in UTC',
    weekly('friday', '20:00', 'America/Los_Angeles'),
    '2026-01-09T12:00:00Z',
    '2026-01-10T04:00:00Z',
  ],
];

describe('nextSyncAt', () => {
  it.each(CASES)('%s', (_what, schedule, after, expected) => {
    expect(nextSyncAt(schedule, new Date(after)).toISOString()).toBe(new Date(expected).toISOString());
  });

  it('never answers a time at or before the one given, every hour of a year in Berlin', () => {
    const schedule = daily('02:30', 'Europe/Berlin');
    const seen = new Set<string>();
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 3_600_000) {
      const next = nextSyncAt(schedule, new Date(ms));
      expect(next.getTime()).toBeGreaterThan(ms);
      expect(next.getTime() - ms).toBeLessThanOrEqual(25 * 3_600_000);
      seen.add(next.toISOString());
    }
    // One run per local day of 2026, and the hours after the last one lead to 1 January 2027.
    expect(seen.size).toBe(366);
  });
});

describe('SourceSyncScheduleSchema', () => {
  it('accepts off, daily and weekly, and spells the time zone as the runtime does', () => {
    expect(SourceSyncScheduleSchema.parse({ frequency: 'off' })).toEqual({ frequency: 'off' });
    expect(
      SourceSyncScheduleSchema.parse({ frequency: 'daily', time: '03:30', time_zone: 'europe/berlin' }),
    ).toEqual({ frequency: 'daily', time: '03:30', time_zone: 'Europe/Berlin' });
    expect(
      SourceSyncScheduleSchema.parse({
        frequency: 'weekly',
        weekday: 'sunday',
        time: '23:59',
        time_zone: 'America/New_York',
      }).frequency,
    ).toBe('weekly');
  });

  it.each([
    [{ frequency: 'hourly' }],
    [{ frequency: 'daily', time: '24:00', time_zone: 'UTC' }],
    [{ frequency: 'daily', time: '3:30', time_zone: 'UTC' }],
    [{ frequency: 'daily', time: '03:30', time_zone: 'Mars/Olympus_Mons' }],
    [{ frequency: 'daily', time: '03:30' }],
    [{ frequency: 'weekly', time: '03:30', time_zone: 'UTC' }],
    [{ frequency: 'weekly', weekday: 'funday', time: '03:30', time_zone: 'UTC' }],
    [{ frequency: 'off', time: '03:30' }],
  ])('refuses %j', (body) => {
    expect(SourceSyncScheduleSchema.safeParse(body).success).toBe(false);
  });

  it('knows IANA zones and refuses other strings', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Nowhere')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone('x'.repeat(200))).toBe(false);
  });
});
