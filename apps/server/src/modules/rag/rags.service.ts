import type { CreateRagBodySchema, RagListQuery, UpdateRagBodySchema } from '@omnibot/contracts';
import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { type Db, preparedQuery } from '../../db/client';
import { type RagRow, ragAnswers, rags } from '../../db/schema';
import { type Actor, writeAudit } from '../../lib/audit';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { isForeignKeyViolation, refuseUniqueViolation } from '../../lib/unique-violation';
import { actorId, type Principal } from '../../lib/principal';
import {
  indexJoin,
  indexKeywordHitsColumn,
  type LoadedIndex,
  loadedIndexColumns,
  loadIndex,
  searchedIndexColumns,
} from '../indexes/search';
import { storableText } from '../knowledge/retrieval/safe-text';
import { modelNameSql, modelsOfferedTo } from '../models/models.service';
import { indexNameSql } from '../indexes/indexes.service';
import { promptNameSql, tenantHasPrompt } from '../prompts/prompts.service';
import { type AnsweredRag, answeredRagColumns } from './rag-answer';

const RAG_NOT_FOUND = 'RAG not found';

type CreateInput = z.output<typeof CreateRagBodySchema>;
type UpdateInput = z.output<typeof UpdateRagBodySchema>;

/** A RAG with the names of its index, prompt and model, as the list and the detail show them. */
export interface StoredRag {
  row: RagRow;
  indexName: string;
  promptName: string | null;
  modelName: string | null;
}

const nameTaken = () => conflict('Another RAG of your organisation already has this name.', 'rag/name-taken');
const unknownIndex = () => badRequest('The index does not exist in your organisation.', 'rag/unknown-index');
const unknownPrompt = () =>
  badRequest('The prompt does not exist in your organisation.', 'rag/unknown-prompt');
const unknownModel = () =>
  badRequest('The chat model is not offered to your organisation.', 'rag/unknown-model');

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

/** The (tenant, name) unique violation becomes 409; an index or prompt deleted meanwhile becomes its unknown-* 400. */
async function guardWrite<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await refuseUniqueViolation(work, nameTaken);
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw constraintOf(error) === 'rags_prompt_fk' ? unknownPrompt() : unknownIndex();
    }
    throw error;
  }
}

async function selectRags(
  db: Db,
  where: SQL | undefined,
  page?: { limit: number; offset: number },
): Promise<StoredRag[]> {
  const query = db
    .select({
      row: rags,
      indexName: indexNameSql(rags.indexId, rags.tenantId),
      promptName: promptNameSql(rags.promptId, rags.tenantId),
      modelName: modelNameSql(rags.modelId),
    })
    .from(rags)
    .where(where)
    .orderBy(asc(rags.name), asc(rags.id));
  return page ? query.limit(page.limit).offset(page.offset) : query;
}

export async function listRags(db: Db, principal: Principal, query: RagListQuery) {
  const where = and(
    eq(rags.tenantId, principal.tenantId),
    query.prompt_id === undefined ? undefined : eq(rags.promptId, query.prompt_id),
    query.index_id === undefined ? undefined : eq(rags.indexId, query.index_id),
  );
  const [total] = await db.select({ n: count() }).from(rags).where(where);
  const rows = await selectRags(db, where, {
    limit: query.page_size,
    offset: (query.page - 1) * query.page_size,
  });
  return { rows, total: total?.n ?? 0 };
}

/** A RAG as answering needs it, with its index; every answer (the RAG API, a bot's widget, bot testing) loads it so. */
export interface RagForAnswer {
  rag: AnsweredRag;
  /** Null when the index is not the tenant's. */
  index: LoadedIndex | null;
}

/**
 * The caller's RAG with its index as answering needs it (loadRagForAnswer); 404 for another tenant's RAG.
 */
export async function getRagForAnswer(
  db: Db,
  principal: Principal,
  id: string,
  question: string,
): Promise<RagForAnswer> {
  const found = await loadRagForAnswer(db, principal.tenantId, id, question);
  if (!found) throw notFound(RAG_NOT_FOUND);
  return found;
}

/**
 * The tenant's RAG with its index as answering needs it (the index row, its knowledge bases, whether they
 * hold Q&A pairs, and the keyword hits for `question` unless the index searches by vector), in one statement:
 * an answer by keyword takes one round trip after the caller is known. Null when the RAG is not the tenant's.
 */
export async function loadRagForAnswer(
  db: Db,
  tenantId: string,
  id: string,
  question: string,
): Promise<RagForAnswer | null> {
  const started = performance.now();
  const [found] = await preparedQuery(db, 'rag_for_answer', (on, name) => {
    const tenant = sql.placeholder('tenantId');
    return on
      .select({
        rag: answeredRagColumns,
        index: searchedIndexColumns,
        ...loadedIndexColumns(tenant),
        keywordHits: indexKeywordHitsColumn(tenant, sql.placeholder('query')),
      })
      .from(rags)
      .leftJoin(...indexJoin(tenant, rags.indexId))
      .where(and(eq(rags.tenantId, tenant), eq(rags.id, sql.placeholder('id'))))
      .limit(1)
      .prepare(name);
  }).execute({ tenantId, id, query: storableText(question) });
  if (!found) return null;
  const tookMs = performance.now() - started;
  const index = found.index
    ? {
        row: found.index,
        knowledgeBaseIds: found.knowledgeBaseIds,
        hasQa: Boolean(found.hasQa),
        ...(found.keywordHits
          ? {
              keyword: {
                query: question,
                hits: found.keywordHits.map((hit) => ({ ...hit, score: Number(hit.score) })),
                tookMs,
              },
            }
          : {}),
      }
    : null;
  return { rag: found.rag, index };
}

export async function getRag(db: Db, principal: Principal, id: string): Promise<StoredRag> {
  const [found] = await selectRags(db, and(eq(rags.tenantId, principal.tenantId), eq(rags.id, id)));
  if (!found) throw notFound(RAG_NOT_FOUND);
  return found;
}

/** Every id a body names must be the caller's own (or, for a model, offered to the caller's organisation). */
async function assertReferences(
  db: Db,
  principal: Principal,
  input: { index_id?: string; prompt_id?: string | null; model_id?: string | null },
) {
  if (input.index_id !== undefined) {
    if (!(await loadIndex(db, principal.tenantId, input.index_id))) throw unknownIndex();
  }
  if (input.prompt_id !== undefined && input.prompt_id !== null) {
    if (!(await tenantHasPrompt(db, principal.tenantId, input.prompt_id))) throw unknownPrompt();
  }
  if (input.model_id !== undefined && input.model_id !== null) {
    const offered = await modelsOfferedTo(db, principal.tenantId, 'chat');
    if (!offered.some((model) => model.id === input.model_id)) throw unknownModel();
  }
}

export async function createRag(db: Db, actor: Actor, input: CreateInput): Promise<StoredRag> {
  const { principal } = actor;
  await assertReferences(db, principal, input);
  const by = actorId(principal);
  const id = await guardWrite(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(rags)
        .values({
          tenantId: principal.tenantId,
          name: input.name,
          indexId: input.index_id,
          promptId: input.prompt_id ?? null,
          modelId: input.model_id ?? null,
          fallbackText: input.fallback_text,
          citations: input.citations,
          maxContextChars: input.max_context_chars,
          language: input.language,
          createdBy: by,
          updatedBy: by,
        })
        .returning({ id: rags.id, name: rags.name });
      if (!row) throw new AppError(500, 'internal', 'The RAG was not stored.');
      await writeAudit(tx, actor, {
        tenantId: principal.tenantId,
        action: 'rag.create',
        target: row.id,
        details: { name: row.name },
      });
      return row.id;
    }),
  );
  return getRag(db, principal, id);
}

export async function updateRag(db: Db, actor: Actor, id: string, input: UpdateInput): Promise<StoredRag> {
  const { principal } = actor;
  await getRag(db, principal, id);
  await assertReferences(db, principal, input);
  const changes: Partial<typeof rags.$inferInsert> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.index_id !== undefined) changes.indexId = input.index_id;
  if (input.prompt_id !== undefined) changes.promptId = input.prompt_id;
  if (input.model_id !== undefined) changes.modelId = input.model_id;
  if (input.fallback_text !== undefined) changes.fallbackText = input.fallback_text;
  if (input.citations !== undefined) changes.citations = input.citations;
  if (input.max_context_chars !== undefined) changes.maxContextChars = input.max_context_chars;
  if (input.language !== undefined) changes.language = input.language;
  await guardWrite(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .update(rags)
        .set({ ...changes, updatedBy: actorId(principal), updatedAt: new Date() })
        .where(and(eq(rags.id, id), eq(rags.tenantId, principal.tenantId)))
        .returning({ id: rags.id });
      if (!row) throw notFound(RAG_NOT_FOUND);
      await writeAudit(tx, actor, {
        tenantId: principal.tenantId,
        action: 'rag.update',
        target: id,
        details: { fields: Object.keys(input) },
      });
    }),
  );
  return getRag(db, principal, id);
}

/** Deletes a RAG; its recorded answers go with it. */
export async function deleteRag(db: Db, actor: Actor, id: string): Promise<void> {
  const { principal } = actor;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(rags)
      .where(and(eq(rags.id, id), eq(rags.tenantId, principal.tenantId)))
      .returning({ id: rags.id, name: rags.name });
    if (!row) throw notFound(RAG_NOT_FOUND);
    await writeAudit(tx, actor, {
      tenantId: principal.tenantId,
      action: 'rag.delete',
      target: id,
      details: { name: row.name },
    });
  });
}

/** Whether RAG `id` is one of the tenant's. */
export async function tenantHasRag(db: Db, tenantId: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: rags.id })
    .from(rags)
    .where(and(eq(rags.tenantId, tenantId), eq(rags.id, id)))
    .limit(1);
  return row !== undefined;
}

/** A stored answer of the tenant: the chunks it used and how it was made; null when the tenant has none such. */
export async function storedRagAnswerOf(db: Db, tenantId: string, id: string) {
  const [row] = await db
    .select({
      chunks: ragAnswers.chunks,
      kind: ragAnswers.kind,
      retrieveMs: ragAnswers.retrieveMs,
      generateMs: ragAnswers.generateMs,
      totalMs: ragAnswers.totalMs,
    })
    .from(ragAnswers)
    .where(and(eq(ragAnswers.tenantId, tenantId), eq(ragAnswers.id, id)))
    .limit(1);
  return row ?? null;
}

/** The index RAG `id` of the tenant searches; null when the tenant has no such RAG. */
export async function ragIndexIdOf(db: Db, tenantId: string, id: string): Promise<string | null> {
  const [row] = await db
    .select({ indexId: rags.indexId })
    .from(rags)
    .where(and(eq(rags.tenantId, tenantId), eq(rags.id, id)))
    .limit(1);
  return row?.indexId ?? null;
}
