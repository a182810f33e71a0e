import {
  AWS_ENGINE_REGION_DEFAULT,
  type BedrockAuthMode,
  BedrockSettingsSchema,
  bedrockEndpointOf,
  type CreateIntegrationBody,
  type Integration,
  IntegrationNameSchema,
  isSameSecretEndpoint,
  LEX_HANDOVER_INTENT_DEFAULT,
  LexSettingsSchema,
  lexEndpointOf,
  MODEL_MAX_TOKENS_DEFAULT,
  MODEL_TEMPERATURE_DEFAULT,
  secretEndpointChangedMessage,
  type TestIntegrationBody,
  type UpdateIntegrationBody,
} from '@omnibot/contracts';
import type { FormErrors } from '@mantine/form';
import type { KeyAction } from '../../../components/forms/stored-key-field';

export type AwsEngine = 'lex' | 'bedrock';

export interface AwsEngineFormValues {
  name: string;
  engine: AwsEngine;
  region: string;
  endpoint: string;
  access_key_id: string;
  /** A new secret access key; sent on create or with `secret_action: 'replace'`, emptied after every save. */
  secret_access_key: string;
  secret_action: KeyAction;
  bot_id: string;
  bot_alias_id: string;
  locale_id: string;
  handover_intent: string;
  auth: BedrockAuthMode;
  model: string;
  /** A new Bedrock API key, as the secret access key. */
  api_key: string;
  api_key_action: KeyAction;
  max_tokens: number;
  temperature: number;
}

export const AWS_ENGINE_LABELS: Record<AwsEngine, string> = {
  lex: 'Amazon Lex V2',
  bedrock: 'Amazon Bedrock',
};

export const isAwsEngine = (engine: string): engine is AwsEngine => engine === 'lex' || engine === 'bedrock';

export const emptyAwsEngineForm = (engine: AwsEngine = 'lex', name = ''): AwsEngineFormValues => ({
  name,
  engine,
  region: AWS_ENGINE_REGION_DEFAULT,
  endpoint: '',
  access_key_id: '',
  secret_access_key: '',
  secret_action: 'replace',
  bot_id: '',
  bot_alias_id: '',
  locale_id: 'en_US',
  handover_intent: LEX_HANDOVER_INTENT_DEFAULT,
  auth: 'sigv4',
  model: '',
  api_key: '',
  api_key_action: 'replace',
  max_tokens: MODEL_MAX_TOKENS_DEFAULT,
  temperature: MODEL_TEMPERATURE_DEFAULT,
});

type LexView = Extract<Integration['settings'], { bot_id: string }>;
type BedrockView = Extract<Integration['settings'], { auth: string }>;

const lexOf = (integration: Integration | undefined): LexView | null =>
  integration && 'bot_id' in integration.settings ? integration.settings : null;
const bedrockOf = (integration: Integration | undefined): BedrockView | null =>
  integration && 'auth' in integration.settings ? integration.settings : null;

/** The form of a saved Lex or Bedrock integration: its secrets stay on the server, only their masks are shown. */
export function awsEngineFormOf(integration: Integration): AwsEngineFormValues {
  const engine = integration.engine === 'bedrock' ? 'bedrock' : 'lex';
  const values = {
    ...emptyAwsEngineForm(engine, integration.name),
    secret_action: 'keep' as const,
    api_key_action: 'keep' as const,
  };
  const lex = lexOf(integration);
  if (lex) return { ...values, ...lex, secret_access_key: '' };
  const bedrock = bedrockOf(integration);
  if (bedrock) return { ...values, ...bedrock, secret_access_key: '', api_key: '' };
  return values;
}

/** A stored secret's mask, or a phrase saying none is stored. */
export function secretMasksOf(integration: Integration | undefined) {
  const settings = lexOf(integration) ?? bedrockOf(integration);
  const secret = settings?.secret_access_key ?? '';
  const apiKey = bedrockOf(integration)?.api_key ?? '';
  return { secret: secret || 'No secret stored', apiKey: apiKey || 'No API key stored' };
}

const endpointOf = (values: Pick<AwsEngineFormValues, 'engine' | 'region' | 'endpoint'>) => {
  const where = { region: values.region.trim(), endpoint: values.endpoint.trim() };
  return values.engine === 'lex' ? lexEndpointOf(where) : bedrockEndpointOf(where);
};

/** Why a kept secret cannot stay with the region and endpoint in the form, or null. */
export function movedAwsSecretError(
  values: AwsEngineFormValues,
  stored: Integration | undefined,
): string | null {
  const settings = lexOf(stored) ?? bedrockOf(stored);
  if (!settings) return null;
  const keepsSecret = values.secret_action === 'keep' && settings.secret_access_key !== '';
  const keepsKey = values.api_key_action === 'keep' && (bedrockOf(stored)?.api_key ?? '') !== '';
  if (!keepsSecret && !keepsKey) return null;
  return isSameSecretEndpoint(endpointOf({ engine: values.engine, ...settings }), endpointOf(values))
    ? null
    : secretEndpointChangedMessage('The stored secret', 'the region or the endpoint');
}

const chosen = (action: KeyAction, typed: string, stored: string) =>
  action === 'keep' ? stored : action === 'remove' ? '' : typed;

function settingsOf(values: AwsEngineFormValues, stored: Integration | undefined) {
  const common = {
    region: values.region.trim(),
    endpoint: values.endpoint.trim(),
    access_key_id: values.access_key_id.trim(),
  };
  if (values.engine === 'lex') {
    return {
      engine: 'lex' as const,
      settings: {
        ...common,
        bot_id: values.bot_id.trim(),
        bot_alias_id: values.bot_alias_id.trim(),
        locale_id: values.locale_id.trim(),
        handover_intent: values.handover_intent.trim(),
        secret_access_key: chosen(
          values.secret_action,
          values.secret_access_key,
          lexOf(stored)?.secret_access_key ?? '',
        ),
      },
    };
  }
  const kept = bedrockOf(stored);
  return {
    engine: 'bedrock' as const,
    settings: {
      ...common,
      auth: values.auth,
      model: values.model.trim(),
      max_tokens: values.max_tokens,
      temperature: values.temperature,
      secret_access_key: chosen(
        values.secret_action,
        values.secret_access_key,
        kept?.secret_access_key ?? '',
      ),
      api_key: chosen(values.api_key_action, values.api_key, kept?.api_key ?? ''),
    },
  };
}

/** Field by field, with the contracts' schemas (the API checks the same again). */
export function validateAwsEngineForm(values: AwsEngineFormValues, stored?: Integration): FormErrors {
  const errors: FormErrors = {};
  const name = IntegrationNameSchema.safeParse(values.name);
  if (!name.success) errors.name = name.error.issues[0]?.message ?? 'Not valid';
  const { engine, settings } = settingsOf(values, stored);
  // A kept secret is checked by the server (bound to its endpoint below); the form checks a typed one.
  const placeholder = 'KEPTSECRET';
  const checked = {
    ...settings,
    ...(values.secret_action === 'keep' && settings.secret_access_key !== ''
      ? { secret_access_key: placeholder }
      : {}),
    ...(engine === 'bedrock' && values.api_key_action === 'keep' && 'api_key' in settings && settings.api_key
      ? { api_key: placeholder }
      : {}),
  };
  const result =
    engine === 'lex' ? LexSettingsSchema.safeParse(checked) : BedrockSettingsSchema.safeParse(checked);
  for (const issue of result.error?.issues ?? []) {
    const field = String(issue.path[0] ?? '');
    if (field !== '' && errors[field] === undefined) errors[field] = issue.message;
  }
  const moved = movedAwsSecretError(values, stored);
  if (moved)
    errors[values.auth === 'api_key' && engine === 'bedrock' ? 'api_key' : 'secret_access_key'] = moved;
  return errors;
}

export function createAwsEngineBodyOf(values: AwsEngineFormValues): CreateIntegrationBody {
  return { name: values.name.trim(), kind: 'chatbot', ...settingsOf(values, undefined) };
}

export function updateAwsEngineBodyOf(
  values: AwsEngineFormValues,
  stored: Integration,
): UpdateIntegrationBody {
  return { name: values.name.trim(), settings: settingsOf(values, stored).settings };
}

/** The settings on screen, tried before saving; a kept secret is the stored one of `stored`. */
export function testAwsEngineBodyOf(
  values: AwsEngineFormValues,
  stored: Integration | undefined,
): TestIntegrationBody {
  return { ...(stored ? { id: stored.id } : {}), ...settingsOf(values, stored) };
}
