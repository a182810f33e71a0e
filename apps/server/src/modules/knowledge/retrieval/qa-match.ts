import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../../db/client';
import { BM25_B, BM25_K1, usableIds } from './bm25';
import { storableText } from './safe-text';

/**
 * A curated answer is given verbatim only when the pair's question is matched almost entirely by the
 * visitor's question (BM25 score / the pair question's own score) and most of the visitor's question, by
 * weight, is in the pair's question (so "standard shipping to Norway" does not take "express shipping").
 */
const QA_MIN_NORMALISED_SCORE = 0.7;
const QA_MIN_QUERY_COVERAGE = 0.5;

export interface QaMatchInput {
  tenantId: string;
  knowledgeBaseIds: readonly string[];
  question: string;
}

export interface QaMatch {
  qaId: string;
  sourceId: string;
  knowledgeBaseId: string;
  question: string;
  answer: string;
  score: number;
  /** BM25 of the visitor's question against the pair's question, over the pair question's score against itself. */
  normalisedScore: number;
  /** Share of the visitor's lexemes, weighted by idf (unseen lexemes weigh most), found in the pair's question. */
  queryCoverage: number;
}

/**
 * The curated Q&A pair that strongly matches a visitor's question, or null. BM25 over the tenant's pair
 * questions in the given knowledge bases, computed at query time from the question tsvectors.
 */
export async function matchQa(db: Db, input: QaMatchInput): Promise<QaMatch | null> {
  const ids = usableIds(input.knowledgeBaseIds);
  if (ids.length === 0 || input.question.trim() === '') return null;
  const k1 = BM25_K1;
  const b = BM25_B;
  const result = await db.execute(sql`
    with kb as (
      select k.id, k.ts_config from knowledge_bases k
      where k.tenant_id = ${input.tenantId} and k.id in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
    ),
    q as (
      select distinct kb.id as kb_id, l.lexeme from kb, unnest(to_tsvector(kb.ts_config::regconfig, ${storableText(input.question)})) l
    ),
    pairs as (
      select a.id, a.knowledge_base_id from knowledge_qa a
      where a.tenant_id = ${input.tenantId} and a.knowledge_base_id in (select id from kb)
    ),
    terms as (
      select a.id, u.lexeme, array_length(u.positions, 1)::float8 as tf
      from knowledge_qa a, unnest(a.question_tsv) u
      where a.tenant_id = ${input.tenantId} and a.id in (select id from pairs)
    ),
    lengths as (select id, sum(tf) as length from terms group by id),
    corpus as (select count(*)::float8 as n, avg(length) as avg_length from lengths),
    df as (select lexeme, count(*)::float8 as df from terms group by lexeme),
    weighted as (
      select t.id, t.lexeme,
        ln(1 + (c.n - d.df + 0.5) / (d.df + 0.5)) * (t.tf * ${k1 + 1}::float8)
          / (t.tf + ${k1}::float8 * (1 - ${b}::float8 + ${b}::float8 * l.length / c.avg_length)) as weight
      from terms t join lengths l on l.id = t.id join df d on d.lexeme = t.lexeme, corpus c
    ),
    query_idf as (
      select q.kb_id, q.lexeme, ln(1 + (c.n - coalesce(d.df, 0) + 0.5) / (coalesce(d.df, 0) + 0.5)) as idf
      from q left join df d on d.lexeme = q.lexeme, corpus c
    ),
    ranked as (
      select p.id,
        coalesce(sum(w.weight) filter (where qi.lexeme is not null), 0) as score,
        sum(w.weight) as self_score,
        coalesce(sum(qi.idf), 0) as shared_idf
      from pairs p
        join weighted w on w.id = p.id
        left join query_idf qi on qi.kb_id = p.knowledge_base_id and qi.lexeme = w.lexeme
      group by p.id
      having count(qi.lexeme) > 0
    )
    select a.id as "qaId", a.source_id as "sourceId", a.knowledge_base_id as "knowledgeBaseId", a.question, a.answer,
      r.score, r.score / nullif(r.self_score, 0) as "normalisedScore",
      r.shared_idf / nullif((select sum(qi.idf) from query_idf qi where qi.kb_id = a.knowledge_base_id), 0) as "queryCoverage"
    from ranked r join knowledge_qa a on a.id = r.id and a.tenant_id = ${input.tenantId}
    order by r.score desc, a.id
    limit 20
  `);
  const strong = rowsOf<QaMatch>(result)
    .map((row) => ({
      ...row,
      score: Number(row.score),
      normalisedScore: Number(row.normalisedScore),
      queryCoverage: Number(row.queryCoverage),
    }))
    .filter(
      (row) => row.normalisedScore >= QA_MIN_NORMALISED_SCORE && row.queryCoverage >= QA_MIN_QUERY_COVERAGE,
    );
  return strong[0] ?? null;
}
