import type { BotTemplateConfig } from '@omnibot/contracts';
import { jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

/**
 * A tenant's bot template: the appearance and texts of a bot (identity, welcome, appearance, feedback, titles,
 * masking, launcher, window), never its engines, install origins or provider blocks, so it holds no secret.
 */
export const botTemplates = pgTable(
  'bot_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    config: jsonb('config').$type<BotTemplateConfig>().notNull(),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('bot_templates_tenant_name_key').on(t.tenantId, t.name)],
);

export type BotTemplateRow = typeof botTemplates.$inferSelect;
