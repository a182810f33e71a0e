import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';
import { users } from './users';

/** What a person answering in the inbox chose for themself: the language visitors' messages are translated into. */
export const agentPreferences = pgTable('agent_preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tenantId: text('tenant_id')
    .notNull()
    .references(() => tenants.tenantId, { onDelete: 'cascade' }),
  language: text('language').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type AgentPreferencesRow = typeof agentPreferences.$inferSelect;
