import { type Integration, maskSecret } from '@omnibot/contracts';
import type {
  StoredBedrockSettings,
  StoredBuiltinSettings,
  StoredLexSettings,
  StoredConnectSettings,
  StoredDialogflowCxSettings,
  StoredGenesysSettings,
  StoredOpenAiSettings,
} from '../../db/schema';
import type { SecretBox } from '../../lib/secret-box';
import { presentBedrock, presentLex } from './aws-engines.service';
import { presentConnect } from './contact-centre.service';
import { presentDialogflow } from './dialogflow.service';
import type { StoredIntegration } from './integrations.service';

/** The boxes that open what an integration holds sealed: model API keys, and contact-centre secrets. */
export interface IntegrationBoxes {
  models: SecretBox;
  contactCentre: SecretBox;
}

/**
 * An integration for the console: an OpenAI key or a Connect secret access key only masked ('****' and its last
 * four characters when long enough), never in clear; a secret that cannot be opened any more shows as set ('****').
 */
export function presentIntegration(boxes: IntegrationBoxes, { row, bots }: StoredIntegration): Integration {
  const box = boxes.models;
  let settings: Integration['settings'];
  if (row.engine === 'connect') {
    settings = presentConnect(boxes.contactCentre, row.settings as StoredConnectSettings);
  } else if (row.engine === 'lex') {
    settings = presentLex(box, row.settings as StoredLexSettings);
  } else if (row.engine === 'bedrock') {
    settings = presentBedrock(box, row.settings as StoredBedrockSettings);
  } else if (row.engine === 'dialogflowcx') {
    settings = presentDialogflow(row.settings as StoredDialogflowCxSettings);
  } else if (row.engine === 'genesys') {
    const stored = row.settings as StoredGenesysSettings;
    settings = { server_url: stored.server_url, deployment_id: stored.deployment_id, origin: stored.origin };
  } else if (row.engine === 'openai') {
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
