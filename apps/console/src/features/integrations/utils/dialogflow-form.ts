import {
  type CreateIntegrationBody,
  DialogflowCxSettingsSchema,
  type DialogflowCxSettingsInput,
  dialogflowKeyEndpointOf,
  type Integration,
  IntegrationNameSchema,
  isSameSecretEndpoint,
  parseServiceAccountKey,
  secretEndpointChangedMessage,
  type TestIntegrationBody,
  type UpdateIntegrationBody,
} from '@omnibot/contracts';
import type { FormErrors } from '@mantine/form';

export interface DialogflowAgentRow {
  agentName: string;
  agentId: string;
  agentImage: string;
  projectId: string;
  location: string;
}

export interface DialogflowFormValues {
  name: string;
  /** The key file's text once read; sent on create or when replacing, emptied after every save. */
  key_text: string;
  /** The file the key was read from, to show what was chosen. */
  key_file_name: string;
  /** Keep the stored key or replace it with the uploaded one (a Dialogflow CX integration always has a key). */
  key_action: 'keep' | 'replace';
  agents: DialogflowAgentRow[];
  default_agent: string;
  fallback_agent: string;
  environment: string;
  language_code: string;
  languages: string[];
  agent_per_language: boolean;
  endpoint: string;
}

type DialogflowView = Extract<Integration['settings'], { service_account_key: string }>;

/** The Dialogflow settings of an integration, when it is one. */
export const dialogflowSettingsOf = (integration: Integration | undefined): DialogflowView | null =>
  integration && 'service_account_key' in integration.settings ? integration.settings : null;

export const emptyAgent = (projectId = ''): DialogflowAgentRow => ({
  agentName: '',
  agentId: '',
  agentImage: '',
  projectId,
  location: 'global',
});

export const emptyDialogflowForm = (): DialogflowFormValues => ({
  name: '',
  key_text: '',
  key_file_name: '',
  key_action: 'replace',
  agents: [emptyAgent()],
  default_agent: '',
  fallback_agent: '',
  environment: '',
  language_code: 'en',
  languages: [],
  agent_per_language: false,
  endpoint: '',
});

/** The form of a saved integration: its key stays on the server, only its mask and account are shown. */
export function dialogflowFormOf(integration: Integration): DialogflowFormValues {
  const settings = dialogflowSettingsOf(integration);
  if (!settings) return { ...emptyDialogflowForm(), name: integration.name };
  return {
    name: integration.name,
    key_text: '',
    key_file_name: '',
    key_action: 'keep',
    agents: settings.agents.map((agent) => ({ ...agent })),
    default_agent: settings.default_agent,
    fallback_agent: settings.fallback_agent,
    environment: settings.environment,
    language_code: settings.language_code,
    languages: [...settings.languages],
    agent_per_language: settings.agent_per_language,
    endpoint: settings.endpoint,
  };
}

/** Reads an uploaded key file: its text and the account in it, or what is wrong with it. */
export async function readKeyFile(
  file: File,
): Promise<{ text: string; email: string; projectId: string } | { error: string }> {
  const text = await file.text();
  const parsed = parseServiceAccountKey(text);
  if ('error' in parsed) return parsed;
  return { text, email: parsed.key.client_email, projectId: parsed.key.project_id };
}

/** The settings as they are sent: the uploaded key, or the stored key's mask to keep it. */
export function dialogflowSettingsFrom(
  values: DialogflowFormValues,
  stored: Integration | undefined,
): DialogflowCxSettingsInput {
  const kept = dialogflowSettingsOf(stored)?.service_account_key ?? '';
  return {
    service_account_key: values.key_action === 'keep' ? kept : values.key_text,
    agents: values.agents.map((agent) => ({
      agentName: agent.agentName.trim(),
      agentId: agent.agentId.trim(),
      agentImage: agent.agentImage.trim(),
      projectId: agent.projectId.trim(),
      location: agent.location.trim() || 'global',
    })),
    default_agent: values.default_agent,
    fallback_agent: values.fallback_agent,
    environment: values.environment.trim(),
    language_code: values.language_code.trim(),
    languages: values.languages,
    agent_per_language: values.agent_per_language,
    endpoint: values.endpoint.trim(),
  };
}

/** Why the stored key cannot be kept with the endpoint in the form, or null. */
export function movedDialogflowKeyError(values: DialogflowFormValues, stored: Integration | undefined) {
  const settings = dialogflowSettingsOf(stored);
  if (values.key_action !== 'keep' || !settings) return null;
  return isSameSecretEndpoint(
    dialogflowKeyEndpointOf(settings.endpoint),
    dialogflowKeyEndpointOf(values.endpoint.trim()),
  )
    ? null
    : secretEndpointChangedMessage('The service account key', 'the endpoint');
}

/** Field by field with the contracts' schema (the API checks the same again). */
export function validateDialogflowForm(values: DialogflowFormValues, stored?: Integration): FormErrors {
  const errors: FormErrors = {};
  const name = IntegrationNameSchema.safeParse(values.name);
  if (!name.success) errors.name = name.error.issues[0]?.message ?? 'The name is not valid';
  if (values.key_action === 'replace' && values.key_text === '') {
    errors.key_text = 'Upload the service account key file (JSON)';
  }
  const parsed = DialogflowCxSettingsSchema.safeParse(dialogflowSettingsFrom(values, stored));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [head, ...rest] = issue.path;
      const field =
        head === 'service_account_key' ? 'key_text' : [head, ...rest].map((part) => String(part)).join('.');
      errors[field] ??= issue.message;
    }
  }
  const moved = movedDialogflowKeyError(values, stored);
  if (moved) errors.endpoint = moved;
  return errors;
}

export const createDialogflowBodyOf = (values: DialogflowFormValues): CreateIntegrationBody => ({
  name: values.name.trim(),
  engine: 'dialogflowcx',
  settings: dialogflowSettingsFrom(values, undefined),
});

export const updateDialogflowBodyOf = (
  values: DialogflowFormValues,
  stored: Integration,
): UpdateIntegrationBody => ({
  name: values.name.trim(),
  settings: dialogflowSettingsFrom(values, stored),
});

export const testDialogflowBodyOf = (
  values: DialogflowFormValues,
  stored: Integration | undefined,
): TestIntegrationBody => ({
  ...(stored ? { id: stored.id } : {}),
  engine: 'dialogflowcx',
  settings: dialogflowSettingsFrom(values, stored),
});
