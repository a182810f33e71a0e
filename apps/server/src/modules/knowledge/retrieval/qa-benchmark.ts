import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../../db/client';
import { bm25Frequency, bm25Idf, bm25Term, searchKeyword } from './bm25';
import { indexChunks } from './index-store';
import { addKnowledgeBase, addSource, addTenant, chunkOf } from './retrieval.test-support';

// Question-answering benchmark support, shared by qa-benchmark.test.ts and bench/qa.mjs: a public question set
// indexed through indexChunks, each question asked through searchKeyword and through textbook BM25 computed in
// TypeScript over the same postings, and the expected paragraph looked for in both rankings.

export interface QaParagraph {
  id: string;
  chapter: string;
  text: string;
}

export interface QaQuestion {
  question: string;
  expected: string;
}

export interface QaSet {
  paragraphs: QaParagraph[];
  questions: QaQuestion[];
}

export interface QaData {
  source: string;
  licence: string;
  languages: Record<string, QaSet>;
}

/** The Debian FAQ question set (fixtures/debian-faq.json.gz; its README.md says where it comes from). */
export function loadDebianFaq(): QaData {
  const bytes = readFileSync(new URL('./fixtures/debian-faq.json.gz', import.meta.url));
  return JSON.parse(gunzipSync(bytes).toString('utf8')) as QaData;
}

export interface IndexedQaSet {
  tenantId: string;
  knowledgeBaseId: string;
  config: string;
  /** Paragraph id by chunk id. */
  paragraphOf: Map<string, string>;
}

/** Indexes a question set's paragraphs in a new tenant's knowledge base, one source per chapter. */
export async function indexQaSet(
  db: Db,
  tenantId: string,
  language: string,
  set: QaSet,
): Promise<IndexedQaSet> {
  await addTenant(db, tenantId);
  const kb = await addKnowledgeBase(db, tenantId, `FAQ ${language}`, language);
  const paragraphOf = new Map<string, string>();
  const chapters = [...new Set(set.paragraphs.map((p) => p.chapter))];
  for (const chapter of chapters) {
    const sourceId = await addSource(db, tenantId, kb.id, chapter);
    const paragraphs = set.paragraphs.filter((p) => p.chapter === chapter);
    const ids = await db.transaction((tx) =>
      indexChunks(tx, {
        tenantId,
        knowledgeBaseId: kb.id,
        sourceId,
        config: kb.config,
        title: chapter,
        chunks: paragraphs.map((p, ordinal) => chunkOf(ordinal, p.text, [chapter])),
      }),
    );
    ids.forEach((id, index) => paragraphOf.set(id, paragraphs[index]?.id ?? ''));
  }
  return { tenantId, knowledgeBaseId: kb.id, config: kb.config, paragraphOf };
}

interface Posting {
  lexeme: string;
  chunkId: string;
  tf: number;
  labelTf: number;
  length: number;
}

/**
 * Textbook BM25 (k1 0.9, b 0.4, idf ln(1 + (N - df + 0.5) / (df + 0.5))) over postings, best first; a label
 * occurrence counts BM25_LABEL_WEIGHT of a text occurrence.
 */
function referenceRanking(
  postingsByLexeme: ReadonlyMap<string, readonly Posting[]>,
  n: number,
  avgLength: number,
  lexemes: readonly string[],
): Array<{ chunkId: string; score: number }> {
  const scores = new Map<string, number>();
  for (const lexeme of new Set(lexemes)) {
    const matching = postingsByLexeme.get(lexeme) ?? [];
    const idf = bm25Idf(n, matching.length);
    for (const p of matching)
      scores.set(
        p.chunkId,
        (scores.get(p.chunkId) ?? 0) + bm25Term(idf, bm25Frequency(p.tf, p.labelTf), p.length, avgLength),
      );
  }
  return [...scores]
    .map(([chunkId, score]) => ({ chunkId, score }))
    .sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : 1));
}

export interface QaScore {
  questions: number;
  firstHits: number;
  inTop3: number;
}

export interface QaResult {
  sql: QaScore;
  reference: QaScore;
}

/** Asks every question through searchKeyword and through the TypeScript reference; counts first hits and recall@3. */
export async function evaluateQaSet(
  db: Db,
  indexed: IndexedQaSet,
  questions: readonly QaQuestion[],
): Promise<QaResult> {
  const { tenantId, knowledgeBaseId, paragraphOf } = indexed;
  const postings = rowsOf<Posting>(
    await db.execute(sql`
      select lexeme, chunk_id as "chunkId", tf, label_tf as "labelTf", length from knowledge_postings
      where tenant_id = ${tenantId} and knowledge_base_id = ${knowledgeBaseId}::uuid
    `),
  );
  const postingsByLexeme = new Map<string, Posting[]>();
  for (const p of postings) {
    const list = postingsByLexeme.get(p.lexeme) ?? [];
    list.push(p);
    postingsByLexeme.set(p.lexeme, list);
  }
  const [stats] = rowsOf<{ n: number; total: number }>(
    await db.execute(sql`
      select count(*)::int as n, sum(length)::int as total from knowledge_chunks
      where tenant_id = ${tenantId} and knowledge_base_id = ${knowledgeBaseId}::uuid
    `),
  );
  if (!stats || stats.n === 0) throw new Error('nothing indexed');
  const result: QaResult = {
    sql: { questions: questions.length, firstHits: 0, inTop3: 0 },
    reference: { questions: questions.length, firstHits: 0, inTop3: 0 },
  };
  const count = (score: QaScore, found: ReadonlyArray<string | undefined>, expected: string) => {
    if (found[0] === expected) score.firstHits += 1;
    if (found.slice(0, 3).includes(expected)) score.inTop3 += 1;
  };
  // Every question's lexemes in one statement, tokenised as searchKeyword tokenises its query.
  const lexemesOf = new Map<number, string[]>();
  const tokenised = rowsOf<{ index: number; lexeme: string }>(
    await db.execute(sql`
      select q.ordinality::int - 1 as index, l.lexeme
      from jsonb_array_elements_text(${JSON.stringify(questions.map((q) => q.question))}::jsonb) with ordinality q,
        unnest(to_tsvector(${indexed.config}::regconfig, q.value)) l
    `),
  );
  for (const { index, lexeme } of tokenised) lexemesOf.set(index, [...(lexemesOf.get(index) ?? []), lexeme]);
  for (const [index, { question, expected }] of questions.entries()) {
    const hits = await searchKeyword(db, {
      tenantId,
      knowledgeBaseIds: [knowledgeBaseId],
      query: question,
      topK: 3,
    });
    count(
      result.sql,
      hits.map((hit) => paragraphOf.get(hit.chunkId)),
      expected,
    );
    const reference = referenceRanking(
      postingsByLexeme,
      stats.n,
      stats.total / stats.n,
      lexemesOf.get(index) ?? [],
    );
    count(
      result.reference,
      reference.slice(0, 3).map((r) => paragraphOf.get(r.chunkId)),
      expected,
    );
  }
  return result;
}

export const rate = (hits: number, total: number): number => (total === 0 ? 0 : (100 * hits) / total);
