import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../../db/client';
import { knowledgeBases, knowledgeSources, tenants, type TextSearchConfig } from '../../../db/schema';
import { contentHash } from '../ingest/normalise';
import type { Chunk } from '../ingest/chunk';
import { textSearchConfigFor } from './text-search-config';

/** A client tenant with no parent, for tests that need only tenant-scoped rows. */
export async function addTenant(db: Db, tenantId: string): Promise<void> {
  await db.insert(tenants).values({ tenantId, name: tenantId, type: '3' });
}

export async function addKnowledgeBase(
  db: Db,
  tenantId: string,
  name: string,
  language = 'en',
): Promise<{ id: string; config: TextSearchConfig }> {
  const config = textSearchConfigFor(language);
  const [row] = await db
    .insert(knowledgeBases)
    .values({ tenantId, name, language, tsConfig: config })
    .returning({ id: knowledgeBases.id });
  if (!row) throw new Error('knowledge base not inserted');
  return { id: row.id, config };
}

export async function addSource(
  db: Db,
  tenantId: string,
  knowledgeBaseId: string,
  title: string,
): Promise<string> {
  const [row] = await db
    .insert(knowledgeSources)
    .values({ tenantId, knowledgeBaseId, type: 'text', title, state: 'indexing' })
    .returning({ id: knowledgeSources.id });
  if (!row) throw new Error('source not inserted');
  return row.id;
}

/** A chunk as the chunker would give it, for a paragraph under a heading path. */
export function chunkOf(ordinal: number, text: string, headingPath: string[] = []): Chunk {
  return {
    ordinal,
    text,
    headingPath,
    page: null,
    charCount: text.length,
    wordCount: text.split(/\s+/).filter(Boolean).length,
    hash: contentHash(text),
  };
}

export interface StoredStats {
  knowledgeBaseId: string;
  chunkCount: number;
  totalLength: number;
}

/** The statistics as stored, beside the same figures recomputed from the chunks and their tsvectors (text only). */
export async function statsOf(
  db: Db,
  tenantId: string,
): Promise<{ stored: StoredStats[]; recomputed: StoredStats[] }> {
  const stored = await db.execute(sql`
    select knowledge_base_id as "knowledgeBaseId", chunk_count as "chunkCount", total_length::int as "totalLength"
    from knowledge_base_stats where tenant_id = ${tenantId} and chunk_count > 0 order by knowledge_base_id
  `);
  const recomputed = await db.execute(sql`
    select c.knowledge_base_id as "knowledgeBaseId", count(*)::int as "chunkCount",
      sum((select count(*) from unnest(c.tsv) u, unnest(u.weights) w where w = 'D'))::int as "totalLength"
    from knowledge_chunks c where c.tenant_id = ${tenantId} group by c.knowledge_base_id order by c.knowledge_base_id
  `);
  return { stored: rowsOf<StoredStats>(stored), recomputed: rowsOf<StoredStats>(recomputed) };
}
