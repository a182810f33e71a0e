import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import { chunkEmbeddings } from '../../db/schema';
import { usableIds, type KeywordHit } from '../knowledge/retrieval/bm25';

/** pgvector's HNSW indexes take vectors of at most this many dimensions; longer ones are always scanned exactly. */
const HNSW_MAX_DIMENSIONS = 2000;
/** Up to this many covered embeddings a search compares them all (exact and fast enough); beyond, it uses HNSW. */
const EXACT_SCAN_LIMIT = 20_000;

/** HNSW searches look at no fewer candidates than this (pgvector's ef_search), whatever top_k. */
const HNSW_MIN_CANDIDATES = 100;

export type VectorStrategy = 'auto' | 'exact' | 'hnsw';

/** The vector scaled to length 1, so that a dot product is the cosine similarity; null for a zero vector. */
function normalise(vector: readonly number[]): number[] | null {
  const norm = Math.hypot(...vector);
  if (!Number.isFinite(norm) || norm === 0) return null;
  return vector.map((value) => value / norm);
}

const arrayLiteral = (vector: readonly number[]) => `{${vector.join(',')}}`;
const vectorLiteral = (vector: readonly number[]) => `[${vector.join(',')}]`;

/** A dimension count as SQL text: the HNSW index's typmod and partial predicate must be literals to match. */
function dimensionsSql(dimensions: number): SQL {
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 16_000) {
    throw new Error(`invalid vector length ${dimensions}`);
  }
  return sql.raw(String(dimensions));
}

const created = new WeakMap<Db, Set<number>>();

/**
 * Creates, once per vector length, the partial HNSW index over `(embedding::vector(D))` for cosine distance.
 * Does nothing without pgvector or beyond HNSW_MAX_DIMENSIONS.
 */
export async function ensureHnswIndex(db: Db, pgvector: boolean, dimensions: number): Promise<void> {
  if (!pgvector || dimensions > HNSW_MAX_DIMENSIONS) return;
  const done = created.get(db) ?? new Set<number>();
  created.set(db, done);
  if (done.has(dimensions)) return;
  const d = dimensionsSql(dimensions);
  await db.execute(
    sql`create index if not exists ${sql.raw(`chunk_embeddings_hnsw_${dimensions}`)} on chunk_embeddings
      using hnsw ((embedding::vector(${d})) vector_cosine_ops) where dimensions = ${d}`,
  );
  done.add(dimensions);
}

export interface StoredEmbedding {
  chunkId: string;
  knowledgeBaseId: string;
  vector: number[];
}

/** Stores chunk embeddings of a model (normalised); one already stored for the chunk and model is kept. */
export async function storeEmbeddings(
  db: Db,
  tenantId: string,
  modelId: string,
  embeddings: readonly StoredEmbedding[],
): Promise<void> {
  const rows = embeddings.flatMap((item) => {
    const unit = normalise(item.vector);
    return unit
      ? [
          {
            modelId,
            chunkId: item.chunkId,
            tenantId,
            knowledgeBaseId: item.knowledgeBaseId,
            dimensions: unit.length,
            embedding: unit,
          },
        ]
      : [];
  });
  if (rows.length === 0) return;
  await db.insert(chunkEmbeddings).values(rows).onConflictDoNothing();
}

export interface VectorSearchInput {
  tenantId: string;
  modelId: string;
  knowledgeBaseIds: readonly string[];
  /** The query's embedding (any length; it is normalised here). */
  vector: readonly number[];
  topK: number;
  /** Whether the database has pgvector. */
  pgvector: boolean;
  /** `auto` scans exactly up to EXACT_SCAN_LIMIT covered embeddings and uses HNSW beyond. */
  strategy?: VectorStrategy;
}

const hitColumns = sql`ch.id as "chunkId", ch.source_id as "sourceId", ch.knowledge_base_id as "knowledgeBaseId",
  s.score, ch.text, ch.heading_path as "headingPath", ch.page`;

/**
 * Ranks the tenant's chunk embeddings of one model in the given knowledge bases by cosine similarity to the
 * query (the hit score, -1 to 1). The tenant filter is in the same statement as the ranking: with pgvector's
 * HNSW index, iterative scanning keeps looking past other tenants' neighbours until top_k of the tenant's
 * are found.
 */
export async function searchVector(db: Db, input: VectorSearchInput): Promise<KeywordHit[]> {
  const ids = usableIds(input.knowledgeBaseIds);
  const query = normalise(input.vector);
  if (ids.length === 0 || !query) return [];
  const topK = Math.min(Math.max(Math.trunc(input.topK), 1), 200);
  const d = dimensionsSql(query.length);
  const scope = sql`e.tenant_id = ${input.tenantId} and e.model_id = ${input.modelId}::uuid
    and e.dimensions = ${d}
    and e.knowledge_base_id in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;
  const finish = (candidates: SQL) => sql`
    select ${hitColumns} from (${candidates}) s
    join knowledge_chunks ch on ch.id = s.chunk_id and ch.tenant_id = ${input.tenantId}
    order by s.score desc, s.chunk_id`;

  if (!input.pgvector) {
    const result = await db.execute(
      finish(sql`
        select e.chunk_id,
          (select sum(a::float8 * b::float8) from unnest(e.embedding, ${arrayLiteral(query)}::real[]) u(a, b)) as score
        from chunk_embeddings e where ${scope}
        order by score desc, e.chunk_id limit ${topK}`),
    );
    return toHits(result);
  }

  const strategy = input.strategy ?? 'auto';
  let useHnsw = strategy === 'hnsw' && query.length <= HNSW_MAX_DIMENSIONS;
  if (strategy === 'auto' && query.length <= HNSW_MAX_DIMENSIONS) {
    const [row] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from chunk_embeddings e where ${scope}`),
    );
    useHnsw = (row?.n ?? 0) > EXACT_SCAN_LIMIT;
  }
  const q = sql`${vectorLiteral(query)}::vector(${d})`;
  if (!useHnsw) {
    // "+ 0" keeps the planner off the HNSW index, so every covered embedding is compared.
    const result = await db.execute(
      finish(sql`
        select e.chunk_id, 1 - (e.embedding::vector(${d}) <=> ${q}) as score
        from chunk_embeddings e where ${scope}
        order by (e.embedding::vector(${d}) <=> ${q}) + 0, e.chunk_id limit ${topK}`),
    );
    return toHits(result);
  }
  await ensureHnswIndex(db, true, query.length);
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local hnsw.iterative_scan = relaxed_order`);
    // A wider beam and more candidates than asked for, re-ranked exactly: relaxed order returns neighbours
    // roughly sorted, and pgvector's default beam of 40 misses many of them.
    const candidates = Math.max(HNSW_MIN_CANDIDATES, topK * 4);
    await tx.execute(sql.raw(`set local hnsw.ef_search = ${candidates}`));
    const result = await tx.execute(
      sql`${finish(sql`
        select e.chunk_id, 1 - (e.embedding::vector(${d}) <=> ${q}) as score
        from chunk_embeddings e where ${scope}
        order by e.embedding::vector(${d}) <=> ${q} limit ${candidates}`)} limit ${topK}`,
    );
    return toHits(result);
  });
}

function toHits(result: unknown): KeywordHit[] {
  return rowsOf<KeywordHit>(result).map((row) => ({ ...row, score: Number(row.score) }));
}
