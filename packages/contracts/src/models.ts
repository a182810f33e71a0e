import { z } from 'zod';
import { TenantIdSchema } from './accounts';

export const MODEL_KINDS = ['chat', 'embedding', 'speech'] as const;
export const ModelKindSchema = z.enum(MODEL_KINDS);
export type ModelKind = z.infer<typeof ModelKindSchema>;

/** How a kind is named to people (the console's kind picker and lists). */
export const MODEL_KIND_LABELS: Readonly<Record<ModelKind, string>> = {
  chat: 'Chat',
  embedding: 'Embedding',
  speech: 'Speech',
};

export const MODEL_DEFAULTS = { max_tokens: 1024, temperature: 0.7 } as const;

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;

const text = (label: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine((value) => !CONTROL.test(value), `${label} may not contain control characters`);

export const ModelNameSchema = text('The name', 100);
export const ModelProviderNameSchema = text('The model name', 200);

/** Where the OpenAI-compatible API lives, e.g. https://api.openai.com/v1 (http or https, no credentials in it). */
export const ModelBaseUrlSchema = z
  .string()
  .trim()
  .max(2000, 'The base URL must be at most 2000 characters')
  .refine((value) => {
    if (CONTROL.test(value)) return false;
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
    } catch {
      return false;
    }
  }, 'The base URL must be an http(s) URL without a user name or password');

/** A new API key: printable ASCII without spaces (it travels in an Authorization header). */
export const ModelApiKeySchema = z
  .string()
  .min(1, 'The API key is empty')
  .max(4096, 'The API key must be at most 4096 characters')
  .regex(/^[\x21-\x7e]+$/u, 'The API key may contain only printable ASCII characters without spaces');

export const ModelMaxTokensSchema = z.number().int().min(1).max(32768);
export const ModelTemperatureSchema = z.number().min(0).max(2);
export const ModelDimensionsSchema = z.number().int().min(1).max(16000);

/** Who a model is offered to: every tenant, or the listed ones. */
const ModelSharingSchema = z.strictObject({
  all: z.boolean(),
  tenant_ids: z.array(TenantIdSchema).max(1000).default([]),
});

export const CreateModelBodySchema = z.strictObject({
  name: ModelNameSchema,
  kind: ModelKindSchema,
  base_url: ModelBaseUrlSchema,
  model_name: ModelProviderNameSchema,
  api_key: ModelApiKeySchema.optional(),
  max_tokens: ModelMaxTokensSchema.default(MODEL_DEFAULTS.max_tokens),
  temperature: ModelTemperatureSchema.default(MODEL_DEFAULTS.temperature),
  dimensions: ModelDimensionsSchema.nullable().optional(),
  sharing: ModelSharingSchema.default({ all: false, tenant_ids: [] }),
});
export type CreateModelBody = z.input<typeof CreateModelBodySchema>;

/** Every field optional; `api_key: null` removes the key, an absent `api_key` keeps it. */
export const UpdateModelBodySchema = z.strictObject({
  name: ModelNameSchema.optional(),
  base_url: ModelBaseUrlSchema.optional(),
  model_name: ModelProviderNameSchema.optional(),
  api_key: ModelApiKeySchema.nullable().optional(),
  max_tokens: ModelMaxTokensSchema.optional(),
  temperature: ModelTemperatureSchema.optional(),
  dimensions: ModelDimensionsSchema.nullable().optional(),
  sharing: ModelSharingSchema.optional(),
});
export type UpdateModelBody = z.input<typeof UpdateModelBodySchema>;

/** The key is never answered: only whether one is set and its last 4 characters. */
const ModelApiKeyMaskSchema = z.object({ set: z.boolean(), last4: z.string().nullable() });

export const ModelSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  kind: ModelKindSchema,
  base_url: z.string(),
  model_name: z.string(),
  api_key: ModelApiKeyMaskSchema,
  max_tokens: z.number().int(),
  temperature: z.number(),
  dimensions: z.number().int().nullable(),
  sharing: z.object({ all: z.boolean(), tenant_ids: z.array(z.string()) }),
  created_by: z.string().nullable(),
  updated_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Model = z.infer<typeof ModelSchema>;

export const ModelListSchema = z.object({ items: z.array(ModelSchema) });

/** A model as the tenants it is shared with see it (to pick one in an index or RAG): no key, no URL. */
const AvailableModelSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: ModelKindSchema,
  model_name: z.string(),
  max_tokens: z.number().int(),
  temperature: z.number(),
  dimensions: z.number().int().nullable(),
});
export type AvailableModel = z.infer<typeof AvailableModelSchema>;

export const AvailableModelListSchema = z.object({ items: z.array(AvailableModelSchema) });
export const AvailableModelsQuerySchema = z.strictObject({ kind: ModelKindSchema.optional() });
export const ModelIdParamsSchema = z.object({ id: z.uuid('Unknown model id') });

export const ModelTestResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), latency_ms: z.number().int() }),
  z.object({ ok: z.literal(false), code: z.string(), message: z.string() }),
]);
export type ModelTestResult = z.infer<typeof ModelTestResultSchema>;
