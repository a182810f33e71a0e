import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Installation-wide values generated once (for example the session signing secret). */
export const systemSettings = pgTable('system_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
