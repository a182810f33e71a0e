import { z } from 'zod';
import { safeString } from './text';

export const INDEX_NAME_MAX = 120;
export const INDEX_KNOWLEDGE_MAX = 20;
export const SEARCH_QUERY_MAX = 2000;
export const INDEX_TOP_K_MAX = 50;

/**
 * How an index retrieves: `keyword` (BM25 over the knowledge bases' text), `vector` (cosine similarity of
 * embeddings from the chosen embedding model) or `hybrid` (both, fused by reciprocal rank).
 */
export const INDEX_MODES = ['keyword', 'vector', 'hybrid'] as const;
export type IndexMode = (typeof INDEX_MODES)[number];

/** Defaults the console shows on a new index. */
export const INDEX_DEFAULTS = { mode: 'keyword', top_k: 5, score_threshold: 0 } as const;

/** Reciprocal-rank fusion constant: a hit at rank r (1-based) in one list contributes 1 / (RRF_K + r). */
export const RRF_K = 60;

/** Where the index's embeddings stand; `none` for keyword indexes. */
export const EMBEDDING_STATES = ['none', 'pending', 'embedding', 'ready', 'failed'] as const;
export type EmbeddingState = (typeof EMBEDDING_STATES)[number];

const VECTOR_SEARCH_KINDS = ['hnsw', 'exact'] as const;
export type VectorSearchKind = (typeof VECTOR_SEARCH_KINDS)[number];

const text = (label: string, max: number) =>
  safeString().trim().min(1, `${label} is required`).max(max, `${label} must be at most ${max} characters`);

const IndexNameSchema = text('The name', INDEX_NAME_MAX);

const IndexKnowledgeIdsSchema = z
  .array(z.uuid('Unknown knowledge base id'))
  .min(1, 'Choose at least one knowledge base')
  .max(INDEX_KNOWLEDGE_MAX, `An index covers at most ${INDEX_KNOWLEDGE_MAX} knowledge bases`)
  .refine((ids) => new Set(ids).size === ids.length, 'Each knowledge base may be chosen once');

const IndexTopKSchema = z
  .number()
  .int('The number of results must be a whole number')
  .min(1, 'The number of results must be at least 1')
  .max(INDEX_TOP_K_MAX, `The number of results must be at most ${INDEX_TOP_K_MAX}`);

/**
 * Hits scoring below this are dropped. The score is the mode's own: BM25 for keyword (0 and up), cosine
 * similarity for vector (-1 to 1), and for hybrid the fused score scaled so that first place in both lists is 1.
 */
const IndexScoreThresholdSchema = z
  .number()
  .min(0, 'The score threshold must be at least 0')
  .max(1000, 'The score threshold must be at most 1000');

const ModeSchema = z.enum(INDEX_MODES, 'The mode must be keyword, vector or hybrid');
const EmbeddingModelIdSchema = z.uuid('Unknown embedding model id').nullable();

const needsEmbeddingModel = (body: { mode?: IndexMode; embedding_model_id?: string | null }) =>
  body.mode === undefined || body.mode === 'keyword' || Boolean(body.embedding_model_id);
const EMBEDDING_MODEL_REQUIRED = {
  message: 'Vector and hybrid retrieval need an embedding model',
  path: ['embedding_model_id'],
};

export const CreateIndexBodySchema = z
  .strictObject({
    name: IndexNameSchema,
    knowledge_ids: IndexKnowledgeIdsSchema,
    mode: ModeSchema.default(INDEX_DEFAULTS.mode),
    top_k: IndexTopKSchema.default(INDEX_DEFAULTS.top_k),
    score_threshold: IndexScoreThresholdSchema.default(INDEX_DEFAULTS.score_threshold),
    embedding_model_id: EmbeddingModelIdSchema.optional(),
  })
  .refine(needsEmbeddingModel, EMBEDDING_MODEL_REQUIRED);
export type CreateIndexBody = z.input<typeof CreateIndexBodySchema>;

/**
 * Every field optional. Changing the embedding model (or turning vector retrieval on) re-embeds the
 * index's chunks in the background; the index keeps answering with keyword retrieval until that is ready.
 * The server checks the mode/model pair against the stored index as well.
 */
export const UpdateIndexBodySchema = z.strictObject({
  name: IndexNameSchema.optional(),
  knowledge_ids: IndexKnowledgeIdsSchema.optional(),
  mode: ModeSchema.optional(),
  top_k: IndexTopKSchema.optional(),
  score_threshold: IndexScoreThresholdSchema.optional(),
  embedding_model_id: EmbeddingModelIdSchema.optional(),
});
export type UpdateIndexBody = z.input<typeof UpdateIndexBodySchema>;

export const IndexIdParamsSchema = z.object({ id: z.uuid('Unknown index id') });

export const IndexListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export type IndexListQuery = z.infer<typeof IndexListQuerySchema>;

const IndexEmbeddingSchema = z.object({
  state: z.enum(EMBEDDING_STATES),
  /** Chunks embedded so far, out of `total`, for the current embedding model. */
  done: z.number().int(),
  total: z.number().int(),
  /** Why embedding failed, in plain words; null unless state is failed. */
  error: z.object({ code: z.string(), reason: z.string() }).nullable(),
});
export type IndexEmbedding = z.infer<typeof IndexEmbeddingSchema>;

export const IndexSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  knowledge_ids: z.array(z.string()),
  /** The covered knowledge bases with their names, in the order of knowledge_ids. */
  knowledge: z.array(z.object({ id: z.string(), name: z.string() })),
  mode: z.enum(INDEX_MODES),
  top_k: z.number().int(),
  score_threshold: z.number(),
  embedding_model_id: z.string().nullable(),
  embedding: IndexEmbeddingSchema,
  created_by: z.string().nullable(),
  updated_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Index = z.infer<typeof IndexSchema>;

export const IndexListSchema = z.object({
  items: z.array(IndexSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  /**
   * How this installation runs vector retrieval: `hnsw` with the pgvector extension (approximate, fast at any
   * size), `exact` without it (every chunk of the tenant's knowledge bases compared; fine up to tens of thousands).
   */
  vector_search: z.enum(VECTOR_SEARCH_KINDS),
});
export type IndexList = z.infer<typeof IndexListSchema>;

export const SearchIndexBodySchema = z.strictObject({
  query: text('The query', SEARCH_QUERY_MAX),
  top_k: IndexTopKSchema.optional(),
});
export type SearchIndexBody = z.input<typeof SearchIndexBodySchema>;

/** Where a hit comes from, for showing and linking it. */
const HitSourceSchema = z.object({
  id: z.string(),
  knowledge_id: z.string(),
  title: z.string(),
  /** The web page or storage path of the source, when it has one. */
  url: z.string().nullable(),
});

const SearchHitSchema = z.object({
  id: z.string(),
  text: z.string(),
  score: z.number(),
  heading_path: z.array(z.string()),
  page: z.number().int().nullable(),
  source: HitSourceSchema,
});
export type SearchHit = z.infer<typeof SearchHitSchema>;

export const SearchResultSchema = z.object({
  /** The mode that actually ran: keyword while a vector index is still embedding. */
  mode: z.enum(INDEX_MODES),
  items: z.array(SearchHitSchema),
  took_ms: z.number(),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;
