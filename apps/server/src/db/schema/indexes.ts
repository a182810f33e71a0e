import { sql } from 'drizzle-orm';
import {
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { inList, knowledgeBases, knowledgeChunks } from './knowledge';
import { models } from './models';
import { tenants } from './tenants';

export const INDEX_MODES = ['keyword', 'vector', 'hybrid'] as const;
export type IndexModeValue = (typeof INDEX_MODES)[number];
export const EMBEDDING_STATES = ['none', 'pending', 'embedding', 'ready', 'failed'] as const;
export type EmbeddingStateValue = (typeof EMBEDDING_STATES)[number];

/**
 * How a tenant retrieves from some of its knowledge bases: the mode, how many hits, the score below which hits
 * are dropped, and for vector and hybrid the embedding model with the progress of embedding its chunks.
 */
export const indexes = pgTable(
  'indexes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    mode: text('mode').$type<IndexModeValue>().notNull().default('keyword'),
    topK: integer('top_k').notNull().default(5),
    scoreThreshold: real('score_threshold').notNull().default(0),
    /** A deleted model leaves the index keyword-only until another is chosen. */
    embeddingModelId: uuid('embedding_model_id').references(() => models.id, { onDelete: 'set null' }),
    embeddingState: text('embedding_state').$type<EmbeddingStateValue>().notNull().default('none'),
    embeddingDone: integer('embedding_done').notNull().default(0),
    embeddingTotal: integer('embedding_total').notNull().default(0),
    embeddingErrorCode: text('embedding_error_code'),
    embeddingErrorReason: text('embedding_error_reason'),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('indexes_tenant_name_key').on(t.tenantId, t.name),
    // Lets children reference (tenant_id, id) so a row can never point at another tenant's index.
    unique('indexes_tenant_id_key').on(t.tenantId, t.id),
    check('indexes_mode_check', sql`${t.mode} in (${inList(INDEX_MODES)})`),
    check('indexes_embedding_state_check', sql`${t.embeddingState} in (${inList(EMBEDDING_STATES)})`),
    check('indexes_top_k_check', sql`${t.topK} between 1 and 50`),
  ],
);

/** The knowledge bases an index covers, in the order the tenant chose them; both of the same tenant. */
export const indexKnowledgeBases = pgTable(
  'index_knowledge_bases',
  {
    tenantId: text('tenant_id').notNull(),
    indexId: uuid('index_id').notNull(),
    knowledgeBaseId: uuid('knowledge_base_id').notNull(),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ name: 'index_knowledge_bases_pkey', columns: [t.tenantId, t.indexId, t.knowledgeBaseId] }),
    foreignKey({
      name: 'index_knowledge_bases_index_fk',
      columns: [t.tenantId, t.indexId],
      foreignColumns: [indexes.tenantId, indexes.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'index_knowledge_bases_knowledge_base_fk',
      columns: [t.tenantId, t.knowledgeBaseId],
      foreignColumns: [knowledgeBases.tenantId, knowledgeBases.id],
    }).onDelete('cascade'),
    index('index_knowledge_bases_base_idx').on(t.tenantId, t.knowledgeBaseId),
  ],
);

export type IndexRow = typeof indexes.$inferSelect;

/**
 * The embedding of a chunk by one embedding model, L2-normalised so that the dot product is the cosine
 * similarity. Shared by every index that uses the model; goes with its chunk or its model. With pgvector, an HNSW
 * index over `(embedding::vector(D))`, partial on `dimensions = D`, is created on demand for each length D.
 */
export const chunkEmbeddings = pgTable(
  'chunk_embeddings',
  {
    modelId: uuid('model_id')
      .notNull()
      .references(() => models.id, { onDelete: 'cascade' }),
    chunkId: uuid('chunk_id')
      .notNull()
      .references(() => knowledgeChunks.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id').notNull(),
    knowledgeBaseId: uuid('knowledge_base_id').notNull(),
    dimensions: integer('dimensions').notNull(),
    embedding: real('embedding').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'chunk_embeddings_pkey', columns: [t.modelId, t.chunkId] }),
    index('chunk_embeddings_tenant_model_base_idx').on(t.tenantId, t.modelId, t.knowledgeBaseId),
    index('chunk_embeddings_chunk_idx').on(t.chunkId),
    check('chunk_embeddings_dimensions_check', sql`${t.dimensions} between 1 and 16000`),
  ],
);

export type ChunkEmbeddingRow = typeof chunkEmbeddings.$inferSelect;
