import {
  BedrockSettingsSchema,
  BuiltinIntegrationSettingsSchema,
  ConnectSettingsSchema,
  type CreateIntegrationBodySchema,
  DialogflowCxSettingsSchema,
  GenesysSettingsSchema,
  type IntegrationKind,
  type IntegrationListQuery,
  type IntegrationTestResult,
  isMaskedApiKey,
  LexSettingsSchema,
  OpenAiIntegrationSettingsSchema,
  type TestIntegrationBodySchema,
  type UpdateIntegrationBodySchema,
} from '@omnibot/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import {
  bots,
  indexes,
  type IntegrationRow,
  integrations,
  rags,
  type StoredBedrockSettings,
  type StoredBuiltinSettings,
  type StoredConnectSettings,
  type StoredLexSettings,
  type StoredIntegrationSettings,
  type StoredOpenAiSettings,
} from '../../db/schema';
import { type Actor, writeAudit } from '../../lib/audit';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { type SecretBox, SecretBoxError } from '../../lib/secret-box';
import { assertSecretStaysWithEndpoint } from '../../lib/secret-endpoint';
import { type GuardedWebFetch, refusalReasonFor } from '../../lib/guarded-http/guarded-fetch';
import { refuseUniqueViolation } from '../../lib/unique-violation';
import { tenantHoldsFeature } from '../tenancy/tenant-features';
import { actorId, type Principal } from '../../lib/principal';
import { type ChatModel, createChatModel, ProviderError } from '../models/providers';
import {
  type ContactCentreDeps,
  isContactCentreRow,
  openContactCentreRow,
  probeContactCentre,
  sealConnect,
  storedGenesys,
  unsavedContactCentreSettings,
  withOpenedSecret,
} from './contact-centre.service';
import {
  isAwsEngineRow,
  openAwsEngineRow,
  probeAwsEngine,
  sealBedrock,
  sealLex,
  unsavedAwsEngine,
  withOpenedAwsSecret,
} from './aws-engines.service';
import {
  isDialogflowRow,
  openDialogflow,
  sealDialogflow,
  tryDialogflow,
  unsavedDialogflow,
  withOpenedKey,
} from './dialogflow.service';

const INTEGRATION_NOT_FOUND = 'Integration not found';
const INTEGRATION_TEST_TIMEOUT_MS = 15_000;

export interface IntegrationsDeps {
  db: Db;
  /**
   * Seals and opens API keys. An integration's key is the same kind of secret as a model connection's, under the
   * same purpose ("model-api-key"), so the answer path opens both with the box it already holds.
   */
  secretBox: SecretBox;
  /** The guarded client a test call goes through: an integration's address is one a tenant supplies. */
  modelFetch: GuardedWebFetch;
  /** The contact-centre integrations' secret box, provider makers and guarded network. */
  contactCentre: ContactCentreDeps;
}

type CreateInput = z.output<typeof CreateIntegrationBodySchema>;
type UpdateInput = z.output<typeof UpdateIntegrationBodySchema>;
type TestInput = z.output<typeof TestIntegrationBodySchema>;
type OpenAiInput = z.output<typeof OpenAiIntegrationSettingsSchema>;
type BuiltinInput = z.output<typeof BuiltinIntegrationSettingsSchema>;

/** A bot that answers with an integration (chatbot) or hands over to it (ccaas). */
export interface UsingBot {
  id: string;
  name: string;
  enabled: boolean;
}

export interface StoredIntegration {
  row: IntegrationRow;
  bots: UsingBot[];
}

const nameTaken = () =>
  conflict('Another integration of your organisation already has this name.', 'integration/name-taken');
const unknownRag = () =>
  badRequest('The RAG does not exist in your organisation.', 'integration/unknown-rag');
const engineMismatch = () =>
  badRequest(
    'These settings are for another engine; an integration keeps its engine.',
    'integration/engine-mismatch',
  );

const isOpenAi = (row: IntegrationRow): row is IntegrationRow & { settings: StoredOpenAiSettings } =>
  row.engine === 'openai';

/** Where a bot names an integration of each kind: the engine it answers with, or the contact centre it hands over to. */
const BOT_REFERENCE: Record<IntegrationKind, 'integration_id' | 'liveagent_integration_id'> = {
  chatbot: 'integration_id',
  ccaas: 'liveagent_integration_id',
};
const botReference = (kind: IntegrationKind) => sql`${bots.config} -> 'engines' ->> ${BOT_REFERENCE[kind]}`;

/** The bots of the tenant that use integration `id` of kind `kind`. */
async function botsUsing(db: Db, tenantId: string, id: string, kind: IntegrationKind): Promise<UsingBot[]> {
  return db
    .select({ id: bots.id, name: bots.name, enabled: bots.enabled })
    .from(bots)
    .where(and(eq(bots.tenantId, tenantId), sql`${botReference(kind)} = ${id}`))
    .orderBy(asc(bots.name), asc(bots.id));
}

/**
 * The kind and engine of integration `id` of tenant `tenantId`, or null when the tenant has none such: the bots
 * module checks with it what a bot's configuration names.
 */
export async function integrationKindOf(
  db: Db,
  tenantId: string,
  id: string,
): Promise<Pick<IntegrationRow, 'kind' | 'engine'> | null> {
  const [row] = await db
    .select({ kind: integrations.kind, engine: integrations.engine })
    .from(integrations)
    .where(and(eq(integrations.tenantId, tenantId), eq(integrations.id, id)))
    .limit(1);
  return row ?? null;
}

/** The tenant's chatbot-engine integration `id` (settings still sealed), or null when the tenant has none such. */
export async function chatbotIntegrationOf(
  db: Db,
  tenantId: string,
  id: string,
): Promise<IntegrationRow | null> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(
      and(eq(integrations.tenantId, tenantId), eq(integrations.id, id), eq(integrations.kind, 'chatbot')),
    )
    .limit(1);
  return row ?? null;
}

async function ownedRow(db: Db, tenantId: string, id: string): Promise<IntegrationRow> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.tenantId, tenantId), eq(integrations.id, id)))
    .limit(1);
  if (!row) throw notFound(INTEGRATION_NOT_FOUND);
  return row;
}

/** The caller's RAG (and the omnirag subscription the builtin engine needs), or null when it has none such. */
async function ownRag(db: Db, tenantId: string, ragId: string) {
  const [rag] = await db
    .select()
    .from(rags)
    .where(and(eq(rags.tenantId, tenantId), eq(rags.id, ragId)))
    .limit(1);
  return rag ?? null;
}

async function assertBuiltin(db: Db, principal: Principal, settings: BuiltinInput) {
  if (!(await tenantHoldsFeature(db, principal.tenantId, 'omnirag'))) {
    throw forbidden('Your organisation has no Omni RAG subscription for builtin answers.');
  }
  if (!(await ownRag(db, principal.tenantId, settings.rag_id))) throw unknownRag();
}

/** The OpenAI settings to store: the key sealed, a masked key keeping `stored`'s. */
function sealOpenAi(
  box: SecretBox,
  settings: OpenAiInput,
  stored: StoredOpenAiSettings | null,
): StoredOpenAiSettings {
  let apiKey: string;
  if (isMaskedApiKey(settings.api_key)) {
    if (stored === null) throw badRequest('Enter the API key; a masked key keeps a stored one only.');
    if (stored.api_key !== '') assertSecretStaysWithEndpoint(stored.base_url, settings.base_url);
    apiKey = stored.api_key;
  } else {
    apiKey = settings.api_key === '' ? '' : box.encrypt(settings.api_key);
  }
  return {
    base_url: settings.base_url,
    model: settings.model,
    api_key: apiKey,
    max_tokens: settings.max_tokens,
    temperature: settings.temperature,
  };
}

export async function listIntegrations(
  deps: IntegrationsDeps,
  principal: Principal,
  query: IntegrationListQuery,
): Promise<StoredIntegration[]> {
  const rows = await deps.db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.tenantId, principal.tenantId),
        query.kind === undefined ? undefined : eq(integrations.kind, query.kind),
        query.engine === undefined ? undefined : eq(integrations.engine, query.engine),
      ),
    )
    .orderBy(asc(integrations.name), asc(integrations.id));
  if (rows.length === 0) return [];
  const users = await deps.db
    .select({
      id: bots.id,
      name: bots.name,
      enabled: bots.enabled,
      integrationId: sql<string | null>`${botReference('chatbot')}`,
      liveAgentIntegrationId: sql<string | null>`${botReference('ccaas')}`,
    })
    .from(bots)
    .where(
      and(
        eq(bots.tenantId, principal.tenantId),
        sql`(${botReference('chatbot')} is not null or ${botReference('ccaas')} is not null)`,
      ),
    )
    .orderBy(asc(bots.name), asc(bots.id));
  return rows.map((row) => ({
    row,
    bots: users
      .filter((bot) =>
        row.kind === 'ccaas' ? bot.liveAgentIntegrationId === row.id : bot.integrationId === row.id,
      )
      .map(({ id, name, enabled }) => ({ id, name, enabled })),
  }));
}

export async function getIntegration(
  deps: IntegrationsDeps,
  principal: Principal,
  id: string,
): Promise<StoredIntegration> {
  const row = await ownedRow(deps.db, principal.tenantId, id);
  return { row, bots: await botsUsing(deps.db, principal.tenantId, id, row.kind) };
}

export async function createIntegration(
  deps: IntegrationsDeps,
  actor: Actor,
  input: CreateInput,
): Promise<StoredIntegration> {
  const { principal } = actor;
  let settings: StoredIntegrationSettings;
  if (input.engine === 'builtin') {
    await assertBuiltin(deps.db, principal, input.settings);
    settings = { rag_id: input.settings.rag_id };
  } else if (input.engine === 'openai') {
    settings = sealOpenAi(deps.secretBox, input.settings, null);
  } else if (input.engine === 'lex') {
    settings = sealLex(deps.secretBox, input.settings, null);
  } else if (input.engine === 'bedrock') {
    settings = sealBedrock(deps.secretBox, input.settings, null);
  } else if (input.engine === 'dialogflowcx') {
    settings = sealDialogflow(deps.secretBox, input.settings, null);
  } else if (input.engine === 'genesys') {
    settings = storedGenesys(input.settings);
  } else {
    settings = sealConnect(deps.contactCentre.secretBox, input.settings, null);
  }
  const by = actorId(principal);
  const row = await refuseUniqueViolation(
    () =>
      deps.db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(integrations)
          .values({
            tenantId: principal.tenantId,
            kind: input.kind,
            engine: input.engine,
            name: input.name,
            settings,
            createdBy: by,
            updatedBy: by,
          })
          .returning();
        if (!inserted) throw new AppError(500, 'internal', 'The integration was not stored.');
        await writeAudit(tx, actor, {
          tenantId: principal.tenantId,
          action: 'integration.create',
          target: inserted.id,
          details: { name: input.name, engine: input.engine },
        });
        return inserted;
      }),
    nameTaken,
  );
  return { row, bots: [] };
}

export async function updateIntegration(
  deps: IntegrationsDeps,
  actor: Actor,
  id: string,
  input: UpdateInput,
): Promise<StoredIntegration> {
  const { principal } = actor;
  const current = await ownedRow(deps.db, principal.tenantId, id);
  const changes: Partial<typeof integrations.$inferInsert> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.settings !== undefined) {
    if (current.engine === 'genesys') {
      const parsed = GenesysSettingsSchema.safeParse(input.settings);
      if (!parsed.success) throw engineMismatch();
      changes.settings = storedGenesys(parsed.data);
    } else if (current.engine === 'connect') {
      const parsed = ConnectSettingsSchema.safeParse(input.settings);
      if (!parsed.success) throw engineMismatch();
      changes.settings = sealConnect(
        deps.contactCentre.secretBox,
        parsed.data,
        current.settings as StoredConnectSettings,
      );
    } else if (current.engine === 'lex') {
      const parsed = LexSettingsSchema.safeParse(input.settings);
      if (!parsed.success) throw engineMismatch();
      changes.settings = sealLex(deps.secretBox, parsed.data, current.settings as StoredLexSettings);
    } else if (current.engine === 'bedrock') {
      const parsed = BedrockSettingsSchema.safeParse(input.settings);
      if (!parsed.success) throw engineMismatch();
      changes.settings = sealBedrock(deps.secretBox, parsed.data, current.settings as StoredBedrockSettings);
    } else if (isDialogflowRow(current)) {
      const parsed = DialogflowCxSettingsSchema.safeParse(input.settings);
      if (!parsed.success) throw engineMismatch();
      changes.settings = sealDialogflow(deps.secretBox, parsed.data, current.settings);
    } else if (isOpenAi(current)) {
      const parsed = OpenAiIntegrationSettingsSchema.safeParse(input.settings);
      if (!parsed.success) throw engineMismatch();
      changes.settings = sealOpenAi(deps.secretBox, parsed.data, current.settings);
    } else {
      const parsed = BuiltinIntegrationSettingsSchema.safeParse(input.settings);
      if (!parsed.success) throw engineMismatch();
      if (parsed.data.rag_id !== (current.settings as StoredBuiltinSettings).rag_id) {
        await assertBuiltin(deps.db, principal, parsed.data);
      }
      changes.settings = { rag_id: parsed.data.rag_id };
    }
  }
  const row = await refuseUniqueViolation(
    () =>
      deps.db.transaction(async (tx) => {
        const [updated] = await tx
          .update(integrations)
          .set({ ...changes, updatedBy: actorId(principal), updatedAt: new Date() })
          .where(and(eq(integrations.tenantId, principal.tenantId), eq(integrations.id, id)))
          .returning();
        if (!updated) throw notFound(INTEGRATION_NOT_FOUND);
        await writeAudit(tx, actor, {
          tenantId: principal.tenantId,
          action: 'integration.update',
          target: id,
          details: { fields: Object.keys(input) },
        });
        return updated;
      }),
    nameTaken,
  );
  return { row, bots: await botsUsing(deps.db, principal.tenantId, id, row.kind) };
}

export async function deleteIntegration(deps: IntegrationsDeps, actor: Actor, id: string): Promise<void> {
  const { principal } = actor;
  await deps.db.transaction(async (tx) => {
    const db: Db = tx;
    const current = await ownedRow(db, principal.tenantId, id);
    const users = await botsUsing(db, principal.tenantId, id, current.kind);
    if (users.length > 0) {
      const elsewhere = current.kind === 'ccaas' ? 'another contact centre' : 'another engine';
      throw conflict(
        `Bots use this integration (${users.map((bot) => bot.name).join(', ')}); point them at ${elsewhere} first.`,
        'integration/in-use',
      );
    }
    await db
      .delete(integrations)
      .where(and(eq(integrations.tenantId, principal.tenantId), eq(integrations.id, id)));
    await writeAudit(db, actor, {
      tenantId: principal.tenantId,
      action: 'integration.delete',
      target: id,
      details: { name: current.name },
    });
  });
}

/** The chat model of OpenAI settings whose key is already in clear. */
export function integrationChatModel(
  settings: { base_url: string; model: string; api_key: string; max_tokens: number; temperature: number },
  timeoutMs: number,
  fetch: GuardedWebFetch,
): ChatModel {
  return createChatModel(
    {
      baseUrl: settings.base_url,
      modelName: settings.model,
      apiKey: settings.api_key === '' ? null : settings.api_key,
      timeoutMs,
      fetch,
    },
    { maxTokens: settings.max_tokens, temperature: settings.temperature },
  );
}

/** The stored OpenAI settings with the key opened. */
export function openOpenAiSettings(box: SecretBox, settings: StoredOpenAiSettings): StoredOpenAiSettings {
  return { ...settings, api_key: settings.api_key === '' ? '' : box.decrypt(settings.api_key) };
}

const keyUnreadable: IntegrationTestResult = {
  ok: false,
  code: 'model/key-unreadable',
  message: 'The stored API key cannot be decrypted (the installation secret changed); enter the key again.',
};

/** A tiny chat call; the provider's failure in plain words. */
async function tryOpenAi(
  deps: IntegrationsDeps,
  principal: Principal,
  settings: StoredOpenAiSettings,
  timeoutMs: number,
): Promise<IntegrationTestResult> {
  const started = performance.now();
  try {
    const { text } = await integrationChatModel(settings, timeoutMs, deps.modelFetch).generate({
      messages: [{ role: 'user', content: 'Reply with OK.' }],
      maxTokens: 16,
    });
    const latency = Math.round(performance.now() - started);
    return {
      ok: true,
      latency_ms: latency,
      detail: `${settings.model} answered in ${latency} ms${text.trim() === '' ? ' (with an empty text)' : ''}.`,
    };
  } catch (error) {
    if (error instanceof ProviderError) {
      const message = refusalReasonFor(error.fetchCode ?? '', error.message, principal);
      return { ok: false, code: error.code, message };
    }
    throw error;
  }
}

/** The RAG is the tenant's (with omnirag) and its index can answer. */
async function tryBuiltin(db: Db, tenantId: string, ragId: string): Promise<IntegrationTestResult> {
  const started = performance.now();
  if (!(await tenantHoldsFeature(db, tenantId, 'omnirag'))) {
    return {
      ok: false,
      code: 'forbidden',
      message: 'Your organisation has no Omni RAG subscription for builtin answers.',
    };
  }
  const rag = await ownRag(db, tenantId, ragId);
  if (!rag)
    return {
      ok: false,
      code: 'integration/unknown-rag',
      message: 'The RAG does not exist in your organisation.',
    };
  const [index] = await db
    .select()
    .from(indexes)
    .where(and(eq(indexes.tenantId, tenantId), eq(indexes.id, rag.indexId)))
    .limit(1);
  if (!index) {
    return {
      ok: false,
      code: 'integration/rag-not-ready',
      message: `The index of ${rag.name} no longer exists.`,
    };
  }
  if (index.mode !== 'keyword' && index.embeddingState !== 'ready') {
    return {
      ok: false,
      code: 'integration/rag-not-ready',
      message:
        index.embeddingState === 'failed'
          ? `The index ${index.name} failed to embed its chunks${index.embeddingErrorReason ? `: ${index.embeddingErrorReason}` : ''}.`
          : `The index ${index.name} is still embedding its chunks (${index.embeddingState}); try again when it is ready.`,
    };
  }
  return {
    ok: true,
    latency_ms: Math.round(performance.now() - started),
    detail: `${rag.name} answers from the ${index.mode} index ${index.name}.`,
  };
}

/** Tries a saved integration. */
export async function testIntegration(
  deps: IntegrationsDeps,
  principal: Principal,
  id: string,
  timeoutMs = INTEGRATION_TEST_TIMEOUT_MS,
): Promise<IntegrationTestResult> {
  const row = await ownedRow(deps.db, principal.tenantId, id);
  if (isContactCentreRow(row)) {
    const target = withOpenedSecret(() => openContactCentreRow(deps.contactCentre.secretBox, row));
    if ('ok' in target) return target;
    return probeContactCentre(deps.contactCentre, principal, target, timeoutMs);
  }
  if (isDialogflowRow(row)) {
    const target = withOpenedKey(() => openDialogflow(deps.secretBox, row.settings));
    if ('ok' in target) return target;
    return tryDialogflow(deps.modelFetch, principal, target, timeoutMs);
  }
  if (isAwsEngineRow(row)) {
    const target = withOpenedAwsSecret(() => openAwsEngineRow(deps.secretBox, row));
    if ('ok' in target) return target;
    return probeAwsEngine(deps.modelFetch, principal, target, timeoutMs);
  }
  if (!isOpenAi(row)) {
    return tryBuiltin(deps.db, principal.tenantId, (row.settings as StoredBuiltinSettings).rag_id);
  }
  let settings: StoredOpenAiSettings;
  try {
    settings = openOpenAiSettings(deps.secretBox, row.settings);
  } catch (error) {
    if (error instanceof SecretBoxError) return keyUnreadable;
    throw error;
  }
  return tryOpenAi(deps, principal, settings, timeoutMs);
}

/** Tries settings before they are saved; a masked key stands for the stored key of integration `input.id`. */
export async function testUnsavedIntegration(
  deps: IntegrationsDeps,
  principal: Principal,
  input: TestInput,
  timeoutMs = INTEGRATION_TEST_TIMEOUT_MS,
): Promise<IntegrationTestResult> {
  const stored = input.id === undefined ? null : await ownedRow(deps.db, principal.tenantId, input.id);
  if (input.engine === 'builtin') return tryBuiltin(deps.db, principal.tenantId, input.settings.rag_id);
  if (input.engine === 'dialogflowcx') {
    const target = withOpenedKey(() => unsavedDialogflow(deps.secretBox, input.settings, stored));
    if ('ok' in target) return target;
    return tryDialogflow(deps.modelFetch, principal, target, timeoutMs);
  }
  if (input.engine === 'genesys' || input.engine === 'connect') {
    const target = withOpenedSecret(() =>
      unsavedContactCentreSettings(deps.contactCentre.secretBox, input, stored),
    );
    if ('ok' in target) return target;
    return probeContactCentre(deps.contactCentre, principal, target, timeoutMs);
  }
  if (input.engine === 'lex' || input.engine === 'bedrock') {
    const target = withOpenedAwsSecret(() => unsavedAwsEngine(deps.secretBox, input, stored));
    if ('ok' in target) return target;
    return probeAwsEngine(deps.modelFetch, principal, target, timeoutMs);
  }
  let apiKey = input.settings.api_key;
  if (isMaskedApiKey(apiKey)) {
    if (stored === null || !isOpenAi(stored)) {
      throw badRequest('Enter the API key; a masked key stands only for the key of a saved integration.');
    }
    if (stored.settings.api_key !== '') {
      assertSecretStaysWithEndpoint(stored.settings.base_url, input.settings.base_url);
    }
    try {
      apiKey = openOpenAiSettings(deps.secretBox, stored.settings).api_key;
    } catch (error) {
      if (error instanceof SecretBoxError) return keyUnreadable;
      throw error;
    }
  }
  return tryOpenAi(deps, principal, { ...input.settings, api_key: apiKey }, timeoutMs);
}
