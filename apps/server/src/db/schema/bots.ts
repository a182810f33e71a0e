import type { WidgetConfig } from '@omnibot/contracts';
import { boolean, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

/**
 * A tenant's bot and its widget: the whole WidgetConfig as JSON, where every provider secret is stored only
 * sealed by the secret box (one purpose per secret path). config_version rises by one on each change and is
 * part of the public configuration's ETag.
 */
export const bots = pgTable(
  'bots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    config: jsonb('config').$type<WidgetConfig>().notNull(),
    configVersion: integer('config_version').notNull().default(1),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('bots_tenant_name_key').on(t.tenantId, t.name)],
);

export type BotRow = typeof bots.$inferSelect;
