import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { indexKnowledgeBases, indexes, knowledgeQa, knowledgeSources, type IndexRow } from '../../db/schema';
import { searchKeyword, type KeywordHit } from '../knowledge/retrieval/retrieval';
import type { Passage } from '../rag/answer';

export type RetrievalMode = IndexRow['mode'];

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
  /** The index as loadIndex read it for the same tenant, so it is not read twice. */
  index?: LoadedIndex;
}

/** One of the tenant's indexes as retrieval needs it. */
export interface LoadedIndex {
  row: IndexRow;
  /** The knowledge bases it covers, in their order. */
  knowledgeBaseIds: string[];
  /** Whether those knowledge bases hold any curated Q&A pair (without one, Q&A matching can find nothing). */
  hasQa: boolean;
}

/**
 * The tenant's index with the knowledge bases it covers and whether they hold Q&A pairs, in one statement;
 * null when it is not the tenant's.
 */
export async function loadIndex(db: Db, tenantId: string, indexId: string): Promise<LoadedIndex | null> {
  const links = sql`select l.knowledge_base_id from ${indexKnowledgeBases} l
    where l.tenant_id = ${tenantId} and l.index_id = ${indexes.id}`;
  const [found] = await db
    .select({
      row: indexes,
      knowledgeBaseIds: sql<
        string[]
      >`coalesce((select array_agg(l.knowledge_base_id::text order by l.position)
        from ${indexKnowledgeBases} l where l.tenant_id = ${tenantId} and l.index_id = ${indexes.id}), '{}'::text[])`,
      hasQa: sql<boolean>`exists (select 1 from ${knowledgeQa} a
        where a.tenant_id = ${tenantId} and a.knowledge_base_id in (${links}))`,
    })
    .from(indexes)
    .where(and(eq(indexes.tenantId, tenantId), eq(indexes.id, indexId)));
  if (!found) return null;
  return { row: found.row, knowledgeBaseIds: found.knowledgeBaseIds, hasQa: Boolean(found.hasQa) };
}

/** Titles and links of the sources of some hits, read with the tenant filter. */
async function withSources(db: Db, tenantId: string, hits: KeywordHit[]): Promise<IndexHit[]> {
  const sourceIds = [...new Set(hits.map((hit) => hit.sourceId))];
  if (sourceIds.length === 0) return [];
  const sources = await db
    .select({
      id: knowledgeSources.id,
      type: knowledgeSources.type,
      title: knowledgeSources.title,
      url: knowledgeSources.url,
      path: knowledgeSources.path,
    })
    .from(knowledgeSources)
    .where(and(eq(knowledgeSources.tenantId, tenantId), inArray(knowledgeSources.id, sourceIds)));
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
 * Retrieves from one of the tenant's indexes with its mode, top_k and score threshold; hits scoring below the
 * threshold are dropped. Null when the index is not the tenant's. The tenant filter is in every statement.
 */
export async function searchIndex(db: Db, input: IndexSearchInput): Promise<IndexSearchResult | null> {
  const started = performance.now();
  const index =
    input.index?.row.tenantId === input.tenantId && input.index.row.id === input.indexId
      ? input.index
      : await loadIndex(db, input.tenantId, input.indexId);
  if (!index) return null;
  const topK = input.topK ?? index.row.topK;
  const keywordHits = await searchKeyword(db, {
    tenantId: input.tenantId,
    knowledgeBaseIds: index.knowledgeBaseIds,
    query: input.query,
    topK,
  });
  const kept = keywordHits.filter((hit) => hit.score >= index.row.scoreThreshold);
  const hits = await withSources(db, input.tenantId, kept);
  return { mode: 'keyword', hits, tookMs: performance.now() - started };
}
