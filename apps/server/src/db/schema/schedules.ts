import type { ScheduleException, WeeklyHours } from '@omnibot/contracts';
import { boolean, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

/**
 * A tenant's business hours: an IANA time zone, the weekly opening ranges (or always open) and exception dates
 * with their own hours. A bot's hand-over follows one (`engines.schedule_id` in its configuration).
 */
export const schedules = pgTable(
  'schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    timeZone: text('time_zone').notNull(),
    alwaysOpen: boolean('always_open').notNull().default(false),
    weekly: jsonb('weekly').$type<WeeklyHours>().notNull(),
    exceptions: jsonb('exceptions').$type<ScheduleException[]>().notNull().default([]),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('schedules_tenant_name_key').on(t.tenantId, t.name)],
);

export type ScheduleRow = typeof schedules.$inferSelect;
