import { RRF_K } from '@omnibot/contracts';
import { and, eq, type Placeholder, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { indexKnowledgeBases, indexes, type IndexRow } from '../../db/schema';
import type { SecretBox } from '../../lib/secret-box';
import { keywordRankingSql, MAX_TOP_K } from '../knowledge/retrieval/bm25';
import {
  searchKeyword,
  searchKeywordWithSources,
  type KeywordHit,
  type KeywordSourceHit,
} from '../knowledge/retrieval/retrieval';
import { modelById } from '../models/models.service';
import { modelFromRow } from '../models/providers';
import { holdsQaSql, sourceLinksOf } from '../knowledge/knowledge.service';
import { searchVector, type VectorStrategy } from './vectors';
import type { GuardedWebFetch } from '../../lib/guarded-http/guarded-fetch';

export type RetrievalMode = IndexRow['mode'];

/** A ranked retrieval hit handed to the answering step; the first is the best. */
export interface Passage {
  chunkId: string;
  sourceId: string;
  text: string;
  score: number;
  title: string;
  url?: string | null;
  headingPath: string[];
  page?: number | null;
}

/** A ranked hit of an index: a passage the answering step can cite, with the knowledge base it comes from. */
export interface IndexHit extends Passage {
  knowledgeBaseId: string;
  url: string | null;
  page: number | null;
}

export interface IndexSearchResult {
  /** The mode that ran (keyword while a vector index's embeddings are not ready). */
  mode: RetrievalMode;
  hits: IndexHit[];
  tookMs: number;
}

export interface IndexSearchInput {
  tenantId: string;
  indexId: string;
  query: string;
  /** Overrides the index's top_k. */
  topK?: number;
  /** What vector and hybrid retrieval need; without it every index searches by keyword. */
  vector?: VectorSearchDeps;
  /** The index as loadIndex read it for the same tenant, so it is not read twice. */
  index?: LoadedIndex;
}

export interface VectorSearchDeps {
  /** Opens the embedding model's API key to embed the query. */
  secretBox: SecretBox;
  /** The guarded client model calls go through: a model's address is one a tenant supplies. */
  modelFetch: GuardedWebFetch;
  /** Whether the database has pgvector. */
  pgvector: boolean;
  /** How vectors are compared (tests force one); auto by default. */
  strategy?: VectorStrategy;
  /** Upper bound of the query's embedding call; it falls back to keyword retrieval when exceeded. */
  timeoutMs?: number;
}

/** Each list of a hybrid search holds this many times top_k candidates before fusion. */
const HYBRID_CANDIDATES_FACTOR = 4;
const QUERY_EMBED_TIMEOUT_MS = 15_000;

/** The columns of an index row that searching and answering read; a statement that loads an index reads only these. */
export const searchedIndexColumns = {
  id: indexes.id,
  tenantId: indexes.tenantId,
  mode: indexes.mode,
  topK: indexes.topK,
  scoreThreshold: indexes.scoreThreshold,
  embeddingModelId: indexes.embeddingModelId,
  embeddingState: indexes.embeddingState,
};
export type SearchedIndex = Pick<IndexRow, keyof typeof searchedIndexColumns>;

/** One of the tenant's indexes as retrieval needs it. */
export interface LoadedIndex {
  row: SearchedIndex;
  /** The knowledge bases it covers, in their order. */
  knowledgeBaseIds: string[];
  /** Whether those knowledge bases hold any curated Q&A pair (without one, Q&A matching can find nothing). */
  hasQa: boolean;
  /**
   * The keyword hits for `query`, read in the statement that read the index (indexKeywordHitsColumn), and that
   * statement's duration; searchIndex uses them instead of searching again when it searches by keyword.
   */
  keyword?: { query: string; hits: KeywordSourceHit[]; tookMs: number };
}

/**
 * The tenant's index with the knowledge bases it covers and whether they hold Q&A pairs, in one statement;
 * null when it is not the tenant's.
 */
export async function loadIndex(db: Db, tenantId: string, indexId: string): Promise<LoadedIndex | null> {
  const [found] = await db
    .select({ row: searchedIndexColumns, ...loadedIndexColumns(tenantId) })
    .from(indexes)
    .where(and(eq(indexes.tenantId, tenantId), eq(indexes.id, indexId)));
  if (!found) return null;
  return { row: found.row, knowledgeBaseIds: found.knowledgeBaseIds, hasQa: Boolean(found.hasQa) };
}

/**
 * The join that loads index `indexId` of tenant `tenantId` beside a later module's row (`.leftJoin(...indexJoin())`),
 * so searchedIndexColumns and loadedIndexColumns can be read in the same statement.
 */
export const indexJoin = (tenantId: SQLWrapper | Placeholder, indexId: SQLWrapper) =>
  [indexes, and(eq(indexes.tenantId, tenantId), eq(indexes.id, indexId))] as const;

/**
 * What loadIndex reads beside the index row, as columns of any select that includes `indexes` (a join that
 * loads the index with another row in one statement); every subquery is filtered by the tenant.
 */
export function loadedIndexColumns(tenantId: string | Placeholder) {
  const links = sql`select l.knowledge_base_id from ${indexKnowledgeBases} l
    where l.tenant_id = ${tenantId} and l.index_id = ${indexes.id}`;
  return {
    knowledgeBaseIds: sql<string[]>`coalesce((select array_agg(l.knowledge_base_id::text order by l.position)
        from ${indexKnowledgeBases} l where l.tenant_id = ${tenantId} and l.index_id = ${indexes.id}), '{}'::text[])`,
    hasQa: holdsQaSql(tenantId, links),
  };
}

/**
 * A column for a select that includes `indexes`: the hits searchIndex's keyword path finds for `query` (given
 * as storableText gives it), ranked by keywordRankingSql over the index's knowledge bases with its top_k and
 * with their sources, as JSON; null when the index searches by vector (embeddings ready), so no statement pays
 * for a ranking it would not use. Every table is filtered by the tenant.
 */
export function indexKeywordHitsColumn(
  tenantId: string | Placeholder,
  query: string | Placeholder,
): SQL<KeywordSourceHit[] | null> {
  const ranking = keywordRankingSql({
    tenantId,
    knowledgeBaseIds: sql`select l.knowledge_base_id from ${indexKnowledgeBases} l
      where l.tenant_id = ${tenantId} and l.index_id = ${indexes.id}`,
    query,
    topK: sql`least(greatest(${indexes.topK}, 1), ${MAX_TOP_K})`,
    withSources: true,
  });
  return sql<
    KeywordSourceHit[] | null
  >`case when ${indexes.id} is not null and not (${indexes.mode} <> 'keyword'
      and ${indexes.embeddingState} = 'ready' and ${indexes.embeddingModelId} is not null)
    then (select coalesce(json_agg(json_build_object('chunkId', h."chunkId", 'sourceId', h."sourceId",
        'knowledgeBaseId', h."knowledgeBaseId", 'score', h.score, 'text', h.text, 'headingPath', h."headingPath",
        'page', h.page, 'title', h.title, 'url', h.url) order by h.score desc, h."chunkId"), '[]'::json)
      from (${ranking}) h)
    end`;
}

const indexHitOf = (hit: KeywordSourceHit): IndexHit => ({
  chunkId: hit.chunkId,
  sourceId: hit.sourceId,
  knowledgeBaseId: hit.knowledgeBaseId,
  text: hit.text,
  score: hit.score,
  title: hit.title,
  url: hit.url,
  headingPath: hit.headingPath,
  page: hit.page ?? null,
});

/** Titles and links of the sources of some hits, read with the tenant filter. */
async function withSources(db: Db, tenantId: string, hits: KeywordHit[]): Promise<IndexHit[]> {
  const sourceIds = [...new Set(hits.map((hit) => hit.sourceId))];
  if (sourceIds.length === 0) return [];
  const sources = await sourceLinksOf(db, tenantId, sourceIds);
  const byId = new Map(sources.map((source) => [source.id, source]));
  return hits.flatMap((hit) => {
    const source = byId.get(hit.sourceId);
    if (!source) return [];
    const link = source.url ?? source.path ?? null;
    return [
      {
        chunkId: hit.chunkId,
        sourceId: hit.sourceId,
        knowledgeBaseId: hit.knowledgeBaseId,
        text: hit.text,
        score: hit.score,
        title: source.title ?? link ?? 'Untitled',
        url: link,
        headingPath: hit.headingPath,
        page: hit.page ?? null,
      },
    ];
  });
}

/**
 * Reciprocal-rank fusion: each list adds 1 / (RRF_K + rank) for a chunk, and the sum is scaled so that first
 * place in both lists scores 1. Ties keep the order of the first list.
 */
function fuseByRank(lists: readonly KeywordHit[][], topK: number): KeywordHit[] {
  const best = lists.length / (RRF_K + 1);
  const fused = new Map<string, { hit: KeywordHit; score: number; order: number }>();
  let order = 0;
  for (const list of lists) {
    list.forEach((hit, position) => {
      const entry = fused.get(hit.chunkId) ?? { hit, score: 0, order: order++ };
      entry.score += 1 / (RRF_K + position + 1);
      fused.set(hit.chunkId, entry);
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, topK)
    .map((entry) => ({ ...entry.hit, score: entry.score / best }));
}

/** The query's embedding with the index's model, or null when it cannot be had (retrieval falls back to keyword). */
async function embedQuery(db: Db, deps: VectorSearchDeps, modelId: string, query: string) {
  try {
    const row = await modelById(db, modelId);
    if (!row) return null;
    const model = modelFromRow(row, deps.secretBox, {
      timeoutMs: deps.timeoutMs ?? QUERY_EMBED_TIMEOUT_MS,
      fetch: deps.modelFetch,
    });
    if (model.kind !== 'embedding') return null;
    const [vector] = await model.embedding.embed([query]);
    return vector ?? null;
  } catch {
    return null;
  }
}

/**
 * Retrieves from one of the tenant's indexes with its mode, top_k and score threshold; hits scoring below the
 * threshold are dropped. Vector and hybrid indexes search by keyword until their embeddings are ready, and when
 * the query cannot be embedded. Null when the index is not the tenant's. The tenant filter is in every statement.
 */
export async function searchIndex(db: Db, input: IndexSearchInput): Promise<IndexSearchResult | null> {
  const started = performance.now();
  const index =
    input.index?.row.tenantId === input.tenantId && input.index.row.id === input.indexId
      ? input.index
      : await loadIndex(db, input.tenantId, input.indexId);
  if (!index) return null;
  const { row, knowledgeBaseIds } = index;
  const topK = input.topK ?? row.topK;
  const vectorDeps = input.vector;
  const keyword = (k: number) =>
    searchKeyword(db, { tenantId: input.tenantId, knowledgeBaseIds, query: input.query, topK: k });

  let mode: RetrievalMode = 'keyword';
  let ranked: KeywordHit[] | null = null;
  if (row.mode !== 'keyword' && row.embeddingState === 'ready' && row.embeddingModelId && vectorDeps) {
    const modelId = row.embeddingModelId;
    const queryVector = await embedQuery(db, vectorDeps, modelId, input.query);
    if (queryVector) {
      const vector = (k: number) =>
        searchVector(db, {
          tenantId: input.tenantId,
          modelId,
          knowledgeBaseIds,
          vector: queryVector,
          topK: k,
          pgvector: vectorDeps.pgvector,
          ...(vectorDeps.strategy ? { strategy: vectorDeps.strategy } : {}),
        });
      if (row.mode === 'vector') {
        ranked = await vector(topK);
      } else {
        const candidates = topK * HYBRID_CANDIDATES_FACTOR;
        ranked = fuseByRank([await keyword(candidates), await vector(candidates)], topK);
      }
      mode = row.mode;
    }
  }
  if (!ranked) {
    // Keyword alone: the sources' titles and links come in the search statement itself, or came with the index.
    const read = index.keyword;
    const found =
      read && read.query === input.query && topK === row.topK
        ? read.hits
        : await searchKeywordWithSources(db, {
            tenantId: input.tenantId,
            knowledgeBaseIds,
            query: input.query,
            topK,
          });
    const hits = found.filter((hit) => hit.score >= row.scoreThreshold).map(indexHitOf);
    return { mode, hits, tookMs: performance.now() - started };
  }
  const kept = ranked.filter((hit) => hit.score >= row.scoreThreshold);
  const hits = await withSources(db, input.tenantId, kept);
  return { mode, hits, tookMs: performance.now() - started };
}
