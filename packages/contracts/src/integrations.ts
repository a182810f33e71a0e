import { z } from 'zod';
import { ModelApiKeySchema, ModelBaseUrlSchema, ModelProviderNameSchema } from './models';
import { safeString } from './text';
import { MODEL_MAX_TOKENS_DEFAULT, MODEL_TEMPERATURE_DEFAULT, SECRET_MASK_PREFIX } from './widget-config';

export const INTEGRATION_KINDS = ['chatbot'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

/** The chatbot engines an integration may configure. */
export const INTEGRATION_ENGINES = ['builtin', 'openai'] as const;
export type IntegrationEngine = (typeof INTEGRATION_ENGINES)[number];

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
const engineError = { error: `The engine is one of: ${INTEGRATION_ENGINES.join(', ')}.` };

/** A new chatbot-engine integration: its engine and that engine's settings. */
export const CreateIntegrationBodySchema = z.discriminatedUnion(
  'engine',
  [
    z.strictObject({
      name: IntegrationNameSchema,
      kind: z.enum(INTEGRATION_KINDS).default('chatbot'),
      ...builtinShape,
    }),
    z.strictObject({
      name: IntegrationNameSchema,
      kind: z.enum(INTEGRATION_KINDS).default('chatbot'),
      ...openAiShape,
    }),
  ],
  engineError,
);
export type CreateIntegrationBody = z.input<typeof CreateIntegrationBodySchema>;

/**
 * A change: the name, and the settings of the integration's own engine (given whole; a masked API key keeps the
 * stored one). An integration keeps its engine.
 */
export const UpdateIntegrationBodySchema = z.strictObject({
  name: IntegrationNameSchema.optional(),
  settings: z
    .union([BuiltinIntegrationSettingsSchema, OpenAiIntegrationSettingsSchema], {
      error: 'The settings are a rag_id (builtin) or base_url, model and api_key (openai).',
    })
    .optional(),
});
export type UpdateIntegrationBody = z.input<typeof UpdateIntegrationBodySchema>;

/** Settings tried without being saved (an `id` lets a masked key stand for the stored key of that integration). */
export const TestIntegrationBodySchema = z.discriminatedUnion(
  'engine',
  [
    z.strictObject({ id: z.uuid('Unknown integration id').optional(), ...builtinShape }),
    z.strictObject({ id: z.uuid('Unknown integration id').optional(), ...openAiShape }),
  ],
  engineError,
);
export type TestIntegrationBody = z.input<typeof TestIntegrationBodySchema>;

export const IntegrationIdParamsSchema = z.object({ id: z.uuid('Unknown integration id') });

export const IntegrationListQuerySchema = z.strictObject({
  kind: z.enum(INTEGRATION_KINDS).optional(),
  engine: z.enum(INTEGRATION_ENGINES).optional(),
});
export type IntegrationListQuery = z.infer<typeof IntegrationListQuerySchema>;

/** The settings as the console reads them: the API key only masked. */
const IntegrationSettingsViewSchema = z.union([
  z.object({ rag_id: z.string() }),
  z.object({
    base_url: z.string(),
    model: z.string(),
    api_key: z.string(),
    max_tokens: z.number().int(),
    temperature: z.number(),
  }),
]);

/** A bot that answers with an integration. */
const IntegrationBotSchema = z.object({ id: z.string(), name: z.string(), enabled: z.boolean() });

export const IntegrationSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  kind: z.enum(INTEGRATION_KINDS),
  engine: z.enum(INTEGRATION_ENGINES),
  name: z.string(),
  settings: IntegrationSettingsViewSchema,
  /** The organisation's bots that answer with this integration. */
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

/** Whether an API key is the masked form the console read (sent back, it keeps the stored key). */
export const isMaskedApiKey = (value: string) => value.startsWith(SECRET_MASK_PREFIX);
