import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Events counted by the database-backed rate limits (failed sign-ins, mails), so limits hold across processes. */
export const rateLimitEvents = pgTable(
  'rate_limit_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('rate_limit_events_lookup_idx').on(t.bucket, t.key, t.createdAt),
    index('rate_limit_events_sweep_idx').on(t.bucket, t.createdAt),
  ],
);
