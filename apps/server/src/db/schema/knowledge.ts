import type { SourceSyncRun, SyncOutcome } from '@omnibot/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

/** PostgreSQL's tsvector, read and written as its text form; the code builds it in SQL with to_tsvector. */
const tsvector = customType<{ data: string }>({
  dataType: () => 'tsvector',
});

export const KNOWLEDGE_LANGUAGES = [
  'english',
  'german',
  'french',
  'spanish',
  'italian',
  'portuguese',
  'dutch',
] as const;
export type TextSearchConfig = (typeof KNOWLEDGE_LANGUAGES)[number] | 'simple';
export const SOURCE_TYPES = ['text', 'url', 'sitemap', 'file', 'qa'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];
export const SOURCE_STATES = ['queued', 'fetching', 'parsing', 'indexing', 'ready', 'failed'] as const;
export type SourceState = (typeof SOURCE_STATES)[number];
const SYNC_OUTCOME_VALUES = ['unchanged', 'changed', 'failed'] as const satisfies readonly SyncOutcome[];

export interface CrawlSettings {
  depth?: number;
  maxPages?: number;
  include?: string[];
  exclude?: string[];
}

/** A check constraint's list of allowed text values, e.g. `'a', 'b'` (the values are the code's own constants). */
export const inList = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));

/** A named set of sources in one language; the language picks the text-search configuration. */
export const knowledgeBases = pgTable(
  'knowledge_bases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The language as the tenant chose it (e.g. "en", "german", "ja"). */
    language: text('language').notNull(),
    /** english, german, french, spanish, italian, portuguese, dutch, or simple for every other language. */
    tsConfig: text('ts_config').$type<TextSearchConfig>().notNull().default('simple'),
    chunkTargetWords: integer('chunk_target_words').notNull().default(350),
    chunkOverlap: real('chunk_overlap').notNull().default(0.15),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('knowledge_bases_tenant_name_idx').on(t.tenantId, t.name),
    // Lets children reference (tenant_id, id) so a row can never point at another tenant's knowledge base.
    unique('knowledge_bases_tenant_id_key').on(t.tenantId, t.id),
    check(
      'knowledge_bases_ts_config_check',
      sql`${t.tsConfig} in (${inList([...KNOWLEDGE_LANGUAGES, 'simple'])})`,
    ),
    check('knowledge_bases_chunk_target_words_check', sql`${t.chunkTargetWords} between 50 and 2000`),
    check('knowledge_bases_chunk_overlap_check', sql`${t.chunkOverlap} >= 0 and ${t.chunkOverlap} < 0.5`),
  ],
);

/** One document, page, crawl, pasted text or Q&A pair of a knowledge base, with its ingestion state. */
export const knowledgeSources = pgTable(
  'knowledge_sources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id').notNull(),
    knowledgeBaseId: uuid('knowledge_base_id').notNull(),
    type: text('type').$type<SourceType>().notNull(),
    title: text('title'),
    url: text('url'),
    /** Path of the file in the tenant's storage (type file). */
    path: text('path'),
    crawl: jsonb('crawl').$type<CrawlSettings>(),
    /** The pasted text (type text) or the answer (type qa, whose question is the title). */
    content: text('content'),
    state: text('state').$type<SourceState>().notNull().default('queued'),
    errorCode: text('error_code'),
    errorReason: text('error_reason'),
    /** sha256 of the normalised content last indexed, to skip a re-sync of unchanged content. */
    contentHash: text('content_hash'),
    chunkCount: integer('chunk_count').notNull().default(0),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    /** When the source is read again on its own (web page and sitemap only); null never. */
    syncSchedule: jsonb('sync_schedule').$type<SourceSyncRun>(),
    /** The next scheduled re-sync; null when there is no schedule. */
    nextSyncAt: timestamp('next_sync_at', { withTimezone: true }),
    /** The validators of the page (or sitemap) last read, sent back as If-None-Match / If-Modified-Since. */
    etag: text('etag'),
    lastModified: text('last_modified'),
    /** What the last re-sync found (unchanged, changed, failed), in plain words, and when. */
    lastSyncOutcome: text('last_sync_outcome').$type<SyncOutcome>(),
    lastSyncMessage: text('last_sync_message'),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'knowledge_sources_knowledge_base_fk',
      columns: [t.tenantId, t.knowledgeBaseId],
      foreignColumns: [knowledgeBases.tenantId, knowledgeBases.id],
    }).onDelete('cascade'),
    unique('knowledge_sources_tenant_id_key').on(t.tenantId, t.id),
    index('knowledge_sources_tenant_base_idx').on(t.tenantId, t.knowledgeBaseId, t.createdAt),
    index('knowledge_sources_state_idx').on(t.state),
    index('knowledge_sources_next_sync_idx')
      .on(t.nextSyncAt)
      .where(sql`${t.nextSyncAt} is not null`),
    check('knowledge_sources_type_check', sql`${t.type} in (${inList(SOURCE_TYPES)})`),
    check('knowledge_sources_state_check', sql`${t.state} in (${inList(SOURCE_STATES)})`),
    check(
      'knowledge_sources_sync_outcome_check',
      sql`${t.lastSyncOutcome} is null or ${t.lastSyncOutcome} in (${inList(SYNC_OUTCOME_VALUES)})`,
    ),
  ],
);

/**
 * One page of a sitemap source as last read: its place in the sitemap, its validators and the hash of its text,
 * so a re-sync asks for it conditionally and re-indexes only the pages that changed.
 */
export const knowledgeSourcePages = pgTable(
  'knowledge_source_pages',
  {
    tenantId: text('tenant_id').notNull(),
    sourceId: uuid('source_id').notNull(),
    url: text('url').notNull(),
    position: integer('position').notNull(),
    etag: text('etag'),
    lastModified: text('last_modified'),
    /** sha256 of the page's normalised text and the chunking settings it was cut with. */
    contentHash: text('content_hash').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'knowledge_source_pages_pkey', columns: [t.tenantId, t.sourceId, t.url] }),
    foreignKey({
      name: 'knowledge_source_pages_source_fk',
      columns: [t.tenantId, t.sourceId],
      foreignColumns: [knowledgeSources.tenantId, knowledgeSources.id],
    }).onDelete('cascade'),
  ],
);

/**
 * A passage of a source, with its tsvector (its source's title and heading path at weight A, its text at D) and
 * the length of its text in lexeme occurrences (BM25's document length).
 */
export const knowledgeChunks = pgTable(
  'knowledge_chunks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id').notNull(),
    knowledgeBaseId: uuid('knowledge_base_id').notNull(),
    sourceId: uuid('source_id').notNull(),
    /** The sitemap page the chunk was cut from (sitemap sources), so a changed page replaces only its own chunks. */
    pageUrl: text('page_url'),
    ordinal: integer('ordinal').notNull(),
    text: text('text').notNull(),
    headingPath: jsonb('heading_path').$type<string[]>().notNull().default([]),
    page: integer('page'),
    length: integer('length').notNull(),
    charCount: integer('char_count').notNull(),
    wordCount: integer('word_count').notNull(),
    hash: text('hash').notNull(),
    tsv: tsvector('tsv').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'knowledge_chunks_source_fk',
      columns: [t.tenantId, t.sourceId],
      foreignColumns: [knowledgeSources.tenantId, knowledgeSources.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'knowledge_chunks_knowledge_base_fk',
      columns: [t.tenantId, t.knowledgeBaseId],
      foreignColumns: [knowledgeBases.tenantId, knowledgeBases.id],
    }).onDelete('cascade'),
    index('knowledge_chunks_source_idx').on(t.tenantId, t.sourceId, t.ordinal),
    index('knowledge_chunks_base_idx').on(t.tenantId, t.knowledgeBaseId),
  ],
);

/**
 * BM25 postings: one row per (chunk, lexeme) with the term frequencies in the text and in the labels (the
 * source's title and the heading path) and the chunk's length, read in one
 * index range per query lexeme. The key leads with the tenant so a query reads only its tenant's postings;
 * the migration adds INCLUDE (tf, label_tf, length) to it (drizzle cannot say so) so scoring is an index-only scan.
 */
export const knowledgePostings = pgTable(
  'knowledge_postings',
  {
    tenantId: text('tenant_id').notNull(),
    knowledgeBaseId: uuid('knowledge_base_id').notNull(),
    lexeme: text('lexeme').notNull(),
    chunkId: uuid('chunk_id')
      .notNull()
      .references(() => knowledgeChunks.id, { onDelete: 'cascade' }),
    /** Occurrences in the chunk's text. */
    tf: integer('tf').notNull(),
    /** Occurrences in its source's title and its heading path (labels, weighted lower than the text). */
    labelTf: integer('label_tf').notNull().default(0),
    /** The chunk's length, copied here so scoring never visits the chunk rows it does not return. */
    length: integer('length').notNull(),
  },
  (t) => [
    primaryKey({
      name: 'knowledge_postings_pkey',
      columns: [t.tenantId, t.knowledgeBaseId, t.lexeme, t.chunkId],
    }),
    index('knowledge_postings_chunk_idx').on(t.chunkId),
  ],
);

/**
 * Per knowledge base: how many chunks and their summed length (N and the average length of BM25). Added to by
 * indexChunks; a trigger in the migration subtracts every deleted chunk, however it is deleted.
 */
export const knowledgeBaseStats = pgTable(
  'knowledge_base_stats',
  {
    tenantId: text('tenant_id').notNull(),
    knowledgeBaseId: uuid('knowledge_base_id').notNull(),
    chunkCount: integer('chunk_count').notNull().default(0),
    totalLength: bigint('total_length', { mode: 'number' }).notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'knowledge_base_stats_pkey', columns: [t.tenantId, t.knowledgeBaseId] }),
    foreignKey({
      name: 'knowledge_base_stats_knowledge_base_fk',
      columns: [t.tenantId, t.knowledgeBaseId],
      foreignColumns: [knowledgeBases.tenantId, knowledgeBases.id],
    }).onDelete('cascade'),
  ],
);

/** A curated question and its answer, given verbatim when a visitor's question matches strongly. */
export const knowledgeQa = pgTable(
  'knowledge_qa',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id').notNull(),
    knowledgeBaseId: uuid('knowledge_base_id').notNull(),
    sourceId: uuid('source_id').notNull(),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    questionTsv: tsvector('question_tsv').notNull(),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'knowledge_qa_source_fk',
      columns: [t.tenantId, t.sourceId],
      foreignColumns: [knowledgeSources.tenantId, knowledgeSources.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'knowledge_qa_knowledge_base_fk',
      columns: [t.tenantId, t.knowledgeBaseId],
      foreignColumns: [knowledgeBases.tenantId, knowledgeBases.id],
    }).onDelete('cascade'),
    index('knowledge_qa_base_idx').on(t.tenantId, t.knowledgeBaseId),
    index('knowledge_qa_source_idx').on(t.tenantId, t.sourceId),
  ],
);

export type KnowledgeBaseRow = typeof knowledgeBases.$inferSelect;
export type KnowledgeSourceRow = typeof knowledgeSources.$inferSelect;
export type KnowledgeChunkRow = typeof knowledgeChunks.$inferSelect;
export type KnowledgeQaRow = typeof knowledgeQa.$inferSelect;
export type KnowledgeSourcePageRow = typeof knowledgeSourcePages.$inferSelect;
