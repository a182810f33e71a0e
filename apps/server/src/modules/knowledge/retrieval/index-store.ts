import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../../db/client';
import type { TextSearchConfig } from '../../../db/schema';
import type { Chunk } from '../ingest/chunk';
import { storableText } from './safe-text';

export interface IndexChunksInput {
  tenantId: string;
  knowledgeBaseId: string;
  sourceId: string;
  /** The knowledge base's text-search configuration. */
  config: TextSearchConfig;
  /** The source's title, searched with each chunk's heading path as its labels. */
  title?: string | null;
  /** Each chunk may name the sitemap page it was cut from. */
  chunks: ReadonlyArray<Chunk & { pageUrl?: string | null }>;
}

export interface QaPairInput {
  question: string;
  answer: string;
}

export interface IndexQaInput {
  tenantId: string;
  knowledgeBaseId: string;
  sourceId: string;
  config: TextSearchConfig;
  pairs: readonly QaPairInput[];
  createdBy?: string | null;
}

// Rows per statement: keeps the JSON parameter and the statement's memory bounded for a large document.
const BATCH = 500;

/**
 * The labels a chunk is searched by beside its text: its source's title and its heading path, each once (a crawled
 * page's heading path starts with its title), one per line.
 */
function labelsOf(title: string | null | undefined, headingPath: readonly string[]): string {
  const labels: string[] = [];
  const seen = new Set<string>();
  for (const label of [title ?? '', ...headingPath]) {
    const key = label.trim().toLowerCase();
    if (key && !seen.has(key)) {
      seen.add(key);
      labels.push(label.trim());
    }
  }
  return labels.join('\n');
}

/**
 * Writes a source's chunks with their tsvector (labels at weight A, text at weight D), their BM25 postings (one per
 * lexeme: tf = its positions in the text, label_tf = its positions in the labels; the length counts the text only)
 * and adds them to the knowledge base's statistics, in SQL. Call inside the caller's transaction. Returns the new
 * chunk ids in ordinal order.
 */
export async function indexChunks(tx: Db, input: IndexChunksInput): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < input.chunks.length; start += BATCH) {
    const rows = input.chunks.slice(start, start + BATCH).map((chunk) => ({
      ordinal: chunk.ordinal,
      text: storableText(chunk.text),
      labels: storableText(labelsOf(input.title, chunk.headingPath)),
      heading_path: chunk.headingPath.map(storableText),
      page: chunk.page,
      char_count: chunk.charCount,
      word_count: chunk.wordCount,
      hash: chunk.hash,
      page_url: chunk.pageUrl ?? null,
    }));
    const result = await tx.execute<{ id: string }>(sql`
      with input as (
        select x.*,
          setweight(to_tsvector(${input.config}::regconfig, x.labels), 'A') || to_tsvector(${input.config}::regconfig, x.text) as tsv
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(
          ordinal int, text text, labels text, heading_path jsonb, page int, char_count int, word_count int, hash text,
          page_url text
        )
      ),
      inserted as (
        insert into knowledge_chunks (
          tenant_id, knowledge_base_id, source_id, page_url, ordinal, text, heading_path, page, length, char_count,
          word_count, hash, tsv
        )
        select ${input.tenantId}, ${input.knowledgeBaseId}::uuid, ${input.sourceId}::uuid, i.page_url, i.ordinal, i.text,
          i.heading_path, i.page,
          (select count(*) from unnest(i.tsv) u, unnest(u.weights) w where w = 'D')::int,
          i.char_count, i.word_count, i.hash, i.tsv
        from input i
        returning id, ordinal, length, tsv
      ),
      postings as (
        insert into knowledge_postings (tenant_id, knowledge_base_id, lexeme, chunk_id, tf, label_tf, length)
        select ${input.tenantId}, ${input.knowledgeBaseId}::uuid, u.lexeme, c.id,
          cardinality(array_positions(u.weights, 'D')), cardinality(array_positions(u.weights, 'A')), c.length
        from inserted c, unnest(c.tsv) u
      ),
      stats as (
        insert into knowledge_base_stats (tenant_id, knowledge_base_id, chunk_count, total_length)
        select ${input.tenantId}, ${input.knowledgeBaseId}::uuid, count(*), coalesce(sum(length), 0) from inserted
        on conflict (tenant_id, knowledge_base_id) do update set
          chunk_count = knowledge_base_stats.chunk_count + excluded.chunk_count,
          total_length = knowledge_base_stats.total_length + excluded.total_length,
          updated_at = now()
      )
      select id from inserted order by ordinal
    `);
    ids.push(...rowsOf<{ id: string }>(result).map((row) => row.id));
  }
  return ids;
}

/**
 * Removes a source's chunks (their postings go with them) and Q&A pairs. The statistics follow by a trigger on
 * knowledge_chunks, so a cascade from deleting the source or the knowledge base keeps them right too.
 * Returns the number of chunks removed.
 */
export async function deleteSourceChunks(
  tx: Db,
  target: { tenantId: string; sourceId: string },
): Promise<number> {
  const result = await tx.execute(sql`
    with gone as (
      delete from knowledge_chunks
      where tenant_id = ${target.tenantId} and source_id = ${target.sourceId}::uuid
      returning id
    ),
    qa as (
      delete from knowledge_qa where tenant_id = ${target.tenantId} and source_id = ${target.sourceId}::uuid
    )
    select count(*)::int as removed from gone
  `);
  return rowsOf<{ removed: number }>(result)[0]?.removed ?? 0;
}

/** Stores curated Q&A pairs with the tsvector of their question. Returns the new ids. */
export async function indexQa(tx: Db, input: IndexQaInput): Promise<string[]> {
  if (input.pairs.length === 0) return [];
  const rows = input.pairs.map((pair, ordinal) => ({
    ordinal,
    question: pair.question,
    answer: pair.answer,
  }));
  const result = await tx.execute<{ id: string }>(sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(ordinal int, question text, answer text)
    ),
    inserted as (
      insert into knowledge_qa (tenant_id, knowledge_base_id, source_id, question, answer, question_tsv, created_by, updated_by)
      select ${input.tenantId}, ${input.knowledgeBaseId}::uuid, ${input.sourceId}::uuid, i.question, i.answer,
        to_tsvector(${input.config}::regconfig, i.question), ${input.createdBy ?? null}, ${input.createdBy ?? null}
      from input i
      returning id
    )
    select id from inserted
  `);
  return rowsOf<{ id: string }>(result).map((row) => row.id);
}
