import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { rowsOf, type Db } from '../../db/client';
import { indexKnowledgeBases, indexes, type IndexRow } from '../../db/schema';
import type { JobRunner } from '../../jobs/queue';
import { type SecretBox, SecretBoxError } from '../../lib/secret-box';
import { modelById } from '../models/models.service';
import { type EmbeddingModel, modelFromRow, ProviderError } from '../models/providers';
import { ensureHnswIndex, storeEmbeddings } from './vectors';
import { loadIndex } from './search';
import type { GuardedWebFetch } from '../../lib/guarded-http/guarded-fetch';

const EMBED_JOB = 'index-embed';
/** pg-boss retries a failed embedding run this many times, waiting longer each time. */
const EMBED_RETRY_LIMIT = 3;
const EMBED_BATCH_SIZE = 64;

export interface EmbedJob {
  tenantId: string;
  indexId: string;
}

export interface EmbeddingDeps {
  db: Db;
  /** Opens the embedding model's API key. */
  secretBox: SecretBox;
  /** The guarded client model calls go through: a model's address is one a tenant supplies. */
  modelFetch: GuardedWebFetch;
  /** Whether the database has pgvector (HNSW indexes are then created for new vector lengths). */
  pgvector: boolean;
  log: FastifyBaseLogger;
  batchSize?: number;
}

/** Queues the embedding of an index's chunks; a failed run is retried with a growing delay. */
export async function queueEmbedding(jobs: JobRunner, job: EmbedJob): Promise<void> {
  await jobs.send(EMBED_JOB, job, { retryLimit: EMBED_RETRY_LIMIT, retryDelay: 5, retryBackoff: true });
}

/** Queues the embedding of every vector or hybrid index that covers a knowledge base (after new chunks). */
export async function queueEmbeddingForKnowledge(
  db: Db,
  jobs: JobRunner,
  target: { tenantId: string; knowledgeBaseId: string },
): Promise<number> {
  const covering = await db
    .select({ id: indexes.id })
    .from(indexes)
    .innerJoin(
      indexKnowledgeBases,
      and(eq(indexKnowledgeBases.tenantId, indexes.tenantId), eq(indexKnowledgeBases.indexId, indexes.id)),
    )
    .where(
      and(
        eq(indexes.tenantId, target.tenantId),
        eq(indexKnowledgeBases.knowledgeBaseId, target.knowledgeBaseId),
        ne(indexes.mode, 'keyword'),
      ),
    );
  for (const row of covering) await queueEmbedding(jobs, { tenantId: target.tenantId, indexId: row.id });
  return covering.length;
}

const ofIndex = (job: EmbedJob, modelId: string) =>
  and(eq(indexes.tenantId, job.tenantId), eq(indexes.id, job.indexId), eq(indexes.embeddingModelId, modelId));

/** Sets fields of the index only while it still uses `modelId`, so a run for a replaced model writes nothing. */
const setIndex = (db: Db, job: EmbedJob, modelId: string, values: Partial<IndexRow>) =>
  db
    .update(indexes)
    .set({ ...values })
    .where(ofIndex(job, modelId));

const coveredSql = (tenantId: string, knowledgeBaseIds: string[]) =>
  sql`c.tenant_id = ${tenantId} and c.knowledge_base_id in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(knowledgeBaseIds)}::jsonb))`;

async function progress(db: Db, tenantId: string, modelId: string, knowledgeBaseIds: string[]) {
  const [row] = rowsOf<{ total: number; done: number }>(
    await db.execute(sql`
      select count(*)::int as total,
        count(*) filter (where exists (
          select 1 from chunk_embeddings e where e.model_id = ${modelId}::uuid and e.chunk_id = c.id))::int as done
      from knowledge_chunks c where ${coveredSql(tenantId, knowledgeBaseIds)}`),
  );
  return { total: row?.total ?? 0, done: row?.done ?? 0 };
}

interface PendingChunk {
  id: string;
  knowledgeBaseId: string;
  text: string;
  headingPath: string[];
}

/**
 * Embeds the chunks of the index's knowledge bases that have no embedding for its model yet, batch by batch,
 * recording progress on the index; ends ready. A ready index that only catches up on new chunks stays ready.
 * A provider failure marks the index failed with the reason in plain words and is thrown for a retry.
 */
export async function runEmbedding(deps: EmbeddingDeps, job: EmbedJob): Promise<void> {
  const { db } = deps;
  const index = await loadIndex(db, job.tenantId, job.indexId);
  if (!index || index.row.mode === 'keyword' || !index.row.embeddingModelId) return;
  const modelId = index.row.embeddingModelId;
  const modelRow = await modelById(db, modelId);
  if (!modelRow || modelRow.kind !== 'embedding') return;
  const ids = index.knowledgeBaseIds;
  const wasReady = index.row.embeddingState === 'ready';
  const counts = await progress(db, job.tenantId, modelId, ids);
  await setIndex(db, job, modelId, {
    ...(wasReady ? {} : { embeddingState: 'embedding' as const }),
    embeddingDone: counts.done,
    embeddingTotal: counts.total,
    embeddingErrorCode: null,
    embeddingErrorReason: null,
  });
  try {
    const model = modelFromRow(modelRow, deps.secretBox, { fetch: deps.modelFetch });
    if (model.kind !== 'embedding') return;
    const { embedding } = model;
    let done = counts.done;
    for (;;) {
      const batch = rowsOf<PendingChunk>(
        await db.execute(sql`
          select c.id, c.knowledge_base_id as "knowledgeBaseId", c.text, c.heading_path as "headingPath"
          from knowledge_chunks c
          where ${coveredSql(job.tenantId, ids)} and not exists (
            select 1 from chunk_embeddings e where e.model_id = ${modelId}::uuid and e.chunk_id = c.id)
          order by c.id limit ${deps.batchSize ?? EMBED_BATCH_SIZE}`),
      );
      if (batch.length === 0) break;
      const vectors = await embedOnce(embedding, batch.map(textOf));
      await storeEmbeddings(
        db,
        job.tenantId,
        modelId,
        batch.map((chunk, position) => ({
          chunkId: chunk.id,
          knowledgeBaseId: chunk.knowledgeBaseId,
          vector: vectors[position] ?? [],
        })),
      );
      await ensureHnswIndex(db, deps.pgvector, vectors[0]?.length ?? 0);
      done += batch.length;
      await setIndex(db, job, modelId, {
        embeddingDone: done,
        embeddingTotal: Math.max(counts.total, done),
      });
    }
    // Fresh statistics let the planner choose between a tenant's b-tree range and the HNSW index.
    if (done > counts.done) await db.execute(sql`analyze chunk_embeddings`);
    const final = await progress(db, job.tenantId, modelId, ids);
    await setIndex(db, job, modelId, {
      embeddingState: 'ready',
      embeddingDone: final.done,
      embeddingTotal: final.total,
    });
  } catch (error) {
    await failIndex(deps, job, modelId, error);
  }
}

/** A connection dropped mid-run (a provider closing an idle keep-alive socket) is tried once more at once. */
async function embedOnce(model: EmbeddingModel, texts: string[]): Promise<number[][]> {
  try {
    return await model.embed(texts);
  } catch (error) {
    if (!(error instanceof ProviderError) || error.code !== 'provider/unreachable') throw error;
    return model.embed(texts);
  }
}

/** Which chunk text is embedded: its heading path, then its text, so a passage carries its section's topic. */
const textOf = (chunk: PendingChunk) =>
  chunk.headingPath.length > 0 ? `${chunk.headingPath.join(' > ')}\n${chunk.text}` : chunk.text;

async function failIndex(deps: EmbeddingDeps, job: EmbedJob, modelId: string, error: unknown) {
  if (error instanceof SecretBoxError) {
    // Retrying cannot help: the key must be entered again.
    await setIndex(deps.db, job, modelId, {
      embeddingState: 'failed',
      embeddingErrorCode: 'model/key-unreadable',
      embeddingErrorReason:
        "The embedding model's API key cannot be decrypted (the installation secret changed); enter the key again.",
    });
    return;
  }
  const failure =
    error instanceof ProviderError
      ? { code: error.code, reason: `Embedding failed: ${error.message}` }
      : {
          code: 'embed/failed',
          reason: 'Embedding failed because of an unexpected error; it will be tried again.',
        };
  if (!(error instanceof ProviderError))
    deps.log.error({ err: error, indexId: job.indexId }, 'embedding failed');
  await setIndex(deps.db, job, modelId, {
    embeddingState: 'failed',
    embeddingErrorCode: failure.code,
    embeddingErrorReason: failure.reason,
  });
  throw error;
}

/** Indexes a previous process left pending or embedding are queued again. Returns how many. */
export async function recoverEmbeddings(db: Db, jobs: JobRunner): Promise<number> {
  const stuck = await db
    .select({ tenantId: indexes.tenantId, id: indexes.id })
    .from(indexes)
    .where(inArray(indexes.embeddingState, ['pending', 'embedding']));
  for (const row of stuck) await queueEmbedding(jobs, { tenantId: row.tenantId, indexId: row.id });
  return stuck.length;
}

/** Runs the embedding worker and queues again what a previous process left unfinished. */
export async function startEmbedding(jobs: JobRunner, deps: EmbeddingDeps): Promise<void> {
  await jobs.work<EmbedJob>(EMBED_JOB, (job) => runEmbedding(deps, job));
  const recovered = await recoverEmbeddings(deps.db, jobs);
  if (recovered > 0) deps.log.info({ recovered }, 'index embeddings interrupted by a restart queued again');
}
