import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { indexes } from './indexes';
import { models } from './models';
import { prompts } from './prompts';
import { tenants } from './tenants';

export const RAG_ANSWER_KINDS = ['qa', 'model', 'extractive', 'fallback'] as const;
export type RagAnswerKindValue = (typeof RAG_ANSWER_KINDS)[number];

/**
 * A tenant's answering setup: the index it retrieves from, the prompt and chat model it answers with (the
 * built-in prompt and extractive answers without them), the text given when nothing relevant is found.
 */
export const rags = pgTable(
  'rags',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    indexId: uuid('index_id').notNull(),
    promptId: uuid('prompt_id'),
    /** A deleted model leaves the RAG answering extractively until another is chosen. */
    modelId: uuid('model_id').references(() => models.id, { onDelete: 'set null' }),
    fallbackText: text('fallback_text').notNull(),
    citations: boolean('citations').notNull().default(true),
    maxContextChars: integer('max_context_chars').notNull().default(6000),
    language: text('language').notNull().default('auto'),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('rags_tenant_name_key').on(t.tenantId, t.name),
    // (tenant_id, x) references keep a RAG from ever pointing at another tenant's index or prompt.
    foreignKey({
      name: 'rags_index_fk',
      columns: [t.tenantId, t.indexId],
      foreignColumns: [indexes.tenantId, indexes.id],
    }).onDelete('restrict'),
    foreignKey({
      name: 'rags_prompt_fk',
      columns: [t.tenantId, t.promptId],
      foreignColumns: [prompts.tenantId, prompts.id],
    }).onDelete('restrict'),
    index('rags_tenant_index_idx').on(t.tenantId, t.indexId),
    index('rags_tenant_prompt_idx').on(t.tenantId, t.promptId),
    index('rags_model_idx').on(t.modelId),
  ],
);

/** A chunk an answer was built from, with its retrieval score. */
export interface RagAnswerChunk {
  chunkId: string;
  sourceId: string;
  knowledgeBaseId: string;
  score: number;
  /** True when the answer cites it. */
  cited: boolean;
}

/**
 * Every answer a RAG gave: the question, the answer, how it was made, the chunks it used with their scores and
 * the time each stage took. Kept for RAG_ANSWER_RETENTION_DAYS, then swept.
 */
export const ragAnswers = pgTable(
  'rag_answers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    ragId: uuid('rag_id')
      .notNull()
      .references(() => rags.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    kind: text('kind').$type<RagAnswerKindValue>().notNull(),
    fallback: boolean('fallback').notNull(),
    chunks: jsonb('chunks').$type<RagAnswerChunk[]>().notNull().default([]),
    retrieveMs: real('retrieve_ms').notNull(),
    generateMs: real('generate_ms').notNull(),
    totalMs: real('total_ms').notNull(),
    modelErrorCode: text('model_error_code'),
    /** Where the question came from: 'api', 'test' (the console's try-out), 'widget'. */
    channel: text('channel').notNull(),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('rag_answers_tenant_rag_idx').on(t.tenantId, t.ragId, t.createdAt),
    index('rag_answers_created_idx').on(t.createdAt),
    check('rag_answers_kind_check', sql`${t.kind} in ('qa', 'model', 'extractive', 'fallback')`),
  ],
);

export type RagRow = typeof rags.$inferSelect;
export type RagAnswerRow = typeof ragAnswers.$inferSelect;
