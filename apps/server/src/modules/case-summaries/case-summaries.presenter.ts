import type { CaseSummary, CaseSummaryConfig } from '@omnibot/contracts';
import type { CaseSummaryRow } from '../../db/schema';
import type { StoredCaseSummaryConfig } from './case-summary-configs.service';

export function presentCaseSummaryConfig({
  row,
  bots,
  modelName,
}: StoredCaseSummaryConfig): CaseSummaryConfig {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    bots,
    model_id: row.modelId,
    model_name: modelName,
    sections: row.sections,
    max_chars: row.maxChars,
    triggers: row.triggers,
    created_by: row.createdBy,
    updated_by: row.updatedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentCaseSummary(row: CaseSummaryRow): CaseSummary {
  return {
    id: row.id,
    conversation_id: row.conversationId,
    trigger: row.trigger,
    method: row.method,
    model_name: row.modelName,
    text: row.text,
    sections: row.sections,
    created_at: row.createdAt.toISOString(),
  };
}
