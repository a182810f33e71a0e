import type { Schedule } from '@omnibot/contracts';

export const SCHEDULE_ID = '7f7c5c3e-52f3-4f55-9a36-3d2c1c0e2a11';

/** A stored schedule: office hours, a Friday night shift and Christmas Day closed. */
export const SCHEDULE: Schedule = {
  id: SCHEDULE_ID,
  name: 'Support hours',
  description: '',
  time_zone: 'Europe/Berlin',
  always_open: false,
  weekly: {
    mon: [{ from: '09:00', to: '17:00' }],
    tue: [{ from: '09:00', to: '17:00' }],
    wed: [],
    thu: [],
    fri: [{ from: '22:00', to: '06:00' }],
    sat: [],
    sun: [],
  },
  exceptions: [{ date: '2026-12-25', label: 'Christmas Day', closed: true, ranges: [] }],
  state: { open: false, next_change: '2026-12-28T08:00:00.000Z' },
  bots: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};
