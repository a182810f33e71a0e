import type {
  CaseSummaryMethod,
  CaseSummarySection,
  CaseSummarySections,
  CaseSummaryTrigger,
} from '@omnibot/contracts';
import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bots } from './bots';
import { conversations } from './conversations';
import { models } from './models';
import { tenants } from './tenants';

/**
 * How a tenant's conversations are summarised for the person who takes them: the sections, the length limit of
 * the whole text, when (hand-over, close) and by which chat model (none: an extractive summary).
 */
export const caseSummaryConfigs = pgTable(
  'case_summary_configs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** A deleted model leaves the configuration writing extractive summaries until another is chosen. */
    modelId: uuid('model_id').references(() => models.id, { onDelete: 'set null' }),
    sections: jsonb('sections').$type<CaseSummarySection[]>().notNull(),
    maxChars: integer('max_chars').notNull(),
    triggers: jsonb('triggers').$type<CaseSummaryTrigger[]>().notNull(),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('case_summary_configs_tenant_name_key').on(t.tenantId, t.name),
    index('case_summary_configs_model_idx').on(t.modelId),
  ],
);

/** The bots a configuration summarises; a bot is in at most one configuration (its primary key). */
export const caseSummaryConfigBots = pgTable(
  'case_summary_config_bots',
  {
    botId: uuid('bot_id')
      .primaryKey()
      .references(() => bots.id, { onDelete: 'cascade' }),
    configId: uuid('config_id')
      .notNull()
      .references(() => caseSummaryConfigs.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
  },
  (t) => [index('case_summary_config_bots_config_idx').on(t.configId)],
);

/** A summary written for a conversation, already masked with its bot's patterns. */
export const conversationSummaries = pgTable(
  'conversation_summaries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    trigger: text('trigger').$type<CaseSummaryTrigger>().notNull(),
    method: text('method').$type<CaseSummaryMethod>().notNull(),
    /** The chat model that wrote it, as it was named then. */
    modelName: text('model_name'),
    text: text('text').notNull(),
    sections: jsonb('sections').$type<CaseSummarySections>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('conversation_summaries_conversation_idx').on(t.conversationId, t.createdAt),
    check('conversation_summaries_trigger_check', sql`${t.trigger} in ('handover', 'close')`),
    check('conversation_summaries_method_check', sql`${t.method} in ('model', 'extractive')`),
  ],
);

export type CaseSummaryConfigRow = typeof caseSummaryConfigs.$inferSelect;
export type CaseSummaryRow = typeof conversationSummaries.$inferSelect;
