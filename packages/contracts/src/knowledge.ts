import { z } from 'zod';
import { SourceSyncResultSchema, SourceSyncSettingSchema } from './knowledge-sync';
import { safeString } from './text';

export const KNOWLEDGE_NAME_MAX = 120;
const KNOWLEDGE_LANGUAGE_MAX = 40;
const SOURCE_TITLE_MAX = 300;
const SOURCE_TEXT_MAX = 500_000;
const QA_QUESTION_MAX = 2000;
const QA_ANSWER_MAX = 20_000;
const SOURCE_PATH_MAX = 1024;
const SOURCE_URL_MAX = 2048;
/** File extensions (lower case) a knowledge base reads: PDF, Word, HTML, Markdown, plain text and CSV. */
export const KNOWLEDGE_FILE_EXTENSIONS = [
  'pdf',
  'docx',
  'html',
  'htm',
  'md',
  'markdown',
  'txt',
  'csv',
] as const;

/** Chunking defaults the console shows: about 350 words per chunk, 15 % of it repeated from the previous one. */
export const DEFAULT_CHUNKING = { target_words: 350, overlap: 0.15 } as const;

const KNOWLEDGE_SOURCE_STATES = ['queued', 'fetching', 'parsing', 'indexing', 'ready', 'failed'] as const;
export type KnowledgeSourceState = (typeof KNOWLEDGE_SOURCE_STATES)[number];
const KNOWLEDGE_SOURCE_TYPES = ['text', 'qa', 'file', 'url', 'sitemap'] as const;

const text = (label: string, max: number) =>
  safeString().trim().min(1, `${label} is required`).max(max, `${label} must be at most ${max} characters`);

const KnowledgeNameSchema = text('The name', KNOWLEDGE_NAME_MAX);
/** A language name or code ("en", "German", "ja"); english, german, french, spanish, italian, portuguese and dutch get their stemming. */
const KnowledgeLanguageSchema = text('The language', KNOWLEDGE_LANGUAGE_MAX);

const ChunkingSchema = z.strictObject({
  target_words: z
    .number()
    .int('The chunk size must be a whole number of words')
    .min(50, 'The chunk size must be at least 50 words')
    .max(2000, 'The chunk size must be at most 2000 words')
    .default(DEFAULT_CHUNKING.target_words),
  overlap: z
    .number()
    .min(0, 'The overlap must be between 0 and 0.49')
    .max(0.49, 'The overlap must be between 0 and 0.49')
    .default(DEFAULT_CHUNKING.overlap),
});

export const CreateKnowledgeBodySchema = z.strictObject({
  name: KnowledgeNameSchema,
  language: KnowledgeLanguageSchema,
  chunking: ChunkingSchema.optional(),
});
export type CreateKnowledgeBody = z.input<typeof CreateKnowledgeBodySchema>;

/** New chunking settings apply to sources ingested (or re-synced) afterwards. */
export const UpdateKnowledgeBodySchema = z.strictObject({
  name: KnowledgeNameSchema.optional(),
  language: KnowledgeLanguageSchema.optional(),
  chunking: ChunkingSchema.optional(),
});
export type UpdateKnowledgeBody = z.input<typeof UpdateKnowledgeBodySchema>;

const HttpUrlSchema = safeString()
  .trim()
  .max(SOURCE_URL_MAX, `The address must be at most ${SOURCE_URL_MAX} characters`)
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  }, 'The address must be a web address starting with http:// or https://');

const PathPrefixesSchema = z
  .array(
    safeString()
      .max(300, 'A path prefix must be at most 300 characters')
      .refine((value) => value.startsWith('/'), 'A path prefix starts with /, e.g. /docs'),
  )
  .max(50, 'At most 50 path prefixes');

/** Reading the pages a page links to on the same site: how many links away, how many pages, which paths. */
const CrawlSchema = z.strictObject({
  depth: z
    .number()
    .int('The depth must be 0, 1, 2 or 3')
    .min(0)
    .max(3, 'The depth must be at most 3')
    .default(1),
  max_pages: z
    .number()
    .int('The page cap must be a whole number')
    .min(1, 'The page cap must be at least 1')
    .max(500, 'The page cap must be at most 500')
    .default(50),
  /** Only linked pages whose path starts with one of these are read. */
  include: PathPrefixesSchema.optional(),
  /** Linked pages whose path starts with one of these are not read. */
  exclude: PathPrefixesSchema.optional(),
});

/** A source to add: pasted text, a curated Q&A pair, a file of the tenant's storage, a web page (optionally crawled), or a sitemap. */
export const CreateSourceBodySchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('text'),
    title: text('The title', SOURCE_TITLE_MAX),
    text: text('The text', SOURCE_TEXT_MAX),
  }),
  z.strictObject({
    type: z.literal('qa'),
    question: text('The question', QA_QUESTION_MAX),
    answer: text('The answer', QA_ANSWER_MAX),
  }),
  z.strictObject({
    type: z.literal('file'),
    /** Path of the file in the organisation's storage, without a leading slash, e.g. `manuals/guide.pdf`. */
    path: text('The path', SOURCE_PATH_MAX),
  }),
  z.strictObject({
    type: z.literal('url'),
    url: HttpUrlSchema,
    crawl: CrawlSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('sitemap'),
    url: HttpUrlSchema,
  }),
]);
export type CreateSourceBody = z.input<typeof CreateSourceBodySchema>;

export const BULK_SOURCES_MAX = 500;

/** Many sources added at once, all or none. */
export const BulkCreateSourcesBodySchema = z.strictObject({
  sources: z
    .array(CreateSourceBodySchema)
    .min(1, 'Add at least one source')
    .max(BULK_SOURCES_MAX, `At most ${BULK_SOURCES_MAX} sources at once`),
});
export type BulkCreateSourcesBody = z.input<typeof BulkCreateSourcesBodySchema>;

/**
 * Why a bulk body is refused, naming the first bad item ("Item 3: The address must be ..."), or null when it
 * is valid. Items count from 1.
 */
export function bulkSourcesProblem(body: unknown): string | null {
  const items: unknown = typeof body === 'object' && body !== null ? Reflect.get(body, 'sources') : undefined;
  if (Array.isArray(items) && items.length <= BULK_SOURCES_MAX) {
    for (const [index, item] of items.entries()) {
      const result = CreateSourceBodySchema.safeParse(item);
      if (!result.success) return `Item ${index + 1}: ${result.error.issues[0]?.message ?? 'is invalid'}`;
    }
  }
  const result = BulkCreateSourcesBodySchema.safeParse(body);
  if (result.success) return null;
  return result.error.issues[0]?.message ?? 'The sources are invalid';
}

export const KnowledgeIdParamsSchema = z.object({ id: z.uuid('Unknown knowledge base id') });
export const SourceParamsSchema = z.object({
  id: z.uuid('Unknown knowledge base id'),
  sourceId: z.uuid('Unknown source id'),
});

export const KnowledgeListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export type KnowledgeListQuery = z.infer<typeof KnowledgeListQuerySchema>;

export const ChunkListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
});
export type ChunkListQuery = z.infer<typeof ChunkListQuerySchema>;

export const KnowledgeBaseSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  language: z.string(),
  /** The PostgreSQL text-search configuration the language picked (`simple` for languages without stemming). */
  text_search_config: z.string(),
  chunking: z.object({ target_words: z.number().int(), overlap: z.number() }),
  created_by: z.string().nullable(),
  updated_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type KnowledgeBase = z.infer<typeof KnowledgeBaseSchema>;

export const KnowledgeBaseListSchema = z.object({
  items: z.array(KnowledgeBaseSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

export const KnowledgeSourceSchema = z.object({
  id: z.string(),
  knowledge_id: z.string(),
  type: z.enum(KNOWLEDGE_SOURCE_TYPES),
  title: z.string().nullable(),
  url: z.string().nullable(),
  path: z.string().nullable(),
  state: z.enum(KNOWLEDGE_SOURCE_STATES),
  /** Why the source failed: a stable code and a reason in plain words; null unless state is failed. */
  error: z.object({ code: z.string(), reason: z.string() }).nullable(),
  chunk_count: z.number().int(),
  content_hash: z.string().nullable(),
  /** When the content was last read successfully (changed or unchanged). */
  last_synced_at: z.string().nullable(),
  /** When a web page or sitemap is read again on its own; `off` for every other type. */
  sync: SourceSyncSettingSchema,
  /** The next scheduled re-sync, or null when the schedule is off. */
  next_sync_at: z.string().nullable(),
  /** What the last re-sync found, or null before the first one. */
  last_sync_result: SourceSyncResultSchema.nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type KnowledgeSource = z.infer<typeof KnowledgeSourceSchema>;

/** The sources a bulk request created, in the order they were given. */
export const BulkSourcesResultSchema = z.object({ items: z.array(KnowledgeSourceSchema) });

export const KnowledgeSourceListSchema = z.object({
  items: z.array(KnowledgeSourceSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

const KnowledgeChunkSchema = z.object({
  id: z.string(),
  ordinal: z.number().int(),
  text: z.string(),
  heading_path: z.array(z.string()),
  /** Page of the chunk's first text (PDF only). */
  page: z.number().int().nullable(),
});
export type KnowledgeChunk = z.infer<typeof KnowledgeChunkSchema>;

export const KnowledgeChunkListSchema = z.object({
  items: z.array(KnowledgeChunkSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
