import {
  CONNECT_CONTENT_TYPES,
  ConnectSettingsSchema,
  type ContactCentreProvider,
  connectEndpointsOf,
  type CreateIntegrationBody,
  GenesysSettingsSchema,
  type Integration,
  IntegrationNameSchema,
  isSameSecretEndpoint,
  secretEndpointChangedMessage,
  type TestIntegrationBody,
  type UpdateIntegrationBody,
} from '@omnibot/contracts';
import type { FormErrors } from '@mantine/form';
import type { KeyAction } from '../../../components/forms/stored-key-field';

export type ContentType = (typeof CONNECT_CONTENT_TYPES)[number];

export interface ContactCentreFormValues {
  name: string;
  engine: ContactCentreProvider;
  server_url: string;
  deployment_id: string;
  origin: string;
  region: string;
  instance_id: string;
  contact_flow_id: string;
  access_key_id: string;
  /** A new secret; sent on create or with `key_action: 'replace'`, and emptied after every save. */
  secret_access_key: string;
  key_action: KeyAction;
  content_types: ContentType[];
  display_name: string;
  connect_endpoint: string;
  participant_endpoint: string;
}

export const PROVIDER_LABELS: Record<ContactCentreProvider, string> = {
  genesys: 'Genesys Cloud',
  connect: 'Amazon Connect',
};

export const CONTENT_TYPE_LABELS: Record<ContentType, string> = {
  'text/plain': 'Plain text (always on)',
  'text/markdown': 'Markdown',
};

export const emptyContactCentreForm = (
  engine: ContactCentreProvider = 'genesys',
): ContactCentreFormValues => ({
  name: '',
  engine,
  server_url: 'wss://webmessaging.mypurecloud.com/v1',
  deployment_id: '',
  origin: '',
  region: 'us-west-2',
  instance_id: '',
  contact_flow_id: '',
  access_key_id: '',
  secret_access_key: '',
  key_action: 'replace',
  content_types: ['text/plain'],
  display_name: 'Visitor',
  connect_endpoint: '',
  participant_endpoint: '',
});

type ConnectView = Extract<Integration['settings'], { instance_id: string }>;
type GenesysView = Extract<Integration['settings'], { server_url: string }>;

const connectOf = (integration: Integration | undefined): ConnectView | null =>
  integration && 'instance_id' in integration.settings ? integration.settings : null;
const genesysOf = (integration: Integration | undefined): GenesysView | null =>
  integration && 'server_url' in integration.settings ? integration.settings : null;

/** The form of a saved contact-centre integration: its secret stays on the server, only its mask is shown. */
export function contactCentreFormOf(integration: Integration): ContactCentreFormValues {
  const engine = integration.engine === 'connect' ? 'connect' : 'genesys';
  const values = { ...emptyContactCentreForm(engine), name: integration.name, key_action: 'keep' as const };
  const genesys = genesysOf(integration);
  if (genesys) return { ...values, ...genesys };
  const connect = connectOf(integration);
  if (!connect) return values;
  return {
    ...values,
    ...connect,
    secret_access_key: '',
    content_types: connect.content_types.filter((type): type is ContentType =>
      (CONNECT_CONTENT_TYPES as readonly string[]).includes(type),
    ),
  };
}

/** The stored secret's mask, or a phrase saying none is stored. */
export const secretMaskOf = (integration: Integration | undefined) => {
  const connect = connectOf(integration);
  return connect && connect.secret_access_key !== '' ? connect.secret_access_key : 'No secret stored';
};

/** Why the stored secret cannot be kept with the region and endpoints in the form, or null. */
export function movedSecretError(
  values: ContactCentreFormValues,
  stored: Integration | undefined,
): string | null {
  const connect = connectOf(stored);
  if (values.key_action !== 'keep' || !connect || connect.secret_access_key === '') return null;
  const before = connectEndpointsOf(connect);
  const after = connectEndpointsOf({
    region: values.region.trim(),
    connect_endpoint: values.connect_endpoint.trim(),
    participant_endpoint: values.participant_endpoint.trim(),
  });
  return isSameSecretEndpoint(before.connect, after.connect) &&
    isSameSecretEndpoint(before.participant, after.participant)
    ? null
    : secretEndpointChangedMessage('The secret access key', 'the region or an endpoint');
}

const genesysSettings = (values: ContactCentreFormValues) => ({
  server_url: values.server_url.trim(),
  deployment_id: values.deployment_id.trim(),
  origin: values.origin.trim(),
});

function connectSettings(values: ContactCentreFormValues, stored: Integration | undefined) {
  const storedSecret = connectOf(stored)?.secret_access_key ?? '';
  const secret =
    values.key_action === 'keep'
      ? storedSecret
      : values.key_action === 'remove'
        ? ''
        : values.secret_access_key;
  return {
    region: values.region.trim(),
    instance_id: values.instance_id.trim(),
    contact_flow_id: values.contact_flow_id.trim(),
    access_key_id: values.access_key_id.trim(),
    secret_access_key: secret,
    content_types: values.content_types,
    display_name: values.display_name.trim(),
    connect_endpoint: values.connect_endpoint.trim(),
    participant_endpoint: values.participant_endpoint.trim(),
  };
}

/** The fields of the settings that the contracts refused, by form field (the first message of each). */
function fieldErrors(result: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) {
  const errors: FormErrors = {};
  for (const issue of result.error?.issues ?? []) {
    const field = String(issue.path[0] ?? '');
    if (field !== '' && errors[field] === undefined) errors[field] = issue.message;
  }
  return errors;
}

/** Field by field, with the contracts' schemas (the API checks the same again). */
export function validateContactCentreForm(values: ContactCentreFormValues, stored?: Integration): FormErrors {
  const errors: FormErrors = {};
  const name = IntegrationNameSchema.safeParse(values.name);
  if (!name.success) errors.name = name.error.issues[0]?.message ?? 'Not valid';
  if (values.engine === 'genesys') {
    return { ...errors, ...fieldErrors(GenesysSettingsSchema.safeParse(genesysSettings(values))) };
  }
  const settings = connectSettings(values, stored);
  // A kept secret is checked by the server; the form checks a typed one.
  const checked = values.key_action === 'keep' ? { ...settings, secret_access_key: '' } : settings;
  Object.assign(errors, fieldErrors(ConnectSettingsSchema.safeParse(checked)));
  if (values.key_action === 'replace' && values.secret_access_key === '' && stored === undefined) {
    errors.secret_access_key = 'Enter the secret access key of the access key id';
  }
  const moved = movedSecretError(values, stored);
  if (moved) errors.secret_access_key = moved;
  return errors;
}

const settingsOf = (values: ContactCentreFormValues, stored: Integration | undefined) =>
  values.engine === 'genesys'
    ? ({ engine: 'genesys', settings: genesysSettings(values) } as const)
    : ({ engine: 'connect', settings: connectSettings(values, stored) } as const);

export function createContactCentreBodyOf(values: ContactCentreFormValues): CreateIntegrationBody {
  return { name: values.name.trim(), kind: 'ccaas', ...settingsOf(values, undefined) };
}

export function updateContactCentreBodyOf(
  values: ContactCentreFormValues,
  stored: Integration,
): UpdateIntegrationBody {
  return { name: values.name.trim(), settings: settingsOf(values, stored).settings };
}

/** The settings on screen, tried before saving; a kept secret is the stored one of `stored`. */
export function testContactCentreBodyOf(
  values: ContactCentreFormValues,
  stored: Integration | undefined,
): TestIntegrationBody {
  return { ...(stored ? { id: stored.id } : {}), ...settingsOf(values, stored) };
}
