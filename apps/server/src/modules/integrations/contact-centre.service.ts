import {
  type ConnectSettings,
  ConnectSettingsSchema,
  type ContactCentreProvider,
  connectEndpointsOf,
  type GenesysSettings,
  GenesysSettingsSchema,
  type IntegrationTestResult,
  isMaskedApiKey,
  maskSecret,
} from '@omnibot/contracts';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import {
  type IntegrationRow,
  integrations,
  type StoredConnectSettings,
  type StoredGenesysSettings,
} from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { FetchError, refusalReasonFor } from '../../lib/guarded-http/guarded-fetch';
import type { Principal } from '../../lib/principal';
import { type SecretBox, SecretBoxError } from '../../lib/secret-box';
import { assertSecretStaysWithEndpoint } from '../../lib/secret-endpoint';
import {
  type LiveAgentProvider,
  ProviderFailure,
  type ProviderFactories,
  type ProviderNetwork,
} from './providers/provider';

/** What the contact-centre integrations need, built once in app.ts. */
export interface ContactCentreDeps {
  /** Seals and opens contact-centre secrets under a purpose of their own ("ccaas-secret"). */
  secretBox: SecretBox;
  /** How a provider is made from an integration's settings. */
  providers: ProviderFactories;
  /** The guarded outbound means a provider uses (the operator's address policy). */
  network: ProviderNetwork;
}

type ConnectInput = z.output<typeof ConnectSettingsSchema>;
type GenesysInput = z.output<typeof GenesysSettingsSchema>;

/** A contact-centre integration's settings with its secret opened, for the server's own use only. */
export type ContactCentreSettings =
  { engine: 'genesys'; settings: GenesysSettings } | { engine: 'connect'; settings: ConnectSettings };

export const PROVIDER_LABELS: Record<ContactCentreProvider, string> = {
  genesys: 'Genesys Cloud',
  connect: 'Amazon Connect',
};

const SECRET_NAME = 'The secret access key';
const SECRET_WHERE = 'the region or an endpoint';

export const isContactCentreRow = (
  row: IntegrationRow,
): row is IntegrationRow & { engine: ContactCentreProvider } =>
  row.engine === 'genesys' || row.engine === 'connect';

export function storedGenesys(settings: GenesysInput): StoredGenesysSettings {
  return {
    server_url: settings.server_url,
    deployment_id: settings.deployment_id,
    origin: settings.origin,
  };
}

/**
 * The Connect settings to store: the secret sealed; a masked secret keeps `stored`'s, only while the region and
 * both endpoints stay where the secret was entered for (SigV4 signs with it for those addresses only).
 */
export function sealConnect(
  box: SecretBox,
  settings: ConnectInput,
  stored: StoredConnectSettings | null,
): StoredConnectSettings {
  let secret: string;
  if (isMaskedApiKey(settings.secret_access_key)) {
    if (stored === null) {
      throw badRequest('Enter the secret access key; a masked key keeps a stored one only.');
    }
    if (stored.secret_access_key !== '') assertConnectEndpointsKept(stored, settings);
    secret = stored.secret_access_key;
  } else {
    secret = settings.secret_access_key === '' ? '' : box.encrypt(settings.secret_access_key);
  }
  return {
    region: settings.region,
    instance_id: settings.instance_id,
    contact_flow_id: settings.contact_flow_id,
    access_key_id: settings.access_key_id,
    secret_access_key: secret,
    content_types: [...settings.content_types],
    display_name: settings.display_name,
    connect_endpoint: settings.connect_endpoint,
    participant_endpoint: settings.participant_endpoint,
  };
}

/** Refuses a kept secret whose Connect or participant address (by region or override) moved. */
function assertConnectEndpointsKept(
  stored: Pick<StoredConnectSettings, 'region' | 'connect_endpoint' | 'participant_endpoint'>,
  next: Pick<ConnectInput, 'region' | 'connect_endpoint' | 'participant_endpoint'>,
) {
  const before = connectEndpointsOf(stored);
  const after = connectEndpointsOf(next);
  const names = { what: SECRET_NAME, where: SECRET_WHERE };
  assertSecretStaysWithEndpoint(before.connect, after.connect, names);
  assertSecretStaysWithEndpoint(before.participant, after.participant, names);
}

/** Connect settings for the console: the secret only masked; one that cannot be opened any more shows as set. */
export function presentConnect(box: SecretBox, stored: StoredConnectSettings) {
  let masked = '';
  if (stored.secret_access_key !== '') {
    try {
      masked = maskSecret(box.decrypt(stored.secret_access_key));
    } catch {
      masked = maskSecret('x');
    }
  }
  return { ...stored, content_types: [...stored.content_types], secret_access_key: masked };
}

/** The stored Connect settings with the secret opened; throws SecretBoxError when it cannot be. */
export function openConnect(box: SecretBox, stored: StoredConnectSettings): ConnectSettings {
  return ConnectSettingsSchema.parse({
    ...stored,
    secret_access_key: stored.secret_access_key === '' ? '' : box.decrypt(stored.secret_access_key),
  });
}

/** A saved contact-centre integration's settings, secrets opened; throws SecretBoxError when one cannot be. */
export function openContactCentreRow(
  box: SecretBox,
  row: IntegrationRow & { engine: ContactCentreProvider },
): ContactCentreSettings {
  return row.engine === 'genesys'
    ? { engine: 'genesys', settings: GenesysSettingsSchema.parse(row.settings) }
    : { engine: 'connect', settings: openConnect(box, row.settings as StoredConnectSettings) };
}

/**
 * The settings (secret opened) and engine of contact-centre integration `integrationId` of tenant `tenantId`, for
 * the live-agent relay; null when the tenant has no such contact-centre integration. Throws SecretBoxError when
 * the stored secret cannot be opened (the installation secret changed).
 */
export async function contactCentreSettingsOf(
  db: Db,
  box: SecretBox,
  tenantId: string,
  integrationId: string,
): Promise<ContactCentreSettings | null> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.tenantId, tenantId),
        eq(integrations.id, integrationId),
        eq(integrations.kind, 'ccaas'),
      ),
    )
    .limit(1);
  if (!row || !isContactCentreRow(row)) return null;
  return openContactCentreRow(box, row);
}

/** The provider made from an integration's settings. */
function providerFor(deps: ContactCentreDeps, target: ContactCentreSettings): LiveAgentProvider {
  return target.engine === 'genesys'
    ? deps.providers.genesys(target.settings, deps.network)
    : deps.providers.connect(target.settings, deps.network);
}

/**
 * How the live-agent relay opens a tenant's contact-centre integration as a provider: the stored settings with the
 * secret opened, made with the provider makers over the guarded network. An integration that is gone or whose secret
 * was sealed under another installation secret is unavailable (not retried).
 */
export function contactCentreProviders(
  db: Db,
  deps: ContactCentreDeps,
): (tenantId: string, integrationId: string) => Promise<LiveAgentProvider> {
  return async (tenantId, integrationId) => {
    let target: ContactCentreSettings | null;
    try {
      target = await contactCentreSettingsOf(db, deps.secretBox, tenantId, integrationId);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      throw new ProviderFailure(
        'handover/provider-unavailable',
        'The contact-centre secret cannot be read; enter it again.',
        false,
      );
    }
    if (target === null) {
      throw new ProviderFailure(
        'handover/provider-unavailable',
        'The contact-centre integration no longer exists.',
        false,
      );
    }
    return providerFor(deps, target);
  };
}

/**
 * Unsaved settings to try: a masked Connect secret stands for the stored one of `stored` (a Connect integration
 * of the caller), bound to its endpoints.
 */
export function unsavedContactCentreSettings(
  box: SecretBox,
  input: { engine: 'genesys'; settings: GenesysInput } | { engine: 'connect'; settings: ConnectInput },
  stored: IntegrationRow | null,
): ContactCentreSettings {
  if (input.engine === 'genesys') return { engine: 'genesys', settings: input.settings };
  if (!isMaskedApiKey(input.settings.secret_access_key))
    return { engine: 'connect', settings: input.settings };
  if (stored === null || stored.engine !== 'connect') {
    throw badRequest(
      'Enter the secret access key; a masked key stands only for the key of a saved Connect integration.',
    );
  }
  const kept = stored.settings as StoredConnectSettings;
  if (kept.secret_access_key !== '') assertConnectEndpointsKept(kept, input.settings);
  const secret = kept.secret_access_key === '' ? '' : box.decrypt(kept.secret_access_key);
  return { engine: 'connect', settings: { ...input.settings, secret_access_key: secret } };
}

export const secretUnreadable: IntegrationTestResult = {
  ok: false,
  code: 'integration/secret-unreadable',
  message:
    'The stored secret access key cannot be decrypted (the installation secret changed); enter it again.',
};

/** Runs `open`, answering a secret that cannot be opened as a failed test. */
export function withOpenedSecret(
  open: () => ContactCentreSettings,
): ContactCentreSettings | IntegrationTestResult {
  try {
    return open();
  } catch (error) {
    if (error instanceof SecretBoxError) return secretUnreadable;
    throw error;
  }
}

/**
 * Checks contact-centre settings without starting a conversation (the provider's probe): how long it took, or the
 * refusal in plain words. A probe that does not answer in time and a refused address are answered as failed tests,
 * never as errors.
 */
export async function probeContactCentre(
  deps: ContactCentreDeps,
  principal: Principal,
  target: ContactCentreSettings,
  timeoutMs: number,
): Promise<IntegrationTestResult> {
  const label = PROVIDER_LABELS[target.engine];
  const provider = providerFor(deps, target);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  try {
    const probe = provider.probe();
    // A probe that fails after the time is up has nobody left to tell.
    probe.catch(() => undefined);
    const result = await Promise.race([probe, late]);
    if (result === 'late') {
      return {
        ok: false,
        code: 'handover/provider-unavailable',
        message: `${label} did not answer within ${Math.round(timeoutMs / 1000)} s.`,
      };
    }
    if (result.ok) return { ok: true, latency_ms: Math.round(result.latencyMs), detail: result.detail };
    return { ok: false, code: result.failure.code, message: result.failure.detail };
  } catch (error) {
    if (error instanceof ProviderFailure) return { ok: false, code: error.code, message: error.detail };
    if (error instanceof FetchError) {
      return {
        ok: false,
        code: 'handover/provider-unavailable',
        message: refusalReasonFor(error.code, error.reason, principal),
      };
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
