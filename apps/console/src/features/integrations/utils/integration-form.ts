import {
  type ChatbotIntegrationEngine,
  type CreateIntegrationBody,
  type Integration,
  type IntegrationEngine,
  type IntegrationTestResult,
  IntegrationNameSchema,
  MODEL_DEFAULTS,
  ModelApiKeySchema,
  ModelBaseUrlSchema,
  ModelMaxTokensSchema,
  ModelProviderNameSchema,
  ModelTemperatureSchema,
  type TestIntegrationBody,
  type UpdateIntegrationBody,
} from '@omnibot/contracts';
import type { FormErrors } from '@mantine/form';
import { keptKeyEndpointError } from '../../../components/forms/stored-key-endpoint';

/** What happens to the stored key when an integration is saved. */
export type KeyAction = 'keep' | 'replace' | 'remove';

export interface IntegrationFormValues {
  name: string;
  engine: ChatbotIntegrationEngine;
  rag_id: string | null;
  base_url: string;
  model: string;
  /** A new key; sent on create or with `key_action: 'replace'`, and emptied after every save. */
  api_key: string;
  key_action: KeyAction;
  max_tokens: number | string;
  temperature: number | string;
}

export const ENGINE_LABELS: Record<IntegrationEngine, string> = {
  builtin: 'Builtin (Omni RAG)',
  openai: 'OpenAI-compatible',
  dialogflowcx: 'Dialogflow CX',
  lex: 'Amazon Lex V2',
  bedrock: 'Amazon Bedrock',
  genesys: 'Genesys Cloud',
  connect: 'Amazon Connect',
};

export const emptyIntegrationForm = (engine: ChatbotIntegrationEngine = 'openai'): IntegrationFormValues => ({
  name: '',
  engine,
  rag_id: null,
  base_url: '',
  model: '',
  api_key: '',
  key_action: 'replace',
  max_tokens: MODEL_DEFAULTS.max_tokens,
  temperature: MODEL_DEFAULTS.temperature,
});

/** The form of a saved integration: its key stays on the server, only its mask is shown. */
export function integrationFormOf(integration: Integration): IntegrationFormValues {
  const values = {
    ...emptyIntegrationForm(integration.engine === 'builtin' ? 'builtin' : 'openai'),
    name: integration.name,
    key_action: 'keep' as const,
  };
  const settings = integration.settings;
  if ('rag_id' in settings) return { ...values, rag_id: settings.rag_id };
  if (!('base_url' in settings)) return values;
  return {
    ...values,
    base_url: settings.base_url,
    model: settings.model,
    max_tokens: settings.max_tokens,
    temperature: settings.temperature,
  };
}

/** The stored key's mask, or what saving will do to it. */
export const keyMaskOf = (integration: Integration | undefined) =>
  integration && 'api_key' in integration.settings && integration.settings.api_key !== ''
    ? integration.settings.api_key
    : 'No key stored';

const firstIssue = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? undefined : (result.error?.issues[0]?.message ?? 'Not valid');

/** Why the stored key cannot be kept with the URL in the form, or null. */
export const movedKeyError = (values: IntegrationFormValues, stored: Integration | undefined) =>
  keptKeyEndpointError({
    action: values.key_action,
    hasStoredKey: keyMaskOf(stored) !== 'No key stored',
    storedUrl: stored && 'base_url' in stored.settings ? stored.settings.base_url : '',
    url: values.base_url.trim(),
  });

/** Field by field, with the contracts' schemas (the API checks the same again). */
export function validateIntegrationForm(values: IntegrationFormValues, stored?: Integration): FormErrors {
  const errors: FormErrors = {};
  const name = firstIssue(IntegrationNameSchema.safeParse(values.name));
  if (name) errors.name = name;
  if (values.engine === 'builtin') {
    if (!values.rag_id) errors.rag_id = 'Choose the RAG the bots answer from';
    return errors;
  }
  const baseUrl = firstIssue(ModelBaseUrlSchema.safeParse(values.base_url));
  if (baseUrl) errors.base_url = baseUrl;
  const model = firstIssue(ModelProviderNameSchema.safeParse(values.model));
  if (model) errors.model = model;
  if (values.key_action === 'replace' && values.api_key !== '') {
    const key = firstIssue(ModelApiKeySchema.safeParse(values.api_key));
    if (key) errors.api_key = key;
  }
  const moved = movedKeyError(values, stored);
  if (moved) errors.api_key = moved;
  if (!ModelMaxTokensSchema.safeParse(values.max_tokens).success) {
    errors.max_tokens = 'Max tokens must be a whole number from 1 to 32768';
  }
  if (!ModelTemperatureSchema.safeParse(values.temperature).success) {
    errors.temperature = 'The temperature must be between 0 and 2';
  }
  return errors;
}

function openAiSettings(values: IntegrationFormValues, stored: Integration | undefined) {
  const storedKey = stored && 'api_key' in stored.settings ? stored.settings.api_key : '';
  const apiKey =
    values.key_action === 'keep' ? storedKey : values.key_action === 'remove' ? '' : values.api_key;
  return {
    base_url: values.base_url.trim(),
    model: values.model.trim(),
    api_key: apiKey,
    max_tokens: Number(values.max_tokens),
    temperature: Number(values.temperature),
  };
}

const ragSettings = (values: IntegrationFormValues) => ({ rag_id: values.rag_id ?? '' });

export function createBodyOf(values: IntegrationFormValues): CreateIntegrationBody {
  return values.engine === 'builtin'
    ? { name: values.name.trim(), engine: 'builtin', settings: ragSettings(values) }
    : { name: values.name.trim(), engine: 'openai', settings: openAiSettings(values, undefined) };
}

export function updateBodyOf(values: IntegrationFormValues, stored: Integration): UpdateIntegrationBody {
  return {
    name: values.name.trim(),
    settings: stored.engine === 'builtin' ? ragSettings(values) : openAiSettings(values, stored),
  };
}

/** The settings on screen, tried before saving; a kept key is the stored one of `stored`. */
export function testBodyOf(
  values: IntegrationFormValues,
  stored: Integration | undefined,
): TestIntegrationBody {
  const id = stored ? { id: stored.id } : {};
  return values.engine === 'builtin'
    ? { ...id, engine: 'builtin', settings: ragSettings(values) }
    : { ...id, engine: 'openai', settings: openAiSettings(values, stored) };
}

/** A test result in words: how long it took, or the provider's refusal. */
export function testResultText(result: IntegrationTestResult): { title: string; message: string } {
  return result.ok
    ? { title: 'Connection works', message: result.detail }
    : { title: 'Connection failed', message: result.message };
}
