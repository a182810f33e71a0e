import {
  INTEGRATION_ENGINES,
  INTEGRATION_KINDS,
  type IntegrationEngine,
  type IntegrationKind,
} from '@omnibot/contracts';
import { sql } from 'drizzle-orm';
import { check, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { inList } from './knowledge';
import { tenants } from './tenants';

/** Builtin settings as stored. */
export interface StoredBuiltinSettings {
  rag_id: string;
}

/** OpenAI-compatible settings as stored: `api_key` is sealed by the secret box ('' when there is none). */
export interface StoredOpenAiSettings {
  base_url: string;
  model: string;
  api_key: string;
  max_tokens: number;
  temperature: number;
}

/**
 * A tenant's connection to a chatbot engine that bots may answer with: the builtin engine over one of its RAGs,
 * or an OpenAI-compatible chat endpoint whose API key is stored only sealed.
 */
export const integrations = pgTable(
  'integrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    kind: text('kind').$type<IntegrationKind>().notNull().default('chatbot'),
    engine: text('engine').$type<IntegrationEngine>().notNull(),
    name: text('name').notNull(),
    settings: jsonb('settings').$type<StoredBuiltinSettings | StoredOpenAiSettings>().notNull(),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('integrations_tenant_name_key').on(t.tenantId, t.name),
    check('integrations_kind_check', sql`${t.kind} in (${inList(INTEGRATION_KINDS)})`),
    check('integrations_engine_check', sql`${t.engine} in (${inList(INTEGRATION_ENGINES)})`),
  ],
);

export type IntegrationRow = typeof integrations.$inferSelect;
