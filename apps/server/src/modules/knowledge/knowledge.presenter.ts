import type { KnowledgeBase, KnowledgeSource } from '@omnibot/contracts';
import type { KnowledgeBaseRow, KnowledgeSourceRow } from '../../db/schema';

export function presentKnowledge(row: KnowledgeBaseRow): KnowledgeBase {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    language: row.language,
    text_search_config: row.tsConfig,
    chunking: { target_words: row.chunkTargetWords, overlap: row.chunkOverlap },
    created_by: row.createdBy,
    updated_by: row.updatedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A source with its ingestion state; the error only when it failed. */
export function presentSource(row: KnowledgeSourceRow): KnowledgeSource {
  return {
    id: row.id,
    knowledge_id: row.knowledgeBaseId,
    type: row.type,
    title: row.title,
    url: row.url,
    path: row.path,
    state: row.state,
    error:
      row.state === 'failed'
        ? {
            code: row.errorCode ?? 'ingest/failed',
            reason: row.errorReason ?? 'The source could not be read.',
          }
        : null,
    chunk_count: row.chunkCount,
    content_hash: row.contentHash,
    last_synced_at: row.lastSyncedAt?.toISOString() ?? null,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
