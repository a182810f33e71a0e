import {
  type CreatePromptBodySchema,
  PROMPT_SAMPLE_VALUES,
  PROMPT_VARIABLES,
  type PromptListQuery,
  type PromptPreview,
  type PromptPreviewBodySchema,
  promptVariables,
  renderPrompt,
  type UpdatePromptBodySchema,
} from '@omnibot/contracts';
import { and, asc, count, desc, eq, ilike, or, type SQLWrapper, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { type PromptRow, prompts, type PromptVersionRow, promptVersions } from '../../db/schema';
import { type Actor, writeAudit } from '../../lib/audit';
import { AppError, conflict, notFound } from '../../lib/errors';
import { isForeignKeyViolation, refuseUniqueViolation } from '../../lib/unique-violation';
import { actorId, type Principal } from '../../lib/principal';

const PROMPT_NOT_FOUND = 'Prompt not found';
const VERSION_NOT_FOUND = 'Prompt version not found';

type CreatePromptInput = z.output<typeof CreatePromptBodySchema>;
type UpdatePromptInput = z.output<typeof UpdatePromptBodySchema>;
type PreviewInput = z.output<typeof PromptPreviewBodySchema>;

export interface StoredPrompt {
  row: PromptRow;
  template: string;
}

const nameTaken = () =>
  conflict('Another prompt of your organisation already has this name.', 'prompt/name-taken');

/** Runs a write, turning the (tenant, name) unique violation into a 409. */
const guardName = <T>(work: () => Promise<T>) => refuseUniqueViolation(work, nameTaken);

/** `%`, `_` and `\` are matched literally in a search. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/gu, (char) => `\\${char}`)}%`;

export async function listPrompts(db: Db, principal: Principal, query: PromptListQuery) {
  const where = and(
    eq(prompts.tenantId, principal.tenantId),
    query.q
      ? or(ilike(prompts.name, likePattern(query.q)), ilike(prompts.description, likePattern(query.q)))
      : undefined,
  );
  const [total] = await db.select({ n: count() }).from(prompts).where(where);
  const rows = await db
    .select()
    .from(prompts)
    .where(where)
    .orderBy(asc(prompts.name), asc(prompts.id))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  return { rows, total: total?.n ?? 0 };
}

async function ownedRow(db: Db, principal: Principal, id: string): Promise<PromptRow> {
  const [row] = await db
    .select()
    .from(prompts)
    .where(and(eq(prompts.id, id), eq(prompts.tenantId, principal.tenantId)))
    .limit(1);
  if (!row) throw notFound(PROMPT_NOT_FOUND);
  return row;
}

async function versionRow(db: Db, row: PromptRow, version: number): Promise<PromptVersionRow> {
  const [found] = await db
    .select()
    .from(promptVersions)
    .where(
      and(
        eq(promptVersions.promptId, row.id),
        eq(promptVersions.tenantId, row.tenantId),
        eq(promptVersions.version, version),
      ),
    )
    .limit(1);
  if (!found) throw notFound(VERSION_NOT_FOUND);
  return found;
}

export async function getPrompt(db: Db, principal: Principal, id: string): Promise<StoredPrompt> {
  const row = await ownedRow(db, principal, id);
  return { row, template: (await versionRow(db, row, row.currentVersion)).template };
}

export async function createPrompt(db: Db, actor: Actor, input: CreatePromptInput): Promise<StoredPrompt> {
  const { principal } = actor;
  const who = actorId(principal);
  return guardName(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(prompts)
        .values({
          tenantId: principal.tenantId,
          name: input.name,
          description: input.description ?? '',
          currentVersion: 1,
          createdBy: who,
          updatedBy: who,
        })
        .returning();
      if (!row) throw new AppError(500, 'internal', 'The prompt was not stored.');
      await tx.insert(promptVersions).values({
        tenantId: principal.tenantId,
        promptId: row.id,
        version: 1,
        template: input.template,
        createdBy: who,
      });
      await writeAudit(tx, actor, {
        tenantId: principal.tenantId,
        action: 'prompt.create',
        target: row.id,
        details: { name: row.name },
      });
      return { row, template: input.template };
    }),
  );
}

/** Stores `template` as the next version and makes it current; the row update serialises concurrent saves. */
async function addVersion(
  db: Db,
  principal: Principal,
  id: string,
  template: string,
  changes: Partial<typeof prompts.$inferInsert>,
): Promise<PromptRow> {
  const who = actorId(principal);
  const [row] = await db
    .update(prompts)
    .set({
      ...changes,
      currentVersion: sql`${prompts.currentVersion} + 1`,
      updatedBy: who,
      updatedAt: new Date(),
    })
    .where(and(eq(prompts.id, id), eq(prompts.tenantId, principal.tenantId)))
    .returning();
  if (!row) throw notFound(PROMPT_NOT_FOUND);
  await db.insert(promptVersions).values({
    tenantId: principal.tenantId,
    promptId: id,
    version: row.currentVersion,
    template,
    createdBy: who,
  });
  return row;
}

export async function updatePrompt(
  db: Db,
  actor: Actor,
  id: string,
  input: UpdatePromptInput,
): Promise<StoredPrompt> {
  const { principal } = actor;
  const current = await getPrompt(db, principal, id);
  const changes: Partial<typeof prompts.$inferInsert> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  const newTemplate = input.template !== undefined && input.template !== current.template;
  return guardName(() =>
    db.transaction(async (tx) => {
      let row: PromptRow | undefined;
      if (newTemplate && input.template !== undefined) {
        row = await addVersion(tx, principal, id, input.template, changes);
      } else {
        [row] = await tx
          .update(prompts)
          .set({ ...changes, updatedBy: actorId(principal), updatedAt: new Date() })
          .where(and(eq(prompts.id, id), eq(prompts.tenantId, principal.tenantId)))
          .returning();
      }
      if (!row) throw notFound(PROMPT_NOT_FOUND);
      const fields = Object.keys(input).filter((field) => field !== 'template' || newTemplate);
      if (fields.length > 0) {
        await writeAudit(tx, actor, {
          tenantId: principal.tenantId,
          action: 'prompt.update',
          target: id,
          details: { fields, ...(newTemplate ? { version: row.currentVersion } : {}) },
        });
      }
      return {
        row,
        template: newTemplate && input.template !== undefined ? input.template : current.template,
      };
    }),
  );
}

const inUse = () => conflict('RAGs use this prompt; point them at another prompt first.', 'prompt/in-use');

/**
 * A prompt that a RAG uses is refused with 409 prompt/in-use (the RAG's foreign key restricts the delete, and the
 * transaction leaves the prompt and the audit log as they were); the RAG must be pointed elsewhere first.
 */
export async function deletePrompt(db: Db, actor: Actor, id: string): Promise<void> {
  const { principal } = actor;
  await ownedRow(db, principal, id);
  try {
    await deleteUnused(db, actor, id);
  } catch (error) {
    if (isForeignKeyViolation(error)) throw inUse();
    throw error;
  }
}

async function deleteUnused(db: Db, actor: Actor, id: string): Promise<void> {
  const { principal } = actor;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(prompts)
      .where(and(eq(prompts.id, id), eq(prompts.tenantId, principal.tenantId)))
      .returning({ id: prompts.id, name: prompts.name });
    if (!row) throw notFound(PROMPT_NOT_FOUND);
    await writeAudit(tx, actor, {
      tenantId: principal.tenantId,
      action: 'prompt.delete',
      target: id,
      details: { name: row.name },
    });
  });
}

export async function listVersions(db: Db, principal: Principal, id: string) {
  const row = await ownedRow(db, principal, id);
  const items = await db
    .select()
    .from(promptVersions)
    .where(and(eq(promptVersions.promptId, row.id), eq(promptVersions.tenantId, principal.tenantId)))
    .orderBy(desc(promptVersions.version));
  return { row, items };
}

export async function getVersion(db: Db, principal: Principal, id: string, version: number) {
  return versionRow(db, await ownedRow(db, principal, id), version);
}

/** Restoring writes the old template as a new version, so the history only grows. */
export async function restoreVersion(
  db: Db,
  actor: Actor,
  id: string,
  version: number,
): Promise<StoredPrompt> {
  const { principal } = actor;
  const source = await getVersion(db, principal, id, version);
  return db.transaction(async (tx) => {
    const row = await addVersion(tx, principal, id, source.template, {});
    await writeAudit(tx, actor, {
      tenantId: principal.tenantId,
      action: 'prompt.restore',
      target: id,
      details: { from_version: version, version: row.currentVersion },
    });
    return { row, template: source.template };
  });
}

/** The template rendered with the given values, and a sample for every variable without one. */
export function previewPrompt(input: PreviewInput): PromptPreview {
  const values = Object.fromEntries(
    PROMPT_VARIABLES.map((name) => [name, input.values?.[name] ?? PROMPT_SAMPLE_VALUES[name]]),
  );
  return {
    rendered: renderPrompt(input.template, values),
    variables: promptVariables(input.template).variables,
  };
}

/** Whether prompt `id` is one of the tenant's. */
export async function tenantHasPrompt(db: Db, tenantId: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: prompts.id })
    .from(prompts)
    .where(and(eq(prompts.tenantId, tenantId), eq(prompts.id, id)))
    .limit(1);
  return row !== undefined;
}

/** The template of a prompt at its current version, read with the tenant filter; null without one. */
export async function promptTemplate(
  db: Db,
  tenantId: string,
  promptId: string | null,
): Promise<string | null> {
  if (promptId === null) return null;
  const [row] = await db
    .select({ template: promptVersions.template })
    .from(prompts)
    .innerJoin(
      promptVersions,
      and(
        eq(promptVersions.tenantId, prompts.tenantId),
        eq(promptVersions.promptId, prompts.id),
        eq(promptVersions.version, prompts.currentVersion),
      ),
    )
    .where(and(eq(prompts.tenantId, tenantId), eq(prompts.id, promptId)))
    .limit(1);
  return row?.template ?? null;
}

/** A prompt's name as a correlated subquery, for a later module's statement that lists rows naming a prompt. */
export const promptNameSql = (promptId: SQLWrapper, tenantId: SQLWrapper) =>
  sql<
    string | null
  >`(select ${prompts.name} from ${prompts} where ${prompts.id} = ${promptId} and ${prompts.tenantId} = ${tenantId})`;
