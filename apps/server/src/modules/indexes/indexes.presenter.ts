import type { Index, SearchResult } from '@omnibot/contracts';
import type { IndexRow } from '../../db/schema';
import type { IndexSearchResult } from './search';

export interface StoredIndex {
  row: IndexRow;
  /** The covered knowledge bases with their names, in the tenant's order. */
  knowledge: Array<{ id: string; name: string }>;
}

/** An index with the progress of its embeddings; the error only when embedding failed. */
export function presentIndex({ row, knowledge }: StoredIndex): Index {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    knowledge_ids: knowledge.map((base) => base.id),
    knowledge,
    mode: row.mode,
    top_k: row.topK,
    score_threshold: row.scoreThreshold,
    embedding_model_id: row.embeddingModelId,
    embedding: {
      state: row.embeddingState,
      done: row.embeddingDone,
      total: row.embeddingTotal,
      error:
        row.embeddingState === 'failed'
          ? {
              code: row.embeddingErrorCode ?? 'embed/failed',
              reason: row.embeddingErrorReason ?? 'Embedding failed.',
            }
          : null,
    },
    created_by: row.createdBy,
    updated_by: row.updatedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A search's hits; each source's link is given by `link` (a page's address, or a file's signed download). */
export function presentSearch(
  result: IndexSearchResult,
  link: (raw: string | null) => string | null,
): SearchResult {
  return {
    mode: result.mode,
    items: result.hits.map((hit) => ({
      id: hit.chunkId,
      text: hit.text,
      score: hit.score,
      heading_path: hit.headingPath,
      page: hit.page,
      source: { id: hit.sourceId, knowledge_id: hit.knowledgeBaseId, title: hit.title, url: link(hit.url) },
    })),
    took_ms: Math.round(result.tookMs * 10) / 10,
  };
}
