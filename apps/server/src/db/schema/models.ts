import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

/**
 * A connection to a chat, embedding or speech (text-to-speech) model on an OpenAI-compatible endpoint, owned by a level-1 or level-2
 * tenant. The API key is stored only sealed by the secret box, with its last 4 characters for the mask.
 */
export const models = pgTable(
  'models',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind').$type<'chat' | 'embedding' | 'speech'>().notNull(),
    baseUrl: text('base_url').notNull(),
    modelName: text('model_name').notNull(),
    apiKeyEncrypted: text('api_key_encrypted'),
    apiKeyLast4: text('api_key_last4'),
    maxTokens: integer('max_tokens').notNull().default(1024),
    temperature: real('temperature').notNull().default(0.7),
    /** Vector length of an embedding model; null lets the provider decide (and for chat models). */
    dimensions: integer('dimensions'),
    /** Offered to every tenant below the owner; otherwise only to the tenants listed in model_shares. */
    sharedWithAll: boolean('shared_with_all').notNull().default(false),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('models_tenant_idx').on(t.tenantId, t.name),
    check('models_kind_check', sql`${t.kind} in ('chat', 'embedding', 'speech')`),
  ],
);

/** The tenants a model is offered to when it is not shared with all. */
export const modelShares = pgTable(
  'model_shares',
  {
    modelId: uuid('model_id')
      .notNull()
      .references(() => models.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.tenantId] }), index('model_shares_tenant_idx').on(t.tenantId)],
);

export type ModelRow = typeof models.$inferSelect;
