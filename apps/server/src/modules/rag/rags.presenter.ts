import type { Rag } from '@omnibot/contracts';
import type { StoredRag } from './rags.service';

export function presentRag({ row, indexName, promptName, modelName }: StoredRag): Rag {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    index_id: row.indexId,
    index_name: indexName,
    prompt_id: row.promptId,
    prompt_name: promptName,
    model_id: row.modelId,
    model_name: modelName,
    fallback_text: row.fallbackText,
    citations: row.citations,
    max_context_chars: row.maxContextChars,
    language: row.language,
    created_by: row.createdBy,
    updated_by: row.updatedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
