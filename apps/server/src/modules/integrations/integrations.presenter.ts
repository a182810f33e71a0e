import { type Integration, maskSecret } from '@omnibot/contracts';
import type { StoredBuiltinSettings, StoredOpenAiSettings } from '../../db/schema';
import type { SecretBox } from '../../lib/secret-box';
import type { StoredIntegration } from './integrations.service';

/**
 * An integration for the console: an OpenAI key only masked ('****' and its last four characters when long
 * enough), never in clear; a key that cannot be opened any more shows as set ('****').
 */
export function presentIntegration(box: SecretBox, { row, bots }: StoredIntegration): Integration {
  let settings: Integration['settings'];
  if (row.engine === 'openai') {
    const stored = row.settings as StoredOpenAiSettings;
    let masked = '';
    if (stored.api_key !== '') {
      try {
        masked = maskSecret(box.decrypt(stored.api_key));
      } catch {
        masked = maskSecret('x');
      }
    }
    settings = {
      base_url: stored.base_url,
      model: stored.model,
      api_key: masked,
      max_tokens: stored.max_tokens,
      temperature: stored.temperature,
    };
  } else {
    settings = { rag_id: (row.settings as StoredBuiltinSettings).rag_id };
  }
  return {
    id: row.id,
    tenant_id: row.tenantId,
    kind: row.kind,
    engine: row.engine,
    name: row.name,
    settings,
    bots,
    created_by: row.createdBy,
    updated_by: row.updatedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
