import {
  CreateModelBodySchema,
  MODEL_DEFAULTS,
  ModelApiKeySchema,
  ModelBaseUrlSchema,
  ModelDimensionsSchema,
  ModelKindSchema,
  ModelMaxTokensSchema,
  ModelNameSchema,
  ModelProviderNameSchema,
  ModelTemperatureSchema,
  TenantIdSchema,
  UpdateModelBodySchema,
  type CreateModelBody,
  type Model,
  type ModelKind,
  type ModelTestResult,
  type UpdateModelBody,
} from '@omnibot/contracts';
import { z } from 'zod';

/** What happens to the stored key when a connection is saved. */
export type KeyAction = 'keep' | 'replace' | 'remove';

export interface ModelFormValues {
  name: string;
  kind: ModelKind;
  base_url: string;
  model_name: string;
  /** A new key; only sent on create or with `key_action: 'replace'`, and emptied after every save. */
  api_key: string;
  key_action: KeyAction;
  max_tokens: number | string;
  temperature: number | string;
  /** Empty: the model's own size. */
  dimensions: number | string;
  share_all: boolean;
  tenant_ids: string[];
}

/** A number input's value checked against a contract schema, with a message in plain words. */
const numberWith = (schema: z.ZodType<number>, message: string) =>
  z.union([z.number(), z.string()]).refine((value) => schema.safeParse(value).success, message);

/** The form, checked field by field with the contracts' schemas (the API checks the same again). */
export const ModelFormSchema = z.object({
  name: ModelNameSchema,
  kind: ModelKindSchema,
  base_url: ModelBaseUrlSchema,
  model_name: ModelProviderNameSchema,
  api_key: z.string(),
  key_action: z.enum(['keep', 'replace', 'remove']),
  max_tokens: numberWith(ModelMaxTokensSchema, 'Max tokens must be a whole number from 1 to 32768'),
  temperature: numberWith(ModelTemperatureSchema, 'The temperature must be between 0 and 2'),
  dimensions: z
    .union([z.number(), z.string()])
    .refine(
      (value) => value === '' || ModelDimensionsSchema.safeParse(value).success,
      'Dimensions must be a whole number from 1 to 16000, or empty',
    ),
  share_all: z.boolean(),
  tenant_ids: z.array(TenantIdSchema),
});

/**
 * The key field: a new connection may have no key (an endpoint without one); "Replace key" needs one. A key
 * that is given must pass the contract's check, whose message is shown.
 */
export function apiKeyError(values: Pick<ModelFormValues, 'api_key' | 'key_action'>, isNew: boolean) {
  if (values.key_action !== 'replace') return null;
  if (values.api_key === '') return isNew ? null : 'Enter the new API key';
  const key = ModelApiKeySchema.safeParse(values.api_key);
  return key.success ? null : (key.error.issues[0]?.message ?? 'The API key is not valid');
}

/** A new connection: chat, defaults of the API, no key yet (an empty key field means "no key"). */
export const emptyModelForm = (): ModelFormValues => ({
  name: '',
  kind: 'chat',
  base_url: '',
  model_name: '',
  api_key: '',
  key_action: 'replace',
  max_tokens: MODEL_DEFAULTS.max_tokens,
  temperature: MODEL_DEFAULTS.temperature,
  dimensions: '',
  share_all: false,
  tenant_ids: [],
});

/** An existing connection: every field but the key, which the API never answers. */
export const modelFormOf = (model: Model): ModelFormValues => ({
  name: model.name,
  kind: model.kind,
  base_url: model.base_url,
  model_name: model.model_name,
  api_key: '',
  key_action: 'keep',
  max_tokens: model.max_tokens,
  temperature: model.temperature,
  dimensions: model.dimensions ?? '',
  share_all: model.sharing.all,
  tenant_ids: model.sharing.tenant_ids,
});

const common = (values: ModelFormValues) => ({
  name: values.name,
  base_url: values.base_url,
  model_name: values.model_name,
  max_tokens: Number(values.max_tokens),
  temperature: Number(values.temperature),
  dimensions: values.kind === 'embedding' && values.dimensions !== '' ? Number(values.dimensions) : null,
  sharing: { all: values.share_all, tenant_ids: values.share_all ? [] : values.tenant_ids },
});

/** The POST body, checked with the contract's schema before it is sent. */
export function createBodyOf(values: ModelFormValues): CreateModelBody {
  return CreateModelBodySchema.parse({
    ...common(values),
    kind: values.kind,
    ...(values.api_key === '' ? {} : { api_key: values.api_key }),
  });
}

/** The PATCH body: the key only when it is replaced (`null` removes it, absent keeps it). */
export function updateBodyOf(values: ModelFormValues): UpdateModelBody {
  const apiKey =
    values.key_action === 'replace'
      ? { api_key: values.api_key }
      : values.key_action === 'remove'
        ? { api_key: null }
        : {};
  return UpdateModelBodySchema.parse({ ...common(values), ...apiKey });
}

/** The stored key as the console shows it: never the key, only whether there is one and its end. */
export function keyMaskOf(model: Pick<Model, 'api_key'>): string {
  if (!model.api_key.set) return 'No key';
  return model.api_key.last4 ? `****${model.api_key.last4}` : '****';
}

/** A test-connection result in plain words. */
export function testResultText(result: ModelTestResult): { title: string; message: string } {
  if (result.ok) {
    return { title: 'Connection works', message: `The model answered in ${result.latency_ms} ms.` };
  }
  return { title: 'Connection failed', message: result.message };
}
