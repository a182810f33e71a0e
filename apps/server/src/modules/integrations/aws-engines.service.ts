import {
  type BedrockSettings,
  type BedrockSettingsSchema,
  bedrockEndpointOf,
  type IntegrationTestResult,
  isMaskedApiKey,
  type LexSettings,
  type LexSettingsSchema,
  lexEndpointOf,
  maskSecret,
} from '@omnibot/contracts';
import type { z } from 'zod';
import type { IntegrationRow, StoredBedrockSettings, StoredLexSettings } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { type GuardedWebFetch, refusalReasonFor } from '../../lib/guarded-http/guarded-fetch';
import type { Principal } from '../../lib/principal';
import { type SecretBox, SecretBoxError } from '../../lib/secret-box';
import { assertSecretStaysWithEndpoint } from '../../lib/secret-endpoint';
import { ProviderError } from '../models/providers';
import { createBedrockRuntime } from './providers/bedrock-runtime';
import { createLexRuntime } from './providers/lex-runtime';

/**
 * The AWS chatbot engines' settings: Lex V2 and Bedrock. Their secrets (the secret access key, Bedrock's API key)
 * are sealed by the model-key box (purpose "model-api-key": an engine's credential, opened on the answer path with
 * the box it already holds), shown only masked, and bound to the runtime address they were entered for (the
 * region's, or the override): a masked secret sent with another address is refused.
 */

type LexInput = z.output<typeof LexSettingsSchema>;
type BedrockInput = z.output<typeof BedrockSettingsSchema>;

const ENDPOINT_WORDS = { where: 'the region or the endpoint' };

const seal = (box: SecretBox, value: string) => (value === '' ? '' : box.encrypt(value));
const open = (box: SecretBox, value: string) => (value === '' ? '' : box.decrypt(value));

function present(box: SecretBox, sealed: string): string {
  if (sealed === '') return '';
  try {
    return maskSecret(box.decrypt(sealed));
  } catch {
    // A secret the installation can no longer open still shows as set.
    return maskSecret('x');
  }
}

/** A secret to store: a new one sealed, or (masked) the stored one, only while its endpoint stays the same. */
function keptOrSealed(
  box: SecretBox,
  value: string,
  stored: { sealed: string; endpoint: string } | null,
  endpoint: string,
  what: string,
): string {
  if (!isMaskedApiKey(value)) return seal(box, value);
  if (stored === null) throw badRequest(`Enter ${what}; a masked value keeps a stored one only.`);
  if (stored.sealed !== '') {
    assertSecretStaysWithEndpoint(stored.endpoint, endpoint, { what: capital(what), ...ENDPOINT_WORDS });
  }
  return stored.sealed;
}

const capital = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

export function sealLex(
  box: SecretBox,
  settings: LexInput,
  stored: StoredLexSettings | null,
): StoredLexSettings {
  return {
    ...settings,
    secret_access_key: keptOrSealed(
      box,
      settings.secret_access_key,
      stored && { sealed: stored.secret_access_key, endpoint: lexEndpointOf(stored) },
      lexEndpointOf(settings),
      'the secret access key',
    ),
  };
}

export function sealBedrock(
  box: SecretBox,
  settings: BedrockInput,
  stored: StoredBedrockSettings | null,
): StoredBedrockSettings {
  const before = stored && bedrockEndpointOf(stored);
  const after = bedrockEndpointOf(settings);
  return {
    ...settings,
    secret_access_key: keptOrSealed(
      box,
      settings.secret_access_key,
      stored && before !== null ? { sealed: stored.secret_access_key, endpoint: before } : null,
      after,
      'the secret access key',
    ),
    api_key: keptOrSealed(
      box,
      settings.api_key,
      stored && before !== null ? { sealed: stored.api_key, endpoint: before } : null,
      after,
      'the Bedrock API key',
    ),
  };
}

export const presentLex = (box: SecretBox, stored: StoredLexSettings) => ({
  ...stored,
  secret_access_key: present(box, stored.secret_access_key),
});

export const presentBedrock = (box: SecretBox, stored: StoredBedrockSettings) => ({
  ...stored,
  secret_access_key: present(box, stored.secret_access_key),
  api_key: present(box, stored.api_key),
});

/** The stored Lex settings with the secret opened; throws SecretBoxError when it cannot be. */
export const openLex = (box: SecretBox, stored: StoredLexSettings): LexSettings => ({
  ...stored,
  secret_access_key: open(box, stored.secret_access_key),
});

/** The stored Bedrock settings with the secrets opened; throws SecretBoxError when one cannot be. */
export const openBedrock = (box: SecretBox, stored: StoredBedrockSettings): BedrockSettings => ({
  ...stored,
  secret_access_key: open(box, stored.secret_access_key),
  api_key: open(box, stored.api_key),
});

export const isAwsEngineRow = (row: IntegrationRow): row is IntegrationRow & { engine: 'lex' | 'bedrock' } =>
  row.engine === 'lex' || row.engine === 'bedrock';

export type AwsEngineTarget =
  { engine: 'lex'; settings: LexSettings } | { engine: 'bedrock'; settings: BedrockSettings };

/** A saved AWS engine integration's settings, secrets opened; throws SecretBoxError when one cannot be. */
export function openAwsEngineRow(
  box: SecretBox,
  row: IntegrationRow & { engine: 'lex' | 'bedrock' },
): AwsEngineTarget {
  return row.engine === 'lex'
    ? { engine: 'lex', settings: openLex(box, row.settings as StoredLexSettings) }
    : { engine: 'bedrock', settings: openBedrock(box, row.settings as StoredBedrockSettings) };
}

/**
 * Unsaved settings to try: a masked secret stands for the stored one of `stored` (an integration of the caller of
 * the same engine), only while the address stays the one it was entered for.
 */
export function unsavedAwsEngine(
  box: SecretBox,
  input: { engine: 'lex'; settings: LexInput } | { engine: 'bedrock'; settings: BedrockInput },
  stored: IntegrationRow | null,
): AwsEngineTarget {
  const needsStored =
    isMaskedApiKey(input.settings.secret_access_key) ||
    (input.engine === 'bedrock' && isMaskedApiKey(input.settings.api_key));
  if (needsStored && (stored === null || stored.engine !== input.engine)) {
    throw badRequest(
      'Enter the secret; a masked value stands only for the secret of a saved integration of this engine.',
    );
  }
  if (input.engine === 'lex') {
    const sealed = sealLex(box, input.settings, stored ? (stored.settings as StoredLexSettings) : null);
    return { engine: 'lex', settings: openLex(box, sealed) };
  }
  const sealed = sealBedrock(box, input.settings, stored ? (stored.settings as StoredBedrockSettings) : null);
  return { engine: 'bedrock', settings: openBedrock(box, sealed) };
}

export const awsSecretUnreadable: IntegrationTestResult = {
  ok: false,
  code: 'model/key-unreadable',
  message: 'The stored secret cannot be decrypted (the installation secret changed); enter it again.',
};

/** Runs `make`, answering a secret that cannot be opened as a failed test. */
export function withOpenedAwsSecret(make: () => AwsEngineTarget): AwsEngineTarget | IntegrationTestResult {
  try {
    return make();
  } catch (error) {
    if (error instanceof SecretBoxError) return awsSecretUnreadable;
    throw error;
  }
}

/**
 * A harmless real call with the settings: Lex answers one "Hello" in a throwaway session (deleted after), Bedrock a
 * one-token Converse. The refusal in plain words when it fails.
 */
export async function probeAwsEngine(
  fetch: GuardedWebFetch,
  principal: Principal,
  target: AwsEngineTarget,
  timeoutMs: number,
): Promise<IntegrationTestResult> {
  try {
    const result =
      target.engine === 'lex'
        ? await createLexRuntime(target.settings, fetch, { requestTimeoutMs: timeoutMs }).probe()
        : await createBedrockRuntime(target.settings, fetch, { requestTimeoutMs: timeoutMs }).probe();
    return { ok: true, latency_ms: result.latencyMs, detail: result.detail };
  } catch (error) {
    if (error instanceof ProviderError) {
      return {
        ok: false,
        code: error.code,
        message: refusalReasonFor(error.fetchCode ?? '', error.message, principal),
      };
    }
    throw error;
  }
}
