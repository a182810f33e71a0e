import type { IndexListQuery, IndexMode, UpdateIndexBodySchema } from '@omnibot/contracts';
import { and, asc, count, eq, inArray, type SQLWrapper, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { indexKnowledgeBases, indexes, type IndexRow } from '../../db/schema';
import type { JobRunner } from '../../jobs/queue';
import { type Actor, writeAudit } from '../../lib/audit';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { isForeignKeyViolation, refuseUniqueViolation } from '../../lib/unique-violation';
import { actorId, type Principal } from '../../lib/principal';
import { availableModels } from '../models/models.service';
import { knowledgeBaseNameSql, tenantKnowledgeBaseIds } from '../knowledge/knowledge.service';
import { queueEmbedding } from './embedding';
import type { StoredIndex } from './indexes.presenter';

export const INDEX_NOT_FOUND = 'Index not found';

export interface IndexesDeps {
  db: Db;
  /** The job runner, or null when this process runs no jobs (embedding then waits, pending, for one that does). */
  jobs: () => JobRunner | null;
}

export interface CreateIndexInput {
  name: string;
  knowledge_ids: string[];
  mode: IndexMode;
  top_k: number;
  score_threshold: number;
  embedding_model_id?: string | null | undefined;
}
type UpdateIndexInput = z.output<typeof UpdateIndexBodySchema>;

const nameTaken = () =>
  conflict('Another index of your organisation already has this name.', 'index/name-taken');
const guardName = <T>(work: () => Promise<T>) => refuseUniqueViolation(work, nameTaken);

/** The knowledge bases of each index, with their names, in the tenant's order. */
async function knowledgeOf(db: Db, tenantId: string, indexIds: string[]) {
  const map = new Map<string, Array<{ id: string; name: string }>>(indexIds.map((id) => [id, []]));
  if (indexIds.length === 0) return map;
  const rows = await db
    .select({
      indexId: indexKnowledgeBases.indexId,
      id: indexKnowledgeBases.knowledgeBaseId,
      name: knowledgeBaseNameSql(indexKnowledgeBases.knowledgeBaseId, indexKnowledgeBases.tenantId),
    })
    .from(indexKnowledgeBases)
    .where(and(eq(indexKnowledgeBases.tenantId, tenantId), inArray(indexKnowledgeBases.indexId, indexIds)))
    .orderBy(asc(indexKnowledgeBases.position));
  for (const row of rows) map.get(row.indexId)?.push({ id: row.id, name: row.name });
  return map;
}

async function stored(db: Db, row: IndexRow): Promise<StoredIndex> {
  return { row, knowledge: (await knowledgeOf(db, row.tenantId, [row.id])).get(row.id) ?? [] };
}

export async function listIndexes(db: Db, principal: Principal, query: IndexListQuery) {
  const where = eq(indexes.tenantId, principal.tenantId);
  const [total] = await db.select({ n: count() }).from(indexes).where(where);
  const rows = await db
    .select()
    .from(indexes)
    .where(where)
    .orderBy(asc(indexes.name), asc(indexes.id))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  const knowledge = await knowledgeOf(
    db,
    principal.tenantId,
    rows.map((row) => row.id),
  );
  return {
    items: rows.map((row) => ({ row, knowledge: knowledge.get(row.id) ?? [] })),
    total: total?.n ?? 0,
  };
}

async function ownedRow(db: Db, principal: Principal, id: string): Promise<IndexRow> {
  const [row] = await db
    .select()
    .from(indexes)
    .where(and(eq(indexes.id, id), eq(indexes.tenantId, principal.tenantId)))
    .limit(1);
  if (!row) throw notFound(INDEX_NOT_FOUND);
  return row;
}

export async function getIndex(db: Db, principal: Principal, id: string): Promise<StoredIndex> {
  return stored(db, await ownedRow(db, principal, id));
}

/** Every id must be a knowledge base of the caller's tenant; another tenant's reads as unknown. */
async function assertOwnKnowledge(db: Db, principal: Principal, ids: string[]) {
  const found = await tenantKnowledgeBaseIds(db, principal.tenantId, ids);
  if (found.length !== new Set(ids).size) {
    throw badRequest(
      'A chosen knowledge base does not exist in your organisation.',
      'index/unknown-knowledge',
    );
  }
}

async function assertEmbeddingModel(db: Db, principal: Principal, modelId: string) {
  const offered = await availableModels({ db }, principal, 'embedding');
  if (!offered.some((model) => model.id === modelId)) {
    throw badRequest(
      'The embedding model is not offered to your organisation.',
      'index/unknown-embedding-model',
    );
  }
}

function assertModeHasModel(mode: IndexMode, modelId: string | null) {
  if (mode !== 'keyword' && !modelId) {
    throw badRequest(
      'Vector and hybrid retrieval need an embedding model.',
      'index/embedding-model-required',
    );
  }
}

const linksOf = (tenantId: string, indexId: string, ids: string[]) =>
  ids.map((knowledgeBaseId, position) => ({ tenantId, indexId, knowledgeBaseId, position }));

async function enqueue(deps: IndexesDeps, row: IndexRow) {
  const jobs = deps.jobs();
  if (jobs && row.embeddingState === 'pending') {
    await queueEmbedding(jobs, { tenantId: row.tenantId, indexId: row.id });
  }
}

/** Stores an index; a vector or hybrid one starts pending and its chunks are embedded in the background. */
export async function createIndex(
  deps: IndexesDeps,
  actor: Actor,
  input: CreateIndexInput,
): Promise<StoredIndex> {
  const { db } = deps;
  const { principal } = actor;
  const modelId = input.embedding_model_id ?? null;
  assertModeHasModel(input.mode, modelId);
  await assertOwnKnowledge(db, principal, input.knowledge_ids);
  if (modelId) await assertEmbeddingModel(db, principal, modelId);
  const by = actorId(principal);
  const row = await guardName(() =>
    db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(indexes)
        .values({
          tenantId: principal.tenantId,
          name: input.name,
          mode: input.mode,
          topK: input.top_k,
          scoreThreshold: input.score_threshold,
          embeddingModelId: modelId,
          embeddingState: input.mode === 'keyword' ? 'none' : 'pending',
          createdBy: by,
          updatedBy: by,
        })
        .returning();
      if (!inserted) throw new Error('index insert returned nothing');
      await tx
        .insert(indexKnowledgeBases)
        .values(linksOf(principal.tenantId, inserted.id, input.knowledge_ids));
      await writeAudit(tx, actor, {
        tenantId: principal.tenantId,
        action: 'index.create',
        target: inserted.id,
        details: { name: inserted.name, mode: inserted.mode },
      });
      return inserted;
    }),
  );
  await enqueue(deps, row);
  return stored(db, row);
}

/**
 * Changes an index. Turning vector retrieval on, or changing the model or the knowledge bases of a vector or
 * hybrid index, sets it pending and queues embedding; until ready it searches by keyword.
 */
export async function updateIndex(
  deps: IndexesDeps,
  actor: Actor,
  id: string,
  input: UpdateIndexInput,
): Promise<StoredIndex> {
  const { db } = deps;
  const { principal } = actor;
  const current = await stored(db, await ownedRow(db, principal, id));
  const mode = input.mode ?? current.row.mode;
  const modelId =
    input.embedding_model_id === undefined ? current.row.embeddingModelId : input.embedding_model_id;
  assertModeHasModel(mode, modelId);
  if (input.knowledge_ids) await assertOwnKnowledge(db, principal, input.knowledge_ids);
  if (input.embedding_model_id) await assertEmbeddingModel(db, principal, input.embedding_model_id);

  const currentIds = current.knowledge.map((base) => base.id);
  const knowledgeChanged =
    input.knowledge_ids !== undefined && input.knowledge_ids.join(',') !== currentIds.join(',');
  const modelChanged = modelId !== current.row.embeddingModelId;
  const embeddingFields: Partial<IndexRow> =
    mode === 'keyword'
      ? {
          embeddingState: 'none',
          embeddingDone: 0,
          embeddingTotal: 0,
          embeddingErrorCode: null,
          embeddingErrorReason: null,
        }
      : current.row.mode === 'keyword' ||
          modelChanged ||
          knowledgeChanged ||
          current.row.embeddingState === 'failed' ||
          current.row.embeddingState === 'none'
        ? {
            embeddingState: 'pending',
            embeddingDone: 0,
            embeddingTotal: 0,
            embeddingErrorCode: null,
            embeddingErrorReason: null,
          }
        : {};
  const row = await guardName(() =>
    db.transaction(async (tx) => {
      const [updated] = await tx
        .update(indexes)
        .set({
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.top_k === undefined ? {} : { topK: input.top_k }),
          ...(input.score_threshold === undefined ? {} : { scoreThreshold: input.score_threshold }),
          mode,
          embeddingModelId: modelId,
          ...embeddingFields,
          updatedBy: actorId(principal),
          updatedAt: new Date(),
        })
        .where(and(eq(indexes.id, id), eq(indexes.tenantId, principal.tenantId)))
        .returning();
      if (!updated) throw notFound(INDEX_NOT_FOUND);
      if (input.knowledge_ids && knowledgeChanged) {
        await tx
          .delete(indexKnowledgeBases)
          .where(
            and(eq(indexKnowledgeBases.tenantId, principal.tenantId), eq(indexKnowledgeBases.indexId, id)),
          );
        await tx.insert(indexKnowledgeBases).values(linksOf(principal.tenantId, id, input.knowledge_ids));
      }
      await writeAudit(tx, actor, {
        tenantId: principal.tenantId,
        action: 'index.update',
        target: id,
        details: { fields: Object.keys(input) },
      });
      return updated;
    }),
  );
  await enqueue(deps, row);
  return stored(db, row);
}

/** Deletes an index; the chunk embeddings stay, shared with the other indexes of the same model. */
/** An index that a RAG uses is refused with 409 index/in-use (the RAG's foreign key restricts the delete). */
export async function deleteIndex(db: Db, actor: Actor, id: string): Promise<void> {
  const { principal } = actor;
  const row = await ownedRow(db, principal, id);
  try {
    await db.transaction(async (tx) => {
      await tx.delete(indexes).where(and(eq(indexes.id, id), eq(indexes.tenantId, principal.tenantId)));
      await writeAudit(tx, actor, {
        tenantId: principal.tenantId,
        action: 'index.delete',
        target: id,
        details: { name: row.name },
      });
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw conflict('RAGs use this index; point them at another index first.', 'index/in-use');
    }
    throw error;
  }
}

/** An index's name as a correlated subquery, for a later module's statement that lists rows naming an index. */
export const indexNameSql = (indexId: SQLWrapper, tenantId: SQLWrapper) =>
  sql<string>`(select ${indexes.name} from ${indexes} where ${indexes.id} = ${indexId} and ${indexes.tenantId} = ${tenantId})`;

/** The ids of the knowledge bases index `indexId` of the tenant covers (none for another tenant's). */
export async function indexKnowledgeBaseIds(db: Db, tenantId: string, indexId: string): Promise<string[]> {
  const rows = await db
    .select({ id: indexKnowledgeBases.knowledgeBaseId })
    .from(indexKnowledgeBases)
    .where(and(eq(indexKnowledgeBases.tenantId, tenantId), eq(indexKnowledgeBases.indexId, indexId)));
  return rows.map((row) => row.id);
}
