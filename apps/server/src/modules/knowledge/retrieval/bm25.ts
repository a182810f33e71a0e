import { sql, type SQL } from 'drizzle-orm';
import { executePrepared, rowsOf, type Db } from '../../../db/client';
import { storableText } from './safe-text';

/** Textbook BM25 parameters: term-frequency saturation and length normalisation. */
export const BM25_K1 = 0.9;
export const BM25_B = 0.4;
/**
 * What one occurrence in a chunk's labels (its source's title and heading path) counts for, against one in its
 * text: a label finds and lifts a chunk, and the same word in a text still ranks above it.
 */
const BM25_LABEL_WEIGHT = 0.5;

/** The term frequency BM25 scores: occurrences in the text, plus those in the labels at their weight. */
export function bm25Frequency(tf: number, labelTf: number): number {
  return tf + BM25_LABEL_WEIGHT * labelTf;
}

export interface KeywordSearchInput {
  tenantId: string;
  knowledgeBaseIds: readonly string[];
  query: string;
  topK: number;
}

export interface KeywordSqlOptions {
  /** Also selects each hit's source title and link (hits whose source is gone are dropped). */
  withSources?: boolean;
}

export interface KeywordHit {
  chunkId: string;
  sourceId: string;
  knowledgeBaseId: string;
  score: number;
  text: string;
  headingPath: string[];
  page: number | null;
}

/** A keyword hit with its source's title (its link, or 'Untitled', without one) and link (url or path). */
export interface KeywordSourceHit extends KeywordHit {
  title: string;
  url: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const MAX_TOP_K = 100;

/** Knowledge base ids that can match a row; anything else can match nothing and is dropped. */
export function usableIds(ids: readonly string[]): string[] {
  return [...new Set(ids.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
}

/** BM25's inverse document frequency: ln(1 + (N - df + 0.5) / (df + 0.5)). */
export function bm25Idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/** One term's BM25 contribution for a document of length `length` in a corpus of average length `avgLength`. */
export function bm25Term(idf: number, tf: number, length: number, avgLength: number): number {
  return (idf * (tf * (BM25_K1 + 1))) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * length) / avgLength));
}

/**
 * Ranks the chunks of the tenant's knowledge bases by BM25 over the query's lexemes with OR semantics (a
 * chunk matching any lexeme is a candidate), in one statement; an occurrence in a chunk's labels (its source's
 * title and heading path) counts BM25_LABEL_WEIGHT of one in its text. The query is tokenised with each knowledge
 * base's own text-search configuration; N, the average length and each lexeme's document frequency are
 * taken over all the given knowledge bases together, at query time.
 */
export async function searchKeyword(db: Db, input: KeywordSearchInput): Promise<KeywordHit[]> {
  const query = keywordSearchSql(input);
  if (!query) return [];
  const result = await db.execute(query);
  return rowsOf<KeywordHit>(result).map((row) => ({ ...row, score: Number(row.score) }));
}

/**
 * searchKeyword with each hit's source title and link read in the same statement (the tenant filter on the
 * sources too); hits whose source is gone are dropped.
 */
export async function searchKeywordWithSources(
  db: Db,
  input: KeywordSearchInput,
): Promise<KeywordSourceHit[]> {
  const query = keywordSearchSql(input, { withSources: true });
  if (!query) return [];
  const rows = await executePrepared<KeywordSourceHit>(db, 'keyword_search', query);
  return rows.map((row) => ({ ...row, score: Number(row.score) }));
}

/** The statement searchKeyword sends, or null when nothing can match; exposed so benchmarks can EXPLAIN it. */
export function keywordSearchSql(input: KeywordSearchInput, options: KeywordSqlOptions = {}): SQL | null {
  const ids = usableIds(input.knowledgeBaseIds);
  const topK = Number.isFinite(input.topK) ? Math.min(Math.max(Math.trunc(input.topK), 1), MAX_TOP_K) : 10;
  if (ids.length === 0 || input.query.trim() === '') return null;
  return keywordRankingSql({
    tenantId: input.tenantId,
    knowledgeBaseIds: sql`select value::uuid from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)`,
    query: storableText(input.query),
    topK,
    withSources: options.withSources ?? false,
  });
}

/** What keywordRankingSql ranks: values, placeholders or SQL over an outer row (a statement that reads an index). */
export interface KeywordRankingParts {
  tenantId: unknown;
  /** A select of the knowledge base ids to search (only the tenant's count). */
  knowledgeBaseIds: SQL;
  /** The query text as storableText gives it. */
  query: unknown;
  /** How many hits, between 1 and MAX_TOP_K. */
  topK: number | SQL;
  withSources: boolean;
}

/** The BM25 ranking of keywordSearchSql, its parts given as values or SQL. */
export function keywordRankingSql(parts: KeywordRankingParts): SQL {
  const { tenantId } = parts;
  const sources = parts.withSources
    ? {
        columns: sql`, coalesce(src.title, src.url, src.path, 'Untitled') as title, coalesce(src.url, src.path) as url`,
        join: sql` join knowledge_sources src on src.id = ch.source_id and src.tenant_id = ${tenantId}`,
      }
    : { columns: sql``, join: sql`` };
  return sql`
    with kb as (
      select k.id, k.ts_config from knowledge_bases k
      where k.tenant_id = ${tenantId} and k.id in (${parts.knowledgeBaseIds})
    ),
    q as (
      select distinct kb.id as kb_id, l.lexeme
      from kb, unnest(to_tsvector(kb.ts_config::regconfig, ${parts.query})) l
    ),
    -- Materialised: computed once, not once per matched posting.
    corpus as materialized (
      select sum(s.chunk_count)::float8 as n, (sum(s.total_length)::float8 / nullif(sum(s.chunk_count), 0)) as avg_length
      from knowledge_base_stats s
      where s.tenant_id = ${tenantId} and s.knowledge_base_id in (select id from kb)
    ),
    matched as (
      select p.chunk_id, (p.tf + ${BM25_LABEL_WEIGHT}::float8 * p.label_tf) as tf, p.length::float8 as length,
        count(*) over (partition by p.lexeme)::float8 as df
      from q join knowledge_postings p
        on p.tenant_id = ${tenantId} and p.knowledge_base_id = q.kb_id and p.lexeme = q.lexeme
    ),
    scored as (
      select m.chunk_id,
        sum(
          ln(1 + (c.n - m.df + 0.5) / (m.df + 0.5))
          * (m.tf * ${BM25_K1 + 1}::float8)
          / (m.tf + ${BM25_K1}::float8 * (1 - ${BM25_B}::float8 + ${BM25_B}::float8 * m.length / c.avg_length))
        ) as score
      from matched m, corpus c
      group by m.chunk_id
      order by score desc, m.chunk_id
      limit ${parts.topK}
    )
    select ch.id as "chunkId", ch.source_id as "sourceId", ch.knowledge_base_id as "knowledgeBaseId", s.score,
      ch.text, ch.heading_path as "headingPath", ch.page${sources.columns}
    from scored s join knowledge_chunks ch on ch.id = s.chunk_id and ch.tenant_id = ${tenantId}${sources.join}
    order by s.score desc, s.chunk_id
  `;
}
