import type { KnowledgeBase, KnowledgeSource } from '@omnibot/contracts';
import type { KnowledgeBaseRow, KnowledgeSourceRow } from '../../db/schema';
import { refusalReasonFor } from '../../lib/guarded-http/guarded-fetch';

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

/**
 * A source with its ingestion state; the error only when it failed, and for a master viewer a refused address
 * also says how a private site is allowed.
 */
export function presentSource(
  row: KnowledgeSourceRow,
  viewer: { role: string } | null = null,
): KnowledgeSource {
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
            reason: refusalReasonFor(
              row.errorCode ?? '',
              row.errorReason ?? 'The source could not be read.',
              viewer,
            ),
          }
        : null,
    chunk_count: row.chunkCount,
    content_hash: row.contentHash,
    last_synced_at: row.lastSyncedAt?.toISOString() ?? null,
    sync: row.syncSchedule ?? { frequency: 'off' },
    next_sync_at: row.syncSchedule ? (row.nextSyncAt?.toISOString() ?? null) : null,
    last_sync_result:
      row.lastSyncOutcome && row.lastSyncAt
        ? {
            outcome: row.lastSyncOutcome,
            message: row.lastSyncMessage ?? '',
            at: row.lastSyncAt.toISOString(),
          }
        : null,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
