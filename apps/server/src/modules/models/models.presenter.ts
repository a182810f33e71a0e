import type { AvailableModel, Model } from '@omnibot/contracts';
import type { ModelRow } from '../../db/schema';
import type { StoredModel } from './models.service';

/** A model for its managers: the API key only as a mask (set, last 4 characters). */
export function presentModel({ row, shares }: StoredModel): Model {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    kind: row.kind,
    base_url: row.baseUrl,
    model_name: row.modelName,
    api_key: { set: row.apiKeyEncrypted !== null, last4: row.apiKeyLast4 },
    max_tokens: row.maxTokens,
    temperature: Math.round(row.temperature * 1000) / 1000,
    dimensions: row.dimensions,
    sharing: { all: row.sharedWithAll, tenant_ids: shares },
    created_by: row.createdBy,
    updated_by: row.updatedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A model for the tenants it is offered to: what a form needs to pick it, no URL, no key. */
export function presentAvailableModel(row: ModelRow): AvailableModel {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    model_name: row.modelName,
    max_tokens: row.maxTokens,
    temperature: Math.round(row.temperature * 1000) / 1000,
    dimensions: row.dimensions,
  };
}
