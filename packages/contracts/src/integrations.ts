import { z } from 'zod';
import {
  BedrockSettingsSchema,
  BedrockSettingsViewSchema,
  LexSettingsSchema,
  LexSettingsViewSchema,
} from './aws-engines';
import { ConnectSettingsSchema, CONTACT_CENTRE_PROVIDERS, GenesysSettingsSchema } from './contact-centre';
import { DialogflowCxSettingsSchema, DialogflowCxSettingsViewSchema } from './dialogflow';
import { ModelApiKeySchema, ModelBaseUrlSchema, ModelProviderNameSchema } from './models';
import { safeString } from './text';
import { MODEL_MAX_TOKENS_DEFAULT, MODEL_TEMPERATURE_DEFAULT, SECRET_MASK_PREFIX } from './widget-config';

/** What an integration connects: an engine bots answer with (`chatbot`), or a contact centre they hand over to. */
export const INTEGRATION_KINDS = ['chatbot', 'ccaas'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

/** The chatbot engines an integration may configure. */
export const CHATBOT_INTEGRATION_ENGINES = ['builtin', 'openai', 'dialogflowcx', 'lex', 'bedrock'] as const;
export type ChatbotIntegrationEngine = (typeof CHATBOT_INTEGRATION_ENGINES)[number];

/** Every engine an integration may have: the chatbot engines, then the contact centres. */
export const INTEGRATION_ENGINES = [...CHATBOT_INTEGRATION_ENGINES, ...CONTACT_CENTRE_PROVIDERS] as const;
export type IntegrationEngine = (typeof INTEGRATION_ENGINES)[number];

/** The kind each engine belongs to. */
export const INTEGRATION_KIND_OF: Readonly<Record<IntegrationEngine, IntegrationKind>> = {
  builtin: 'chatbot',
  openai: 'chatbot',
  dialogflowcx: 'chatbot',
  lex: 'chatbot',
  bedrock: 'chatbot',
  genesys: 'ccaas',
  connect: 'ccaas',
};

const INTEGRATION_NAME_MAX = 120;

export const IntegrationNameSchema = safeString()
  .trim()
  .min(1, 'The name is required')
  .max(INTEGRATION_NAME_MAX, `The name must be at most ${INTEGRATION_NAME_MAX} characters`);

/** The builtin engine: the Omni RAG answers from this RAG of the organisation. */
export const BuiltinIntegrationSettingsSchema = z.strictObject({
  rag_id: z.uuid('Unknown RAG id'),
});

/**
 * An OpenAI-compatible chat endpoint. `api_key`: a new key, '' for none, or the masked key as it was read, which
 * keeps the stored one.
 */
export const OpenAiIntegrationSettingsSchema = z.strictObject({
  base_url: ModelBaseUrlSchema,
  model: ModelProviderNameSchema,
  api_key: z
    .union([z.literal(''), ModelApiKeySchema], 'The API key may contain only printable ASCII characters')
    .default(''),
  max_tokens: z
    .number('max_tokens must be a number')
    .int('max_tokens must be a whole number')
    .min(1, 'max_tokens is at least 1')
    .max(32_768, 'max_tokens is at most 32768')
    .default(MODEL_MAX_TOKENS_DEFAULT),
  temperature: z
    .number('temperature must be a number')
    .min(0, 'temperature is at least 0')
    .max(2, 'temperature is at most 2')
    .default(MODEL_TEMPERATURE_DEFAULT),
});

const builtinShape = { engine: z.literal('builtin'), settings: BuiltinIntegrationSettingsSchema };
const openAiShape = { engine: z.literal('openai'), settings: OpenAiIntegrationSettingsSchema };
const dialogflowShape = { engine: z.literal('dialogflowcx'), settings: DialogflowCxSettingsSchema };
const lexShape = { engine: z.literal('lex'), settings: LexSettingsSchema };
const bedrockShape = { engine: z.literal('bedrock'), settings: BedrockSettingsSchema };
const genesysShape = { engine: z.literal('genesys'), settings: GenesysSettingsSchema };
const connectShape = { engine: z.literal('connect'), settings: ConnectSettingsSchema };
const engineError = { error: `The engine is one of: ${INTEGRATION_ENGINES.join(', ')}.` };
const kindError = `The kind is one of: ${INTEGRATION_KINDS.join(', ')}.`;
/** The kind may be left out; given, it must be the engine's own (a Genesys integration is of kind ccaas). */
const kindOf = (kind: IntegrationKind, engines: string) =>
  z.enum([kind], `The kind of ${engines} integrations is ${kind}.`).default(kind);

/**
 * A new integration: its engine and that engine's settings. Chatbot engines (builtin, openai) and contact centres
 * (genesys, connect; kind `ccaas`).
 */
export const CreateIntegrationBodySchema = z.discriminatedUnion(
  'engine',
  [
    z.strictObject({ name: IntegrationNameSchema, kind: kindOf('chatbot', 'builtin'), ...builtinShape }),
    z.strictObject({ name: IntegrationNameSchema, kind: kindOf('chatbot', 'openai'), ...openAiShape }),
    z.strictObject({
      name: IntegrationNameSchema,
      kind: kindOf('chatbot', 'dialogflowcx'),
      ...dialogflowShape,
    }),
    z.strictObject({ name: IntegrationNameSchema, kind: kindOf('chatbot', 'lex'), ...lexShape }),
    z.strictObject({ name: IntegrationNameSchema, kind: kindOf('chatbot', 'bedrock'), ...bedrockShape }),
    z.strictObject({ name: IntegrationNameSchema, kind: kindOf('ccaas', 'genesys'), ...genesysShape }),
    z.strictObject({ name: IntegrationNameSchema, kind: kindOf('ccaas', 'connect'), ...connectShape }),
  ],
  engineError,
);
export type CreateIntegrationBody = z.input<typeof CreateIntegrationBodySchema>;

/**
 * A change: the name, and the settings of the integration's own engine (given whole; a masked API key or secret
 * access key keeps the stored one). An integration keeps its engine.
 */
export const UpdateIntegrationBodySchema = z.strictObject({
  name: IntegrationNameSchema.optional(),
  settings: z
    .union(
      [
        BuiltinIntegrationSettingsSchema,
        OpenAiIntegrationSettingsSchema,
        DialogflowCxSettingsSchema,
        LexSettingsSchema,
        BedrockSettingsSchema,
        GenesysSettingsSchema,
        ConnectSettingsSchema,
      ],
      {
        error:
          'The settings are a rag_id (builtin); base_url, model and api_key (openai); service_account_key and agents (dialogflowcx); region, bot_id, bot_alias_id and keys (lex); model and keys or api_key (bedrock); server_url, deployment_id and origin (genesys); or region, instance_id, contact_flow_id, access_key_id and secret_access_key (connect).',
      },
    )
    .optional(),
});
export type UpdateIntegrationBody = z.input<typeof UpdateIntegrationBodySchema>;

/** Settings tried without being saved (an `id` lets a masked key stand for the stored key of that integration). */
export const TestIntegrationBodySchema = z.discriminatedUnion(
  'engine',
  [
    z.strictObject({ id: z.uuid('Unknown integration id').optional(), ...builtinShape }),
    z.strictObject({ id: z.uuid('Unknown integration id').optional(), ...openAiShape }),
    z.strictObject({ id: z.uuid('Unknown integration id').optional(), ...dialogflowShape }),
    z.strictObject({ id: z.uuid('Unknown integration id').optional(), ...lexShape }),
    z.strictObject({ id: z.uuid('Unknown integration id').optional(), ...bedrockShape }),
    z.strictObject({ id: z.uuid('Unknown integration id').optional(), ...genesysShape }),
    z.strictObject({ id: z.uuid('Unknown integration id').optional(), ...connectShape }),
  ],
  engineError,
);
export type TestIntegrationBody = z.input<typeof TestIntegrationBodySchema>;

export const IntegrationIdParamsSchema = z.object({ id: z.uuid('Unknown integration id') });

export const IntegrationListQuerySchema = z.strictObject({
  kind: z.enum(INTEGRATION_KINDS, kindError).optional(),
  engine: z.enum(INTEGRATION_ENGINES, engineError).optional(),
});
export type IntegrationListQuery = z.infer<typeof IntegrationListQuerySchema>;

/** Genesys settings as the console reads them (nothing secret in them). */
export const GenesysSettingsViewSchema = z.object({
  server_url: z.string(),
  deployment_id: z.string(),
  origin: z.string(),
});

/** Connect settings as the console reads them: the secret access key only masked ('' when none is stored). */
export const ConnectSettingsViewSchema = z.object({
  region: z.string(),
  instance_id: z.string(),
  contact_flow_id: z.string(),
  access_key_id: z.string(),
  secret_access_key: z.string(),
  content_types: z.array(z.string()),
  display_name: z.string(),
  connect_endpoint: z.string(),
  participant_endpoint: z.string(),
});

/** The settings as the console reads them: the API key and the secret access key only masked. */
const IntegrationSettingsViewSchema = z.union([
  z.object({ rag_id: z.string() }),
  z.object({
    base_url: z.string(),
    model: z.string(),
    api_key: z.string(),
    max_tokens: z.number().int(),
    temperature: z.number(),
  }),
  DialogflowCxSettingsViewSchema,
  LexSettingsViewSchema,
  BedrockSettingsViewSchema,
  GenesysSettingsViewSchema,
  ConnectSettingsViewSchema,
]);

/** A bot that answers with an integration (chatbot) or hands its conversations over to it (ccaas). */
const IntegrationBotSchema = z.object({ id: z.string(), name: z.string(), enabled: z.boolean() });

export const IntegrationSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  kind: z.enum(INTEGRATION_KINDS),
  engine: z.enum(INTEGRATION_ENGINES),
  name: z.string(),
  settings: IntegrationSettingsViewSchema,
  /** The organisation's bots that answer with this integration, or hand over to it. */
  bots: z.array(IntegrationBotSchema),
  created_by: z.string().nullable(),
  updated_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Integration = z.infer<typeof IntegrationSchema>;

export const IntegrationListSchema = z.object({ items: z.array(IntegrationSchema) });
export type IntegrationList = z.infer<typeof IntegrationListSchema>;

/** The result of trying an integration: the provider's refusal in plain words when it fails. */
export const IntegrationTestResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), latency_ms: z.number().int(), detail: z.string() }),
  z.object({ ok: z.literal(false), code: z.string(), message: z.string() }),
]);
export type IntegrationTestResult = z.infer<typeof IntegrationTestResultSchema>;

/** Whether an engine is a contact centre's (an integration of kind `ccaas`). */
export const isContactCentreEngine = (
  engine: IntegrationEngine,
): engine is (typeof CONTACT_CENTRE_PROVIDERS)[number] => INTEGRATION_KIND_OF[engine] === 'ccaas';

/** Whether an API key is the masked form the console read (sent back, it keeps the stored key). */
export const isMaskedApiKey = (value: string) => value.startsWith(SECRET_MASK_PREFIX);
