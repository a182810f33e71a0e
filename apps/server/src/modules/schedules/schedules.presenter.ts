import { type Schedule, scheduleStateAt } from '@omnibot/contracts';
import type { ScheduleRow } from '../../db/schema';
import { hoursOf, type ScheduleUser } from './schedules.service';

/** A stored schedule as the API shows it, with whether it is open at `now` and the bots that follow it. */
export function presentSchedule(row: ScheduleRow, bots: ScheduleUser[], now: Date = new Date()): Schedule {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    time_zone: row.timeZone,
    always_open: row.alwaysOpen,
    weekly: row.weekly,
    exceptions: row.exceptions.map((exception) => ({
      date: exception.date,
      label: exception.label,
      closed: exception.closed,
      ranges: exception.ranges,
    })),
    state: scheduleStateAt(hoursOf(row), now),
    bots: bots.map((bot) => ({ id: bot.id, name: bot.name })),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
