import {
  type CreateBotTemplateBodySchema,
  templateConfigOf,
  type UpdateBotTemplateBodySchema,
} from '@omnibot/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { type BotTemplateRow, botTemplates } from '../../db/schema';
import { type Actor, writeAudit } from '../../lib/audit';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { refuseUniqueViolation } from '../../lib/unique-violation';
import { actorId, type Principal } from '../../lib/principal';
import { type BotsDeps, createBot, sealedBotConfig, type StoredBot } from '../bots/bots.service';

const BOT_TEMPLATE_NOT_FOUND = 'Template not found';

type CreateInput = z.output<typeof CreateBotTemplateBodySchema>;
type UpdateInput = z.output<typeof UpdateBotTemplateBodySchema>;

const nameTaken = () =>
  conflict('Another template of your organisation already has this name.', 'bot-template/name-taken');

async function ownedRow(deps: BotsDeps, principal: Principal, id: string): Promise<BotTemplateRow> {
  const [row] = await deps.db
    .select()
    .from(botTemplates)
    .where(and(eq(botTemplates.tenantId, principal.tenantId), eq(botTemplates.id, id)))
    .limit(1);
  if (!row) throw notFound(BOT_TEMPLATE_NOT_FOUND);
  return row;
}

export async function listBotTemplates(deps: BotsDeps, principal: Principal): Promise<BotTemplateRow[]> {
  return deps.db
    .select()
    .from(botTemplates)
    .where(eq(botTemplates.tenantId, principal.tenantId))
    .orderBy(asc(botTemplates.name), asc(botTemplates.id));
}

export const getBotTemplate = ownedRow;

/** Saves the appearance and texts of one of the caller's bots as a template (nothing secret is among them). */
export async function createBotTemplate(
  deps: BotsDeps,
  actor: Actor,
  input: CreateInput,
): Promise<BotTemplateRow> {
  const { principal } = actor;
  const botConfig = await sealedBotConfig(deps.db, principal.tenantId, input.bot_id);
  if (!botConfig)
    throw badRequest('The bot does not exist in your organisation.', 'bot-template/unknown-bot');
  const config = templateConfigOf(botConfig);
  const by = actorId(principal);
  return refuseUniqueViolation(
    () =>
      deps.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(botTemplates)
          .values({
            tenantId: principal.tenantId,
            name: input.name,
            description: input.description,
            config,
            createdBy: by,
            updatedBy: by,
          })
          .returning();
        if (!row) throw new AppError(500, 'internal', 'The template was not stored.');
        await writeAudit(tx, actor, {
          tenantId: principal.tenantId,
          action: 'bot-template.create',
          target: row.id,
          details: { name: input.name, from_bot: input.bot_id },
        });
        return row;
      }),
    nameTaken,
  );
}

export async function updateBotTemplate(
  deps: BotsDeps,
  actor: Actor,
  id: string,
  input: UpdateInput,
): Promise<BotTemplateRow> {
  const { principal } = actor;
  await ownedRow(deps, principal, id);
  const changes: Partial<typeof botTemplates.$inferInsert> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  return refuseUniqueViolation(
    () =>
      deps.db.transaction(async (tx) => {
        const [row] = await tx
          .update(botTemplates)
          .set({ ...changes, updatedBy: actorId(principal), updatedAt: new Date() })
          .where(and(eq(botTemplates.tenantId, principal.tenantId), eq(botTemplates.id, id)))
          .returning();
        if (!row) throw notFound(BOT_TEMPLATE_NOT_FOUND);
        await writeAudit(tx, actor, {
          tenantId: principal.tenantId,
          action: 'bot-template.update',
          target: id,
          details: { fields: Object.keys(input) },
        });
        return row;
      }),
    nameTaken,
  );
}

export async function deleteBotTemplate(deps: BotsDeps, actor: Actor, id: string): Promise<void> {
  const { principal } = actor;
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .delete(botTemplates)
      .where(and(eq(botTemplates.tenantId, principal.tenantId), eq(botTemplates.id, id)))
      .returning({ name: botTemplates.name });
    if (!row) throw notFound(BOT_TEMPLATE_NOT_FOUND);
    await writeAudit(tx, actor, {
      tenantId: principal.tenantId,
      action: 'bot-template.delete',
      target: id,
      details: { name: row.name },
    });
  });
}

/** A new bot with the template's appearance and texts over the default configuration (default engines). */
export async function createBotFromTemplate(
  deps: BotsDeps,
  actor: Actor,
  id: string,
  name: string,
): Promise<StoredBot> {
  const template = await ownedRow(deps, actor.principal, id);
  return createBot(deps, actor, { name, config: templateConfigOf(template.config) });
}
