import { describe, expect, it } from 'vitest';
import { isTimeZone } from './time-zone';
import {
  CreateScheduleBodySchema,
  scheduleMonth,
  ScheduleCalendarQuerySchema,
  type ScheduleHours,
  ScheduleHoursSchema,
  scheduleStateAt,
  UpdateScheduleBodySchema,
} from './schedules';

const hours = (input: Record<string, unknown>): ScheduleHours => ScheduleHoursSchema.parse(input);
const r = (from: string, to: string) => ({ from, to });
const weekdays = (from: string, to: string) => ({
  mon: [r(from, to)],
  tue: [r(from, to)],
  wed: [r(from, to)],
  thu: [r(from, to)],
  fri: [r(from, to)],
});
const everyDay = (from: string, to: string) => ({
  ...weekdays(from, to),
  sat: [r(from, to)],
  sun: [r(from, to)],
});

/*
 * The schedules of the table. Clock changes in 2026: Europe/Berlin forward on 29 March at 01:00Z (02:00 CET ->
 * 03:00 CEST) and back on 25 October at 01:00Z (03:00 CEST -> 02:00 CET); America/New_York forward on 8 March at
 * 07:00Z and back on 1 November at 06:00Z; Australia/Sydney (southern hemisphere) back on 5 April at 03:00 AEDT
 * (4 April 16:00Z) and forward on 4 October at 02:00 AEST (3 October 16:00Z). Asia/Kolkata (+05:30) and
 * Asia/Tokyo (+09:00) keep one offset all year.
 */
const S = {
  berlinOffice: hours({
    time_zone: 'Europe/Berlin',
    weekly: { ...weekdays('09:00', '17:00'), sat: [r('10:00', '14:00')] },
    exceptions: [
      { date: '2026-12-24', label: 'Christmas Eve', closed: false, ranges: [r('09:00', '12:00')] },
      { date: '2026-12-25', label: 'Christmas Day', closed: true },
      { date: '2026-12-26', label: "St Stephen's Day", closed: true },
    ],
  }),
  nyNights: hours({ time_zone: 'America/New_York', weekly: everyDay('22:00', '06:00') }),
  sydney: hours({
    time_zone: 'Australia/Sydney',
    weekly: { ...weekdays('08:00', '18:00'), sat: [r('20:00', '04:00')] },
  }),
  kolkata: hours({
    time_zone: 'Asia/Kolkata',
    weekly: { ...weekdays('09:30', '18:30'), sat: [r('09:30', '18:30')] },
    exceptions: [
      { date: '2026-08-15', label: 'Independence Day', closed: true },
      { date: '2026-08-16', label: 'Special Sunday', closed: false, ranges: [r('10:00', '14:00')] },
    ],
  }),
  tokyo24x7: hours({
    time_zone: 'Asia/Tokyo',
    always_open: true,
    weekly: { mon: [r('09:00', '10:00')] },
    exceptions: [
      { date: '2026-12-31', label: "New Year's Eve", closed: false, ranges: [r('00:00', '18:00')] },
      { date: '2027-01-01', label: "New Year's Day", closed: true },
    ],
  }),
  utc24x7: hours({ time_zone: 'UTC', weekly: everyDay('00:00', '24:00') }),
  never: hours({ time_zone: 'Europe/Berlin' }),
  openDayOnly: hours({
    time_zone: 'Europe/Berlin',
    exceptions: [{ date: '2027-06-01', label: 'Open day', closed: false, ranges: [r('10:00', '12:00')] }],
  }),
  berlinSaturdayNight: hours({ time_zone: 'Europe/Berlin', weekly: { sat: [r('22:00', '06:00')] } }),
  berlinSkippedHour: hours({ time_zone: 'Europe/Berlin', weekly: { sun: [r('02:30', '04:00')] } }),
  berlinLateFriday: hours({
    time_zone: 'Europe/Berlin',
    weekly: { fri: [r('18:00', '24:00')], sat: [r('00:00', '02:00')] },
  }),
  nyNewYearParty: hours({
    time_zone: 'America/New_York',
    exceptions: [{ date: '2026-12-31', label: 'Party', closed: false, ranges: [r('20:00', '02:00')] }],
  }),
  berlinThursdayNightBeforeHoliday: hours({
    time_zone: 'Europe/Berlin',
    weekly: { thu: [r('22:00', '06:00')] },
    exceptions: [{ date: '2026-12-25', label: 'Christmas Day', closed: true }],
  }),
};
type Name = keyof typeof S;

// [schedule, instant, open, next change, what the case shows]
const TABLE: [Name, string, boolean, string | null, string][] = [
  // Office hours in Berlin, the minute of opening and closing, weekends across both clock changes, holidays.
  [
    'berlinOffice',
    '2026-03-30T07:00:00Z',
    true,
    '2026-03-30T15:00:00.000Z',
    'opens at 09:00 CEST, that minute open',
  ],
  ['berlinOffice', '2026-03-30T06:59:00Z', false, '2026-03-30T07:00:00.000Z', 'the minute before opening'],
  [
    'berlinOffice',
    '2026-03-30T15:00:00Z',
    false,
    '2026-03-31T07:00:00.000Z',
    'closes at 17:00, that minute closed',
  ],
  ['berlinOffice', '2026-03-30T14:59:00Z', true, '2026-03-30T15:00:00.000Z', 'the last open minute'],
  [
    'berlinOffice',
    '2026-03-27T08:00:00Z',
    true,
    '2026-03-27T16:00:00.000Z',
    'winter time: 09:00 CET is 08:00Z',
  ],
  ['berlinOffice', '2026-03-28T16:00:00Z', false, '2026-03-30T07:00:00.000Z', 'weekend over spring forward'],
  ['berlinOffice', '2026-10-23T15:00:00Z', false, '2026-10-24T08:00:00.000Z', 'Friday evening to Saturday'],
  ['berlinOffice', '2026-10-24T12:00:00Z', false, '2026-10-26T08:00:00.000Z', 'weekend over fall back'],
  ['berlinOffice', '2026-12-24T08:00:00Z', true, '2026-12-24T11:00:00.000Z', 'exception date with own hours'],
  ['berlinOffice', '2026-12-24T11:00:00Z', false, '2026-12-28T08:00:00.000Z', 'two holidays and a Sunday'],
  [
    'berlinOffice',
    '2026-12-25T10:00:00Z',
    false,
    '2026-12-28T08:00:00.000Z',
    'a closed holiday on a weekday',
  ],
  ['berlinOffice', '2026-12-23T15:59:00Z', true, '2026-12-23T16:00:00.000Z', 'the day before the exceptions'],
  // Every night 22:00-06:00 in New York: 7 hours when the clocks go forward, 9 when they go back.
  ['nyNights', '2026-03-08T03:00:00Z', true, '2026-03-08T10:00:00.000Z', 'overnight across spring forward'],
  ['nyNights', '2026-03-08T09:59:00Z', true, '2026-03-08T10:00:00.000Z', '05:59 EDT still open'],
  [
    'nyNights',
    '2026-03-08T10:00:00Z',
    false,
    '2026-03-09T02:00:00.000Z',
    '06:00 EDT closed, opens 22:00 EDT',
  ],
  ['nyNights', '2026-11-01T02:00:00Z', true, '2026-11-01T11:00:00.000Z', 'overnight across fall back'],
  ['nyNights', '2026-11-01T10:59:00Z', true, '2026-11-01T11:00:00.000Z', '05:59 EST still open'],
  ['nyNights', '2026-11-01T06:30:00Z', true, '2026-11-01T11:00:00.000Z', '01:30 EST, the repeated hour'],
  ['nyNights', '2026-11-01T05:30:00Z', true, '2026-11-01T11:00:00.000Z', '01:30 EDT, its first pass'],
  ['nyNights', '2026-07-15T01:59:00Z', false, '2026-07-15T02:00:00.000Z', '21:59 EDT closed'],
  ['nyNights', '2026-07-15T02:00:00Z', true, '2026-07-15T10:00:00.000Z', '22:00 EDT open until 06:00'],
  // Sydney, southern hemisphere: daylight saving ends in April and starts in October.
  ['sydney', '2026-04-04T09:00:00Z', true, '2026-04-04T18:00:00.000Z', 'Saturday night over the end of DST'],
  ['sydney', '2026-04-04T17:59:00Z', true, '2026-04-04T18:00:00.000Z', '03:59 AEST open'],
  ['sydney', '2026-04-04T18:00:00Z', false, '2026-04-05T22:00:00.000Z', '04:00 AEST closed until Monday'],
  [
    'sydney',
    '2026-10-03T10:00:00Z',
    true,
    '2026-10-03T17:00:00.000Z',
    'Saturday night over the start of DST',
  ],
  ['sydney', '2026-10-03T16:30:00Z', true, '2026-10-03T17:00:00.000Z', '03:30 AEDT, just after the jump'],
  ['sydney', '2026-10-02T08:00:00Z', false, '2026-10-03T10:00:00.000Z', 'Friday 18:00 closed'],
  ['sydney', '2026-10-04T21:00:00Z', true, '2026-10-05T07:00:00.000Z', 'Monday 08:00 AEDT opening minute'],
  ['sydney', '2026-10-04T20:59:00Z', false, '2026-10-04T21:00:00.000Z', 'Monday 07:59 AEDT'],
  // Kolkata, +05:30 all year.
  ['kolkata', '2026-08-10T04:00:00Z', true, '2026-08-10T13:00:00.000Z', '09:30 IST opening minute'],
  ['kolkata', '2026-08-10T03:59:00Z', false, '2026-08-10T04:00:00.000Z', '09:29 IST'],
  ['kolkata', '2026-08-10T13:00:00Z', false, '2026-08-11T04:00:00.000Z', '18:30 IST closing minute'],
  ['kolkata', '2026-08-10T12:59:00Z', true, '2026-08-10T13:00:00.000Z', '18:29 IST'],
  ['kolkata', '2026-08-14T13:00:00Z', false, '2026-08-16T04:30:00.000Z', 'holiday Saturday, special Sunday'],
  ['kolkata', '2026-08-15T06:00:00Z', false, '2026-08-16T04:30:00.000Z', 'during the holiday'],
  ['kolkata', '2026-08-16T05:00:00Z', true, '2026-08-16T08:30:00.000Z', 'a Sunday open by exception'],
  ['kolkata', '2026-08-16T08:30:00Z', false, '2026-08-17T04:00:00.000Z', 'its closing minute'],
  // Tokyo, 24x7 with exceptions far ahead (weekly ranges ignored while always open).
  [
    'tokyo24x7',
    '2026-06-01T00:00:00Z',
    true,
    '2026-12-31T09:00:00.000Z',
    '24x7 until an exception months ahead',
  ],
  [
    'tokyo24x7',
    '2026-12-31T09:00:00Z',
    false,
    '2027-01-01T15:00:00.000Z',
    'closed from 18:00 JST to 2 January',
  ],
  ['tokyo24x7', '2027-01-01T15:00:00Z', true, null, 'open again for good'],
  ['tokyo24x7', '2026-12-31T08:59:00Z', true, '2026-12-31T09:00:00.000Z', 'the last minute of the eve'],
  ['utc24x7', '2026-05-05T12:34:00Z', true, null, '00:00-24:00 every day never closes'],
  ['never', '2026-05-05T12:34:00Z', false, null, 'no hours never opens'],
  ['openDayOnly', '2026-01-01T00:00:00Z', false, '2027-06-01T08:00:00.000Z', 'a single open day next year'],
  // An overnight range in Berlin across both clock changes.
  [
    'berlinSaturdayNight',
    '2026-03-28T21:00:00Z',
    true,
    '2026-03-29T04:00:00.000Z',
    '22:00 CET to 06:00 CEST',
  ],
  ['berlinSaturdayNight', '2026-03-29T00:59:00Z', true, '2026-03-29T04:00:00.000Z', '01:59 CET'],
  [
    'berlinSaturdayNight',
    '2026-03-29T01:00:00Z',
    true,
    '2026-03-29T04:00:00.000Z',
    '03:00 CEST after the jump',
  ],
  [
    'berlinSaturdayNight',
    '2026-10-24T20:00:00Z',
    true,
    '2026-10-25T05:00:00.000Z',
    '22:00 CEST to 06:00 CET',
  ],
  ['berlinSaturdayNight', '2026-10-25T04:59:00Z', true, '2026-10-25T05:00:00.000Z', '05:59 CET'],
  [
    'berlinSaturdayNight',
    '2026-10-25T05:00:00Z',
    false,
    '2026-10-31T21:00:00.000Z',
    '06:00 CET closed a week',
  ],
  // A range that starts in the hour the clock skips, or repeats.
  [
    'berlinSkippedHour',
    '2026-03-29T00:59:00Z',
    false,
    '2026-03-29T01:00:00.000Z',
    '02:30 is skipped: opens at the jump',
  ],
  ['berlinSkippedHour', '2026-03-29T01:00:00Z', true, '2026-03-29T02:00:00.000Z', 'open until 04:00 CEST'],
  [
    'berlinSkippedHour',
    '2026-10-25T00:29:00Z',
    false,
    '2026-10-25T00:30:00.000Z',
    '02:30 repeated: the first one',
  ],
  [
    'berlinSkippedHour',
    '2026-10-25T01:15:00Z',
    true,
    '2026-10-25T03:00:00.000Z',
    '02:15 CET, second pass, open',
  ],
  // Ranges that touch at midnight make one opening.
  [
    'berlinLateFriday',
    '2026-07-10T16:00:00Z',
    true,
    '2026-07-11T00:00:00.000Z',
    '18:00-24:00 then 00:00-02:00',
  ],
  [
    'berlinLateFriday',
    '2026-07-10T22:00:00Z',
    true,
    '2026-07-11T00:00:00.000Z',
    'midnight inside the opening',
  ],
  // Exception dates: own overnight hours, and a holiday after a weekly overnight range.
  [
    'nyNewYearParty',
    '2027-01-01T06:59:00Z',
    true,
    '2027-01-01T07:00:00.000Z',
    'an exception running overnight',
  ],
  ['nyNewYearParty', '2026-12-31T00:00:00Z', false, '2027-01-01T01:00:00.000Z', 'before the exception'],
  [
    'berlinThursdayNightBeforeHoliday',
    '2026-12-25T04:00:00Z',
    true,
    '2026-12-25T05:00:00.000Z',
    "Thursday's night runs into the holiday",
  ],
];

describe('scheduleStateAt', () => {
  it('has a table of at least 50 cases over at least 5 time zones', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(50);
    expect(new Set(TABLE.map(([name]) => S[name].time_zone)).size).toBeGreaterThanOrEqual(5);
  });

  it.each(TABLE)('%s at %s: open %s, next change %s (%s)', (name, instant, open, next) => {
    expect(scheduleStateAt(S[name], instant)).toEqual({ open, next_change: next });
  });

  it('agrees with itself: just before the next change the state holds, at it the state flips', () => {
    for (const [name, instant, open, next] of TABLE) {
      if (next === null) continue;
      const just = new Date(new Date(next).getTime() - 60_000);
      if (just.getTime() > new Date(instant).getTime())
        expect(scheduleStateAt(S[name], just).open).toBe(open);
      expect(scheduleStateAt(S[name], next).open).toBe(!open);
    }
  });

  it('refuses an invalid instant', () => {
    expect(() => scheduleStateAt(S.never, 'not a date')).toThrow(RangeError);
  });
});

describe('scheduleMonth', () => {
  it('shows what applies on each date of a month, the exceptions and the day the clocks change', () => {
    const days = scheduleMonth(S.berlinOffice, '2026-12');
    expect(days).toHaveLength(31);
    expect(days[0]).toMatchObject({
      date: '2026-12-01',
      weekday: 'tue',
      source: 'weekly',
      ranges: [r('09:00', '17:00')],
    });
    expect(days[23]).toMatchObject({
      date: '2026-12-24',
      source: 'exception',
      label: 'Christmas Eve',
      ranges: [r('09:00', '12:00')],
    });
    expect(days[24]).toMatchObject({
      date: '2026-12-25',
      source: 'exception',
      label: 'Christmas Day',
      ranges: [],
    });
    expect(days[26]).toMatchObject({ date: '2026-12-27', weekday: 'sun', source: 'weekly', ranges: [] });
    const march = scheduleMonth(S.berlinOffice, '2026-03');
    expect(march.filter((day) => day.clock_change).map((day) => day.date)).toEqual(['2026-03-29']);
    expect(
      scheduleMonth(S.sydney, '2026-10')
        .filter((day) => day.clock_change)
        .map((day) => day.date),
    ).toEqual(['2026-10-04']);
    expect(scheduleMonth(S.kolkata, '2026-10').some((day) => day.clock_change)).toBe(false);
    expect(scheduleMonth(S.tokyo24x7, '2026-02')).toHaveLength(28);
    expect(scheduleMonth(S.tokyo24x7, '2026-02').every((day) => day.all_day)).toBe(true);
  });
});

describe('schedule bodies', () => {
  const valid = { name: 'Office', time_zone: 'Europe/Berlin', weekly: { mon: [r('09:00', '17:00')] } };

  it('accepts a schedule and fills the days it does not name', () => {
    const parsed = CreateScheduleBodySchema.parse(valid);
    expect(parsed.weekly.tue).toEqual([]);
    expect(parsed.always_open).toBe(false);
    expect(parsed.exceptions).toEqual([]);
  });

  it.each([
    ['an unknown time zone', { ...valid, time_zone: 'Mars/Olympus' }],
    ['an empty time zone', { ...valid, time_zone: '' }],
    ['a time past 23:59', { ...valid, weekly: { mon: [r('24:00', '05:00')] } }],
    ['a malformed time', { ...valid, weekly: { mon: [r('9:00', '17:00')] } }],
    ['a range ending where it starts', { ...valid, weekly: { mon: [r('09:00', '09:00')] } }],
    ['overlapping ranges', { ...valid, weekly: { mon: [r('09:00', '12:00'), r('11:00', '13:00')] } }],
    [
      'an overnight range overlapping a later one',
      { ...valid, weekly: { mon: [r('22:00', '06:00'), r('23:00', '23:30')] } },
    ],
    ['an unknown weekday', { ...valid, weekly: { funday: [] } }],
    ['an empty name', { ...valid, name: '  ' }],
    ['an impossible date', { ...valid, exceptions: [{ date: '2026-02-30', label: 'x', closed: true }] }],
    [
      'a closed date with ranges',
      {
        ...valid,
        exceptions: [{ date: '2026-02-03', label: 'x', closed: true, ranges: [r('09:00', '10:00')] }],
      },
    ],
    [
      'an open date without ranges',
      { ...valid, exceptions: [{ date: '2026-02-03', label: 'x', closed: false }] },
    ],
    [
      'a date listed twice',
      {
        ...valid,
        exceptions: [
          { date: '2026-02-03', label: 'x', closed: true },
          { date: '2026-02-03', label: 'y', closed: true },
        ],
      },
    ],
    ['a date without a label', { ...valid, exceptions: [{ date: '2026-02-03', label: '', closed: true }] }],
    ['an unknown field', { ...valid, owner: 'me' }],
  ])('refuses %s', (_what, body) => {
    expect(CreateScheduleBodySchema.safeParse(body).success).toBe(false);
  });

  it('accepts touching ranges, 00:00-24:00 and IANA names Intl knows', () => {
    expect(
      CreateScheduleBodySchema.safeParse({
        ...valid,
        weekly: { mon: [r('09:00', '12:00'), r('12:00', '13:00')] },
      }).success,
    ).toBe(true);
    expect(
      CreateScheduleBodySchema.safeParse({ ...valid, weekly: { mon: [r('00:00', '24:00')] } }).success,
    ).toBe(true);
    for (const zone of ['UTC', 'Asia/Kolkata', 'America/Argentina/Buenos_Aires'])
      expect(isTimeZone(zone)).toBe(true);
    expect(UpdateScheduleBodySchema.safeParse({ time_zone: 'Nowhere/Else' }).success).toBe(false);
  });

  it('takes a month written YYYY-MM', () => {
    expect(ScheduleCalendarQuerySchema.safeParse({ month: '2026-03' }).success).toBe(true);
    for (const month of ['2026-13', '2026-3', '26-03', '1900-01']) {
      expect(ScheduleCalendarQuerySchema.safeParse({ month }).success).toBe(false);
    }
  });
});
