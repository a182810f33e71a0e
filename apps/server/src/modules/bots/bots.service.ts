import {
  type BotListQuery,
  type CreateBotBodySchema,
  isMaskedSecret,
  mapWidgetConfigSecrets,
  mergeWidgetConfigSecrets,
  SECRET_ENDPOINT_CHANGED,
  secretEndpointChangedMessage,
  secretsKeptAcrossEndpoints,
  type UpdateBotBodySchema,
  type WidgetConfig,
  WidgetConfigSchema,
  type WidgetConfigPatch,
} from '@omnibot/contracts';
import { and, asc, count, eq, inArray, type SQLWrapper, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { type BotRow, bots } from '../../db/schema';
import { type Actor, writeAudit } from '../../lib/audit';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { createSecretBox, type SecretBox } from '../../lib/secret-box';
import { refuseUniqueViolation } from '../../lib/unique-violation';
import { tenantHoldsFeature } from '../tenancy/tenant-features';
import { actorId, type Principal } from '../../lib/principal';
import { modelsOfferedTo } from '../models/models.service';
import { integrationKindOf } from '../integrations/integrations.service';
import { scheduleExists, type ScheduleUser } from '../schedules/schedules.service';
import { tenantUsableSql } from '../tenancy/tenant-usable';
import { tenantHasPrompt } from '../prompts/prompts.service';
import { tenantHasRag } from '../rag/rags.service';

export const BOT_NOT_FOUND = 'Bot not found';

type CreateInput = z.output<typeof CreateBotBodySchema>;
type UpdateInput = z.output<typeof UpdateBotBodySchema>;

/** Seals and opens the configuration's secrets, each secret path under its own purpose. */
export interface BotSecrets {
  seal(config: WidgetConfig): WidgetConfig;
  open(config: WidgetConfig): WidgetConfig;
}

export interface BotsDeps {
  db: Db;
  secrets: BotSecrets;
}

/** One secret box per secret path (purpose `bot-config:<path>`); an empty secret stays empty. */
export function createBotSecrets(installationSecret: string): BotSecrets {
  const boxes = new Map<string, SecretBox>();
  const boxOf = (path: string) => {
    let box = boxes.get(path);
    if (!box) {
      box = createSecretBox(installationSecret, `bot-config:${path}`);
      boxes.set(path, box);
    }
    return box;
  };
  return {
    seal: (config) =>
      mapWidgetConfigSecrets(config, (value, path) => (value === '' ? '' : boxOf(path).encrypt(value))),
    open: (config) =>
      mapWidgetConfigSecrets(config, (value, path) => (value === '' ? '' : boxOf(path).decrypt(value))),
  };
}

/** A bot with its configuration opened (secrets in clear, for the server's own use only). */
export interface StoredBot {
  row: BotRow;
  config: WidgetConfig;
}

/** The strong validator of a bot's configuration: it changes whenever the configuration or the switch does. */
export const botEtag = (row: Pick<BotRow, 'id' | 'configVersion'>) => `"${row.id}-${row.configVersion}"`;

const nameTaken = () => conflict('Another bot of your organisation already has this name.', 'bot/name-taken');
const unknownRag = () => badRequest('The RAG does not exist in your organisation.', 'bot/unknown-rag');
const unknownModel = () =>
  badRequest('The chat model is not offered to your organisation.', 'bot/unknown-model');
const unknownSpeechModel = () =>
  badRequest('The speech model is not offered to your organisation.', 'bot/unknown-model');
const unknownIntegration = () =>
  badRequest('The chatbot integration does not exist in your organisation.', 'bot/unknown-integration');
const unknownLiveAgentIntegration = () =>
  badRequest(
    'The contact-centre integration does not exist in your organisation.',
    'bot/unknown-liveagent-integration',
  );
const liveAgentIntegrationMismatch = (provider: string, engine: string) =>
  badRequest(
    `The contact-centre integration is for ${engine}, but the bot's live-agent provider is ${provider}; choose an integration of ${provider}.`,
    'bot/liveagent-integration-mismatch',
  );
const unknownSchedule = () =>
  badRequest('The schedule does not exist in your organisation.', 'bot/unknown-schedule');
const unknownPrompt = () =>
  badRequest('The prompt does not exist in your organisation.', 'bot/unknown-prompt');

/**
 * `patch` merged group by group, field by field, over `base` (lists replaced whole), validated as a whole
 * WidgetConfig; secrets sent back masked keep the ones of `base`.
 */
function applyConfigPatch(base: WidgetConfig, patch: WidgetConfigPatch | undefined): WidgetConfig {
  const merged: Record<string, unknown> = { ...base };
  for (const [group, fields] of Object.entries(patch ?? {})) {
    if (fields === undefined) continue;
    const current = (base as unknown as Record<string, Record<string, unknown>>)[group] ?? {};
    merged[group] = { ...current, ...fields };
  }
  const parsed = WidgetConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') ?? '';
    throw badRequest(
      `${where === '' ? '' : `config.${where}: `}${issue?.message ?? 'The bot configuration is not valid.'}`,
      'bot/invalid-config',
    );
  }
  const config = mergeWidgetConfigSecrets(parsed.data, base);
  // A secret left out of the patch or sent back masked is kept, and a kept secret may not follow a moved address.
  const [moved] = secretsKeptAcrossEndpoints(base, config, (path) => {
    const [group = '', field = ''] = path.split('.');
    const sent = (patch as Record<string, Record<string, unknown> | undefined> | undefined)?.[group]?.[field];
    return typeof sent !== 'string' || isMaskedSecret(sent);
  });
  if (moved !== undefined) {
    throw badRequest(secretEndpointChangedMessage(`config.${moved}`, 'its address'), SECRET_ENDPOINT_CHANGED);
  }
  return config;
}

/** Ids inside the configuration must be the caller's own (a model: offered to it, of the right kind); builtin answers need omnirag. */
async function assertReferences(db: Db, principal: Principal, config: WidgetConfig, before?: WidgetConfig) {
  const {
    rag_id: ragId,
    model_id: modelId,
    prompt_id: promptId,
    speech_model_id: speechModelId,
    integration_id: integrationId,
    schedule_id: scheduleId,
  } = config.engines;
  const changed = (
    key: 'rag_id' | 'model_id' | 'prompt_id' | 'speech_model_id' | 'integration_id' | 'schedule_id',
  ) => config.engines[key] !== null && config.engines[key] !== before?.engines[key];
  if (changed('rag_id') && ragId !== null) {
    if (!(await tenantHoldsFeature(db, principal.tenantId, 'omnirag'))) {
      throw forbidden('Your organisation has no Omni RAG subscription for builtin answers.');
    }
    if (!(await tenantHasRag(db, principal.tenantId, ragId))) throw unknownRag();
  }
  if (changed('prompt_id') && promptId !== null) {
    if (!(await tenantHasPrompt(db, principal.tenantId, promptId))) throw unknownPrompt();
  }
  if (changed('model_id') && modelId !== null) {
    const offered = await modelsOfferedTo(db, principal.tenantId, 'chat');
    if (!offered.some((model) => model.id === modelId)) throw unknownModel();
  }
  if (changed('speech_model_id') && speechModelId !== null) {
    const offered = await modelsOfferedTo(db, principal.tenantId, 'speech');
    if (!offered.some((model) => model.id === speechModelId)) throw unknownSpeechModel();
  }
  if (changed('integration_id') && integrationId !== null) {
    const integration = await integrationKindOf(db, principal.tenantId, integrationId);
    if (integration?.kind !== 'chatbot') throw unknownIntegration();
  }
  // A contact-centre integration is the tenant's and of the bot's own provider, checked again when either changes.
  const { liveagent, liveagent_integration_id: liveAgentIntegrationId } = config.engines;
  if (
    liveAgentIntegrationId !== null &&
    (liveAgentIntegrationId !== before?.engines.liveagent_integration_id ||
      liveagent !== before.engines.liveagent)
  ) {
    const integration = await integrationKindOf(db, principal.tenantId, liveAgentIntegrationId);
    if (integration?.kind !== 'ccaas') throw unknownLiveAgentIntegration();
    if (integration.engine !== liveagent) throw liveAgentIntegrationMismatch(liveagent, integration.engine);
  }
  if (changed('schedule_id') && scheduleId !== null) {
    if (!(await scheduleExists(db, principal.tenantId, scheduleId))) throw unknownSchedule();
  }
}

/** The bots of a tenant whose hand-over follows each of the schedules `scheduleIds`. */
export async function botsUsingSchedules(
  db: Db,
  tenantId: string,
  scheduleIds: string[],
): Promise<Map<string, ScheduleUser[]>> {
  const users = new Map<string, ScheduleUser[]>();
  if (scheduleIds.length === 0) return users;
  const scheduleOf = sql<string>`${bots.config} -> 'engines' ->> 'schedule_id'`;
  const rows = await db
    .select({ id: bots.id, name: bots.name, scheduleId: scheduleOf })
    .from(bots)
    .where(and(eq(bots.tenantId, tenantId), inArray(scheduleOf, scheduleIds)))
    .orderBy(asc(bots.name), asc(bots.id));
  for (const row of rows) {
    users.set(row.scheduleId, [...(users.get(row.scheduleId) ?? []), { id: row.id, name: row.name }]);
  }
  return users;
}

const openRow = (deps: Pick<BotsDeps, 'secrets'>, row: BotRow): StoredBot => ({
  row,
  config: deps.secrets.open(row.config),
});

async function ownedRow(db: Db, principal: Principal, id: string): Promise<BotRow> {
  const [row] = await db
    .select()
    .from(bots)
    .where(and(eq(bots.tenantId, principal.tenantId), eq(bots.id, id)))
    .limit(1);
  if (!row) throw notFound(BOT_NOT_FOUND);
  return row;
}

export async function listBots(deps: BotsDeps, principal: Principal, query: BotListQuery) {
  const where = eq(bots.tenantId, principal.tenantId);
  const [total] = await deps.db.select({ n: count() }).from(bots).where(where);
  const rows = await deps.db
    .select()
    .from(bots)
    .where(where)
    .orderBy(asc(bots.name), asc(bots.id))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  return { items: rows.map((row) => openRow(deps, row)), total: total?.n ?? 0 };
}

export async function getBot(deps: BotsDeps, principal: Principal, id: string): Promise<StoredBot> {
  return openRow(deps, await ownedRow(deps.db, principal, id));
}

async function insertBot(
  deps: BotsDeps,
  actor: Actor,
  values: { name: string; enabled: boolean; config: WidgetConfig },
  audit: { action: string; details: Record<string, unknown> },
): Promise<StoredBot> {
  const { principal } = actor;
  const by = actorId(principal);
  const row = await refuseUniqueViolation(
    () =>
      deps.db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(bots)
          .values({
            tenantId: principal.tenantId,
            name: values.name,
            enabled: values.enabled,
            config: deps.secrets.seal(values.config),
            createdBy: by,
            updatedBy: by,
          })
          .returning();
        if (!inserted) throw new AppError(500, 'internal', 'The bot was not stored.');
        await writeAudit(tx, actor, {
          tenantId: principal.tenantId,
          action: audit.action,
          target: inserted.id,
          details: audit.details,
        });
        return inserted;
      }),
    nameTaken,
  );
  return { row, config: values.config };
}

export async function createBot(deps: BotsDeps, actor: Actor, input: CreateInput): Promise<StoredBot> {
  const config = applyConfigPatch(WidgetConfigSchema.parse({}), input.config);
  await assertReferences(deps.db, actor.principal, config);
  return insertBot(
    deps,
    actor,
    { name: input.name, enabled: true, config },
    { action: 'bot.create', details: { name: input.name } },
  );
}

export async function duplicateBot(
  deps: BotsDeps,
  actor: Actor,
  id: string,
  name: string,
): Promise<StoredBot> {
  const source = await getBot(deps, actor.principal, id);
  return insertBot(
    deps,
    actor,
    { name, enabled: false, config: source.config },
    { action: 'bot.duplicate', details: { name, from: id } },
  );
}

export async function updateBot(
  deps: BotsDeps,
  actor: Actor,
  id: string,
  input: UpdateInput,
): Promise<StoredBot> {
  const { principal } = actor;
  const current = await getBot(deps, principal, id);
  const config = input.config === undefined ? current.config : applyConfigPatch(current.config, input.config);
  if (input.config !== undefined) await assertReferences(deps.db, principal, config, current.config);
  const changes: Partial<typeof bots.$inferInsert> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  if (input.config !== undefined) changes.config = deps.secrets.seal(config);
  const row = await refuseUniqueViolation(
    () =>
      deps.db.transaction(async (tx) => {
        const [updated] = await tx
          .update(bots)
          .set({
            ...changes,
            configVersion: sql`${bots.configVersion} + 1`,
            updatedBy: actorId(principal),
            updatedAt: new Date(),
          })
          .where(and(eq(bots.tenantId, principal.tenantId), eq(bots.id, id)))
          .returning();
        if (!updated) throw notFound(BOT_NOT_FOUND);
        await writeAudit(tx, actor, {
          tenantId: principal.tenantId,
          action: 'bot.update',
          target: id,
          details: {
            fields: Object.keys(input),
            ...(input.config === undefined ? {} : { config_groups: Object.keys(input.config) }),
          },
        });
        return updated;
      }),
    nameTaken,
  );
  return { row, config };
}

export async function deleteBot(deps: BotsDeps, actor: Actor, id: string): Promise<void> {
  const { principal } = actor;
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(bots)
      .where(and(eq(bots.tenantId, principal.tenantId), eq(bots.id, id)))
      .returning({ id: bots.id, name: bots.name });
    if (!row) throw notFound(BOT_NOT_FOUND);
    await writeAudit(tx, actor, {
      tenantId: principal.tenantId,
      action: 'bot.delete',
      target: id,
      details: { name: row.name },
    });
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The bot a visitor's widget asks for: only an enabled bot of a usable tenant (it and every ancestor active);
 * null for anything else, a malformed id included, so all of them answer alike.
 */
export async function servableBot(db: Db, id: string): Promise<BotRow | null> {
  if (!UUID.test(id)) return null;
  const [found] = await db
    .select({ row: bots, usable: tenantUsableSql(bots.tenantId) })
    .from(bots)
    .where(and(eq(bots.id, id), eq(bots.enabled, true)))
    .limit(1);
  return found?.usable === true ? found.row : null;
}

/**
 * A bot's stored configuration with its secrets still sealed (what the live-agent relay needs of it: masking and the
 * hand-over settings); null when it is not a bot of the tenant.
 */
export async function sealedBotConfig(db: Db, tenantId: string, id: string): Promise<WidgetConfig | null> {
  const [row] = await db
    .select({ config: bots.config })
    .from(bots)
    .where(and(eq(bots.tenantId, tenantId), eq(bots.id, id)))
    .limit(1);
  return row?.config ?? null;
}

/** A bot of the tenant with its configuration opened, for the server's own use (no caller's rights checked). */
export async function openedBotOf(
  deps: Pick<BotsDeps, 'db' | 'secrets'>,
  tenantId: string,
  id: string,
): Promise<StoredBot | null> {
  const [row] = await deps.db
    .select()
    .from(bots)
    .where(and(eq(bots.tenantId, tenantId), eq(bots.id, id)))
    .limit(1);
  return row ? openRow(deps, row) : null;
}

/**
 * A bot's name as a correlated subquery, for a later module's statement that lists its own rows with the name of
 * their bot (`botId` and `tenantId` are that statement's columns); null when the bot is not the tenant's.
 */
export const botNameSql = (botId: SQLWrapper, tenantId: SQLWrapper) =>
  sql<string>`(select ${bots.name} from ${bots} where ${bots.id} = ${botId} and ${bots.tenantId} = ${tenantId})`;

/** Which of `ids` are bots of the tenant. */
export async function tenantBotIds(db: Db, tenantId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: bots.id })
    .from(bots)
    .where(and(eq(bots.tenantId, tenantId), inArray(bots.id, ids)));
  return rows.map((row) => row.id);
}

/** Whether any bot of the tenant hands its visitors over to the built-in inbox. */
export async function tenantHandsOverToInbox(db: Db, tenantId: string): Promise<boolean> {
  const [found] = await db
    .select({ id: bots.id })
    .from(bots)
    .where(
      and(
        eq(bots.tenantId, tenantId),
        sql`(${bots.config} -> 'engines' ->> 'enableliveagent')::boolean is true`,
        sql`${bots.config} -> 'engines' ->> 'liveagent' = 'inbox'`,
      ),
    )
    .limit(1);
  return found !== undefined;
}

/** Whether an enabled bot of a usable tenant lists `origin` among the sites it may be installed on. */
export async function originListedBySomeBot(db: Db, origin: string): Promise<boolean> {
  const rows = await db
    .select({ usable: tenantUsableSql(bots.tenantId) })
    .from(bots)
    .where(
      and(
        eq(bots.enabled, true),
        sql`${bots.config} -> 'install' -> 'allowedOrigins' @> ${JSON.stringify([origin])}::jsonb`,
      ),
    )
    .limit(20);
  return rows.some((row) => row.usable === true);
}

/** Locks the tenant's bot row until the transaction ends, so work counted per bot cannot pass a limit twice. */
export async function lockBot(tx: Db, tenantId: string, id: string): Promise<void> {
  await tx
    .select({ id: bots.id })
    .from(bots)
    .where(and(eq(bots.tenantId, tenantId), eq(bots.id, id)))
    .for('update');
}
