import {
  CASE_SUMMARY_ERRORS,
  type CaseSummaryTrigger,
  type CreateCaseSummaryConfigBodySchema,
  type UpdateCaseSummaryConfigBodySchema,
} from '@omnibot/contracts';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { type CaseSummaryConfigRow, caseSummaryConfigBots, caseSummaryConfigs } from '../../db/schema';
import { type Actor, writeAudit } from '../../lib/audit';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/unique-violation';
import { actorId, type Principal } from '../../lib/principal';
import { botNameSql, tenantBotIds } from '../bots/bots.service';
import { modelNameSql, modelsOfferedTo } from '../models/models.service';

const CONFIG_NOT_FOUND = 'Case-summary configuration not found';

type CreateInput = z.output<typeof CreateCaseSummaryConfigBodySchema>;
type UpdateInput = z.output<typeof UpdateCaseSummaryConfigBodySchema>;

/** A configuration with the names of its bots and model, as the list and the detail show them. */
export interface StoredCaseSummaryConfig {
  row: CaseSummaryConfigRow;
  bots: { id: string; name: string }[];
  modelName: string | null;
}

const nameTaken = () => conflict(CASE_SUMMARY_ERRORS['case-summary/name-taken'], 'case-summary/name-taken');
const unknownBot = () =>
  badRequest(CASE_SUMMARY_ERRORS['case-summary/unknown-bot'], 'case-summary/unknown-bot');
const unknownModel = () =>
  badRequest(CASE_SUMMARY_ERRORS['case-summary/unknown-model'], 'case-summary/unknown-model');
const botTaken = (bot: string, config: string) =>
  conflict(
    `The bot ${bot} is already summarised by the configuration ${config}; take it out there first.`,
    'case-summary/bot-taken',
  );

/** The constraint a PostgreSQL error names, under the driver's and drizzle's wrapping. */
function constraintOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const name = (current as { constraint?: unknown }).constraint;
    if (typeof name === 'string') return name;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A write whose unique violations become 409s (a taken name, or a bot another configuration took meanwhile) and
 * whose foreign-key violations (a bot or model deleted meanwhile) become 400s.
 */
async function guardWrite<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) {
      if (constraintOf(error) === 'case_summary_configs_tenant_name_key') throw nameTaken();
      throw new AppError(409, 'case-summary/bot-taken', CASE_SUMMARY_ERRORS['case-summary/bot-taken']);
    }
    if (isForeignKeyViolation(error)) {
      throw constraintOf(error)?.includes('model') === true ? unknownModel() : unknownBot();
    }
    throw error;
  }
}

async function botsOf(db: Db, configIds: string[]): Promise<Map<string, { id: string; name: string }[]>> {
  const map = new Map<string, { id: string; name: string }[]>(configIds.map((id) => [id, []]));
  if (configIds.length === 0) return map;
  const name = botNameSql(caseSummaryConfigBots.botId, caseSummaryConfigBots.tenantId);
  const rows = await db
    .select({ configId: caseSummaryConfigBots.configId, id: caseSummaryConfigBots.botId, name })
    .from(caseSummaryConfigBots)
    .where(inArray(caseSummaryConfigBots.configId, configIds))
    .orderBy(asc(name), asc(caseSummaryConfigBots.botId));
  for (const row of rows) map.get(row.configId)?.push({ id: row.id, name: row.name });
  return map;
}

async function present(db: Db, rows: { row: CaseSummaryConfigRow; modelName: string | null }[]) {
  const botMap = await botsOf(
    db,
    rows.map(({ row }) => row.id),
  );
  return rows.map(({ row, modelName }) => ({ row, modelName, bots: botMap.get(row.id) ?? [] }));
}

export async function listCaseSummaryConfigs(
  db: Db,
  principal: Principal,
): Promise<StoredCaseSummaryConfig[]> {
  const rows = await db
    .select({ row: caseSummaryConfigs, modelName: modelNameSql(caseSummaryConfigs.modelId) })
    .from(caseSummaryConfigs)
    .where(eq(caseSummaryConfigs.tenantId, principal.tenantId))
    .orderBy(asc(caseSummaryConfigs.name), asc(caseSummaryConfigs.id));
  return present(db, rows);
}

export async function getCaseSummaryConfig(
  db: Db,
  principal: Principal,
  id: string,
): Promise<StoredCaseSummaryConfig> {
  const rows = await db
    .select({ row: caseSummaryConfigs, modelName: modelNameSql(caseSummaryConfigs.modelId) })
    .from(caseSummaryConfigs)
    .where(and(eq(caseSummaryConfigs.tenantId, principal.tenantId), eq(caseSummaryConfigs.id, id)))
    .limit(1);
  const [found] = await present(db, rows);
  if (!found) throw notFound(CONFIG_NOT_FOUND);
  return found;
}

/** The chosen model must be a chat model offered to the caller's tenant (its own or shared down to it). */
async function assertModelOffered(db: Db, tenantId: string, modelId: string | null | undefined) {
  if (modelId === null || modelId === undefined) return;
  const offered = await modelsOfferedTo(db, tenantId, 'chat');
  if (!offered.some((model) => model.id === modelId)) throw unknownModel();
}

/**
 * Every chosen bot must be the caller's tenant's (another tenant's answers like an unknown one), and none may be
 * summarised by another configuration of the tenant.
 */
async function assertBotsFree(db: Db, tenantId: string, botIds: string[], configId: string | null) {
  const owned = await tenantBotIds(db, tenantId, botIds);
  if (owned.length !== botIds.length) throw unknownBot();
  const [taken] = await db
    .select({
      bot: botNameSql(caseSummaryConfigBots.botId, caseSummaryConfigBots.tenantId),
      config: caseSummaryConfigs.name,
    })
    .from(caseSummaryConfigBots)
    .innerJoin(caseSummaryConfigs, eq(caseSummaryConfigs.id, caseSummaryConfigBots.configId))
    .where(
      and(
        eq(caseSummaryConfigBots.tenantId, tenantId),
        inArray(caseSummaryConfigBots.botId, botIds),
        configId === null ? undefined : ne(caseSummaryConfigBots.configId, configId),
      ),
    )
    .limit(1);
  if (taken) throw botTaken(taken.bot, taken.config);
}

export async function createCaseSummaryConfig(
  db: Db,
  actor: Actor,
  input: CreateInput,
): Promise<StoredCaseSummaryConfig> {
  const { principal } = actor;
  const who = actorId(principal);
  await assertModelOffered(db, principal.tenantId, input.model_id);
  await assertBotsFree(db, principal.tenantId, input.bot_ids, null);
  const id = await guardWrite(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(caseSummaryConfigs)
        .values({
          tenantId: principal.tenantId,
          name: input.name,
          modelId: input.model_id ?? null,
          sections: input.sections,
          maxChars: input.max_chars,
          triggers: input.triggers,
          createdBy: who,
          updatedBy: who,
        })
        .returning({ id: caseSummaryConfigs.id });
      if (!row) throw new AppError(500, 'internal', 'The configuration was not stored.');
      await tx
        .insert(caseSummaryConfigBots)
        .values(input.bot_ids.map((botId) => ({ botId, configId: row.id, tenantId: principal.tenantId })));
      await writeAudit(tx, actor, {
        tenantId: principal.tenantId,
        action: 'case-summary-config.create',
        target: row.id,
        details: { name: input.name, bots: input.bot_ids.length },
      });
      return row.id;
    }),
  );
  return getCaseSummaryConfig(db, principal, id);
}

export async function updateCaseSummaryConfig(
  db: Db,
  actor: Actor,
  id: string,
  input: UpdateInput,
): Promise<StoredCaseSummaryConfig> {
  const { principal } = actor;
  await getCaseSummaryConfig(db, principal, id);
  await assertModelOffered(db, principal.tenantId, input.model_id);
  if (input.bot_ids !== undefined) await assertBotsFree(db, principal.tenantId, input.bot_ids, id);
  const changes: Partial<typeof caseSummaryConfigs.$inferInsert> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.model_id !== undefined) changes.modelId = input.model_id;
  if (input.sections !== undefined) changes.sections = input.sections;
  if (input.max_chars !== undefined) changes.maxChars = input.max_chars;
  if (input.triggers !== undefined) changes.triggers = input.triggers;
  await guardWrite(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .update(caseSummaryConfigs)
        .set({ ...changes, updatedBy: actorId(principal), updatedAt: new Date() })
        .where(and(eq(caseSummaryConfigs.tenantId, principal.tenantId), eq(caseSummaryConfigs.id, id)))
        .returning({ id: caseSummaryConfigs.id });
      if (!row) throw notFound(CONFIG_NOT_FOUND);
      if (input.bot_ids !== undefined) {
        await tx.delete(caseSummaryConfigBots).where(eq(caseSummaryConfigBots.configId, id));
        await tx
          .insert(caseSummaryConfigBots)
          .values(input.bot_ids.map((botId) => ({ botId, configId: id, tenantId: principal.tenantId })));
      }
      await writeAudit(tx, actor, {
        tenantId: principal.tenantId,
        action: 'case-summary-config.update',
        target: id,
        details: { fields: Object.keys(input) },
      });
    }),
  );
  return getCaseSummaryConfig(db, principal, id);
}

export async function deleteCaseSummaryConfig(db: Db, actor: Actor, id: string): Promise<void> {
  const { principal } = actor;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(caseSummaryConfigs)
      .where(and(eq(caseSummaryConfigs.tenantId, principal.tenantId), eq(caseSummaryConfigs.id, id)))
      .returning({ id: caseSummaryConfigs.id, name: caseSummaryConfigs.name });
    if (!row) throw notFound(CONFIG_NOT_FOUND);
    await writeAudit(tx, actor, {
      tenantId: principal.tenantId,
      action: 'case-summary-config.delete',
      target: id,
      details: { name: row.name },
    });
  });
}

/** The configuration that summarises a bot's conversations at `trigger`, or null when none does. */
export async function configForBot(
  db: Db,
  conversation: { tenantId: string; botId: string },
  trigger: CaseSummaryTrigger,
): Promise<CaseSummaryConfigRow | null> {
  const [found] = await db
    .select({ row: caseSummaryConfigs })
    .from(caseSummaryConfigBots)
    .innerJoin(caseSummaryConfigs, eq(caseSummaryConfigs.id, caseSummaryConfigBots.configId))
    .where(
      and(
        eq(caseSummaryConfigBots.tenantId, conversation.tenantId),
        eq(caseSummaryConfigBots.botId, conversation.botId),
        eq(caseSummaryConfigs.tenantId, conversation.tenantId),
        sql`${caseSummaryConfigs.triggers} @> ${JSON.stringify([trigger])}::jsonb`,
      ),
    )
    .limit(1);
  return found?.row ?? null;
}
