import {
  INTEGRATION_ENGINES,
  INTEGRATION_KINDS,
  type IntegrationEngine,
  type IntegrationKind,
} from '@omnibot/contracts';
import { sql } from 'drizzle-orm';
import { check, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { inList } from './knowledge';
import { tenants } from './tenants';

/** Builtin settings as stored. */
export interface StoredBuiltinSettings {
  rag_id: string;
}

/** OpenAI-compatible settings as stored: `api_key` is sealed by the secret box ('' when there is none). */
export interface StoredOpenAiSettings {
  base_url: string;
  model: string;
  api_key: string;
  max_tokens: number;
  temperature: number;
}

/** Genesys Cloud Web Messaging settings as stored (nothing secret in them). */
export interface StoredGenesysSettings {
  server_url: string;
  deployment_id: string;
  origin: string;
}

/** Amazon Connect settings as stored: `secret_access_key` is sealed by the secret box ('' when there is none). */
export interface StoredConnectSettings {
  region: string;
  instance_id: string;
  contact_flow_id: string;
  access_key_id: string;
  secret_access_key: string;
  content_types: string[];
  display_name: string;
  connect_endpoint: string;
  participant_endpoint: string;
}

/** Amazon Lex V2 settings as stored: `secret_access_key` is sealed by the secret box. */
export interface StoredLexSettings {
  region: string;
  bot_id: string;
  bot_alias_id: string;
  locale_id: string;
  access_key_id: string;
  secret_access_key: string;
  handover_intent: string;
  endpoint: string;
}

/** Amazon Bedrock settings as stored: `secret_access_key` and `api_key` are sealed by the secret box ('' for none). */
export interface StoredBedrockSettings {
  auth: 'sigv4' | 'api_key';
  region: string;
  model: string;
  access_key_id: string;
  secret_access_key: string;
  api_key: string;
  max_tokens: number;
  temperature: number;
  endpoint: string;
}

/**
 * Dialogflow CX settings as stored: `service_account_key` is the key file sealed by the secret box; its account
 * and key id are kept beside it in clear (they are not secret) so the console can tell which key is stored.
 */
export interface StoredDialogflowCxSettings {
  service_account_key: string;
  client_email: string;
  private_key_id: string;
  agents: Array<{
    agentName: string;
    agentId: string;
    agentImage: string;
    projectId: string;
    location: string;
  }>;
  default_agent: string;
  fallback_agent: string;
  environment: string;
  language_code: string;
  languages: string[];
  agent_per_language: boolean;
  endpoint: string;
}

export type StoredIntegrationSettings =
  | StoredBuiltinSettings
  | StoredOpenAiSettings
  | StoredLexSettings
  | StoredBedrockSettings
  | StoredGenesysSettings
  | StoredConnectSettings
  | StoredDialogflowCxSettings;

/**
 * A tenant's connection to a chatbot engine that bots may answer with (kind chatbot: the builtin engine over one
 * of its RAGs, or an OpenAI-compatible chat endpoint whose API key is stored only sealed), or to a contact centre
 * its bots hand conversations over to (kind ccaas: Genesys Cloud, or Amazon Connect whose secret is stored sealed).
 */
export const integrations = pgTable(
  'integrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    kind: text('kind').$type<IntegrationKind>().notNull().default('chatbot'),
    engine: text('engine').$type<IntegrationEngine>().notNull(),
    name: text('name').notNull(),
    settings: jsonb('settings').$type<StoredIntegrationSettings>().notNull(),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('integrations_tenant_name_key').on(t.tenantId, t.name),
    check('integrations_kind_check', sql`${t.kind} in (${inList(INTEGRATION_KINDS)})`),
    check('integrations_engine_check', sql`${t.engine} in (${inList(INTEGRATION_ENGINES)})`),
  ],
);

export type IntegrationRow = typeof integrations.$inferSelect;
