import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

/** A tenant's API credential: the secret is stored only as a hash, with its last 4 characters for display. */
export const credentials = pgTable('credentials', {
  id: uuid('id').primaryKey().defaultRandom(),
  tenantId: text('tenant_id')
    .notNull()
    .unique()
    .references(() => tenants.tenantId, { onDelete: 'cascade' }),
  key: text('key').notNull().unique(),
  secretHash: text('secret_hash').notNull(),
  secretLast4: text('secret_last4').notNull(),
  createdBy: text('created_by'),
  updatedBy: text('updated_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type CredentialRow = typeof credentials.$inferSelect;
