import type { DialogflowCxSettingsSchema } from '@omnibot/contracts';
import {
  type DialogflowCxSettings,
  dialogflowKeyEndpointOf,
  type IntegrationTestResult,
  isMaskedApiKey,
  maskServiceAccountKey,
  parseServiceAccountKey,
} from '@omnibot/contracts';
import type { z } from 'zod';
import type { IntegrationRow, StoredDialogflowCxSettings } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { type GuardedWebFetch, refusalReasonFor } from '../../lib/guarded-http/guarded-fetch';
import type { Principal } from '../../lib/principal';
import { type SecretBox, SecretBoxError } from '../../lib/secret-box';
import { assertSecretStaysWithEndpoint } from '../../lib/secret-endpoint';
import {
  credentialsOf,
  type DialogflowCredentials,
  DialogflowError,
  getAgent,
} from './providers/dialogflow-cx';

type DialogflowInput = z.output<typeof DialogflowCxSettingsSchema>;

/** Dialogflow CX settings with the key opened, for the server's own use only. */
export interface OpenedDialogflow {
  settings: DialogflowCxSettings;
  credentials: DialogflowCredentials;
}

const KEY_NAMES = { what: 'The service account key', where: 'the endpoint' };

/** The key file read and its private key checked; a bad one is a 400 in plain words. */
function credentialsOfText(text: string): DialogflowCredentials {
  const parsed = parseServiceAccountKey(text);
  if ('error' in parsed) throw badRequest(parsed.error, 'dialogflow/invalid-key');
  try {
    return credentialsOf(parsed.key);
  } catch (error) {
    if (error instanceof DialogflowError) throw badRequest(error.reason, 'dialogflow/invalid-key');
    throw error;
  }
}

export const isDialogflowRow = (
  row: IntegrationRow,
): row is IntegrationRow & { settings: StoredDialogflowCxSettings } => row.engine === 'dialogflowcx';

/**
 * The settings to store: the key file sealed, its account and key id beside it. A masked key keeps `stored`'s only
 * while the endpoint stays where the key was entered for (its access tokens are sent there).
 */
export function sealDialogflow(
  box: SecretBox,
  settings: DialogflowInput,
  stored: StoredDialogflowCxSettings | null,
): StoredDialogflowCxSettings {
  let sealed: Pick<StoredDialogflowCxSettings, 'service_account_key' | 'client_email' | 'private_key_id'>;
  if (isMaskedApiKey(settings.service_account_key)) {
    if (stored === null) {
      throw badRequest('Upload the service account key; a masked key keeps a stored one only.');
    }
    assertSecretStaysWithEndpoint(
      dialogflowKeyEndpointOf(stored.endpoint),
      dialogflowKeyEndpointOf(settings.endpoint),
      KEY_NAMES,
    );
    sealed = {
      service_account_key: stored.service_account_key,
      client_email: stored.client_email,
      private_key_id: stored.private_key_id,
    };
  } else {
    const { key } = credentialsOfText(settings.service_account_key);
    sealed = {
      service_account_key: box.encrypt(settings.service_account_key),
      client_email: key.client_email,
      private_key_id: key.private_key_id,
    };
  }
  return {
    ...sealed,
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

/** The settings for the console: the key only masked (with the last four characters of its key id). */
export function presentDialogflow(stored: StoredDialogflowCxSettings) {
  const { private_key_id: keyId, ...rest } = stored;
  return {
    ...rest,
    service_account_key: maskServiceAccountKey({ private_key_id: keyId }),
    agents: stored.agents.map((agent) => ({ ...agent })),
    languages: [...stored.languages],
  };
}

/** The stored settings with the key opened; throws SecretBoxError when it cannot be. */
/** Opened keys by box and sealed text: a turn does not decrypt and parse the key again (a new key is a new text). */
const openedKeys = new WeakMap<
  SecretBox,
  Map<string, { text: string; credentials: DialogflowCredentials }>
>();
const OPENED_KEYS_MAX = 200;

function openKey(box: SecretBox, sealed: string) {
  let byText = openedKeys.get(box);
  if (!byText) {
    byText = new Map();
    openedKeys.set(box, byText);
  }
  const known = byText.get(sealed);
  if (known) return known;
  const text = box.decrypt(sealed);
  const parsed = parseServiceAccountKey(text);
  if ('error' in parsed) throw new DialogflowError('dialogflow/invalid-key', parsed.error);
  const opened = { text, credentials: credentialsOf(parsed.key) };
  if (byText.size >= OPENED_KEYS_MAX) byText.delete(byText.keys().next().value ?? '');
  byText.set(sealed, opened);
  return opened;
}

/** The stored settings (checked when they were written) with the key opened; throws SecretBoxError when it cannot be. */
export function openDialogflow(box: SecretBox, stored: StoredDialogflowCxSettings): OpenedDialogflow {
  const { text, credentials } = openKey(box, stored.service_account_key);
  const { client_email: _email, private_key_id: _keyId, ...kept } = stored;
  return {
    settings: {
      ...kept,
      service_account_key: text,
      agents: kept.agents.map((agent) => ({ ...agent })),
      languages: [...kept.languages],
    },
    credentials,
  };
}

/** Unsaved settings to try: a masked key stands for the stored one of `stored` (a Dialogflow CX integration). */
export function unsavedDialogflow(
  box: SecretBox,
  settings: DialogflowInput,
  stored: IntegrationRow | null,
): OpenedDialogflow {
  if (!isMaskedApiKey(settings.service_account_key)) {
    return { settings, credentials: credentialsOfText(settings.service_account_key) };
  }
  if (stored === null || !isDialogflowRow(stored)) {
    throw badRequest(
      'Upload the service account key; a masked key stands only for the key of a saved Dialogflow CX integration.',
    );
  }
  assertSecretStaysWithEndpoint(
    dialogflowKeyEndpointOf(stored.settings.endpoint),
    dialogflowKeyEndpointOf(settings.endpoint),
    KEY_NAMES,
  );
  const opened = openDialogflow(box, stored.settings);
  return {
    settings: { ...settings, service_account_key: opened.settings.service_account_key },
    credentials: opened.credentials,
  };
}

export const dialogflowKeyUnreadable: IntegrationTestResult = {
  ok: false,
  code: 'integration/secret-unreadable',
  message:
    'The stored service account key cannot be decrypted (the installation secret changed); upload it again.',
};

/** Runs `open`, answering a key that cannot be opened as a failed test. */
export function withOpenedKey(open: () => OpenedDialogflow): OpenedDialogflow | IntegrationTestResult {
  try {
    return open();
  } catch (error) {
    if (error instanceof SecretBoxError) return dialogflowKeyUnreadable;
    if (error instanceof DialogflowError) return { ok: false, code: error.code, message: error.reason };
    throw error;
  }
}

/**
 * A harmless real call: the token exchange, then agents.get of the default agent (and of the fallback agent when
 * there is one). Failures in plain words.
 */
export async function tryDialogflow(
  fetch: GuardedWebFetch,
  principal: Principal,
  target: OpenedDialogflow,
  timeoutMs: number,
): Promise<IntegrationTestResult> {
  const started = performance.now();
  const { settings, credentials } = target;
  const names = [settings.default_agent, settings.fallback_agent].filter(
    (name, index, all) => name !== '' && all.indexOf(name) === index,
  );
  const described: string[] = [];
  try {
    for (const name of names) {
      const agent = settings.agents.find((candidate) => candidate.agentName === name);
      if (!agent) continue;
      const found = await getAgent(credentials, { fetch, timeoutMs }, agent, settings.endpoint);
      described.push(
        `${name} (${found.displayName}${found.defaultLanguageCode ? `, ${found.defaultLanguageCode}` : ''})`,
      );
    }
  } catch (error) {
    if (error instanceof DialogflowError) {
      return {
        ok: false,
        code: error.code,
        message: refusalReasonFor(error.fetchCode ?? '', error.reason, principal),
      };
    }
    throw error;
  }
  const latency = Math.round(performance.now() - started);
  return {
    ok: true,
    latency_ms: latency,
    detail: `${credentials.key.client_email} reached ${described.join(' and ')} in ${latency} ms.`,
  };
}
