import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  type KnowledgeBaseRow,
  knowledgeChunks,
  type KnowledgeSourcePageRow,
  knowledgeSourcePages,
  type KnowledgeSourceRow,
} from '../../db/schema';
import type { GuardedFetch, GuardedResponse } from '../../lib/guarded-http/guarded-fetch';
import { parsePage, sitemapLocations } from './crawl';
import { type Chunk, chunk } from './ingest/chunk';
import { contentHash } from './ingest/normalise';
import type { ParsedDocument } from './ingest/types';
import { indexChunks } from './retrieval/retrieval';

/** The validators a conditional request sends back, as the site gave them. */
export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

/** If-None-Match and If-Modified-Since for what was read last time; none when nothing was. */
export function conditionalHeaders(validators: Validators | null | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (validators?.etag) headers['if-none-match'] = validators.etag;
  if (validators?.lastModified) headers['if-modified-since'] = validators.lastModified;
  return headers;
}

export const validatorsOf = (response: GuardedResponse): Validators => ({
  etag: response.headers.etag ?? null,
  lastModified: response.headers['last-modified'] ?? null,
});

/** The hash a page is compared by: its address, its text, and the chunking settings it is cut with. */
export function pageHash(base: KnowledgeBaseRow, url: string, document: ParsedDocument): string {
  const text = document.blocks.map((block) => block.text).join('\n');
  return contentHash(`${base.chunkTargetWords}:${base.chunkOverlap}\n${url}\n${text}`);
}

/** What reading one listed page found. */
type PageCheck =
  | { url: string; kind: 'unchanged'; known: KnowledgeSourcePageRow; validators: Validators }
  | {
      url: string;
      kind: 'changed' | 'added';
      document: ParsedDocument;
      hash: string;
      validators: Validators;
    }
  /** A page that could not be read keeps what was indexed of it; a new one is left out until it can be. */
  | { url: string; kind: 'failed'; known: KnowledgeSourcePageRow | null; error: Error };

export interface SitemapChanges {
  /** The listed pages in the sitemap's order. */
  pages: PageCheck[];
  /** Indexed pages the sitemap no longer lists. */
  removed: string[];
  sitemap: Validators;
}

/** The pages of a sitemap source as last read, in the sitemap's order. */
export function knownPages(db: Db, source: KnowledgeSourceRow): Promise<KnowledgeSourcePageRow[]> {
  return db
    .select()
    .from(knowledgeSourcePages)
    .where(
      and(eq(knowledgeSourcePages.tenantId, source.tenantId), eq(knowledgeSourcePages.sourceId, source.id)),
    )
    .orderBy(asc(knowledgeSourcePages.position));
}

/**
 * Reads a sitemap and each page it lists, conditionally where a page was read before: a 304 or an equal hash is
 * unchanged, other pages are changed or added, and indexed pages no longer listed are removed. A sitemap that
 * answers 304 lists the pages it listed last time. Throws when the sitemap cannot be read or no page can.
 */
export async function readSitemapChanges(
  fetch: GuardedFetch,
  source: KnowledgeSourceRow,
  base: KnowledgeBaseRow,
  known: readonly KnowledgeSourcePageRow[],
  checkpoint: () => void,
): Promise<SitemapChanges> {
  const sitemapUrl = source.url ?? '';
  const byUrl = new Map(known.map((page) => [page.url, page]));
  const response = await fetch(sitemapUrl, {
    headers: known.length > 0 ? conditionalHeaders(source) : {},
  });
  const urls =
    response.status === 304
      ? known.map((page) => page.url)
      : sitemapLocations(response.body.toString('utf8'), sitemapUrl, response.url);
  const sitemap =
    response.status === 304
      ? { etag: source.etag, lastModified: source.lastModified }
      : validatorsOf(response);

  const pages: PageCheck[] = [];
  for (const url of urls) {
    checkpoint();
    const previous = byUrl.get(url) ?? null;
    try {
      const page = await fetch(url, { headers: conditionalHeaders(previous) });
      if (page.status === 304 && previous) {
        pages.push({
          url,
          kind: 'unchanged',
          known: previous,
          validators: {
            etag: page.headers.etag ?? previous.etag,
            lastModified: page.headers['last-modified'] ?? previous.lastModified,
          },
        });
        continue;
      }
      const document = await parsePage(page);
      const hash = pageHash(base, url, document);
      const validators = validatorsOf(page);
      if (previous && previous.contentHash === hash) {
        pages.push({ url, kind: 'unchanged', known: previous, validators });
      } else {
        pages.push({ url, kind: previous ? 'changed' : 'added', document, hash, validators });
      }
    } catch (error) {
      pages.push({
        url,
        kind: 'failed',
        known: previous,
        error: error instanceof Error ? error : new Error(String(error)),
      });
    }
  }
  const failed = pages.filter((page) => page.kind === 'failed');
  if (failed.length === pages.length) {
    throw failed[0]?.error ?? new Error('no page of the sitemap could be read');
  }
  const listed = new Set(urls);
  return { pages, removed: known.filter((page) => !listed.has(page.url)).map((page) => page.url), sitemap };
}

/** A page's chunks, each under the page's title (or address), numbered within the page. */
function pageChunks(base: KnowledgeBaseRow, url: string, document: ParsedDocument) {
  const label = document.title ?? url;
  return chunk(document, { targetWords: base.chunkTargetWords, overlap: base.chunkOverlap }).map(
    (piece): Chunk & { pageUrl: string } => ({
      ...piece,
      pageUrl: url,
      headingPath: piece.headingPath[0] === label ? piece.headingPath : [label, ...piece.headingPath],
    }),
  );
}

export interface AppliedSitemap {
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
  failed: number;
  /** Chunks written in this sync (those of added and changed pages). */
  chunksWritten: number;
  chunkCount: number;
  /** The hash of the whole source: its pages' hashes in order. */
  hash: string;
  title: string | null;
}

/**
 * Writes a sitemap's changes inside the caller's transaction: the chunks of changed and removed pages go, those of
 * changed and added pages are written, unchanged pages keep their chunks (and so their embeddings), and the
 * chunks are numbered again in the sitemap's order.
 */
export async function applySitemapChanges(
  tx: Db,
  source: KnowledgeSourceRow,
  base: KnowledgeBaseRow,
  changes: SitemapChanges,
): Promise<AppliedSitemap> {
  const target = and(eq(knowledgeChunks.tenantId, source.tenantId), eq(knowledgeChunks.sourceId, source.id));
  const written = changes.pages.filter(
    (page): page is Extract<PageCheck, { kind: 'changed' | 'added' }> =>
      page.kind === 'changed' || page.kind === 'added',
  );
  const replaced = [...written.map((page) => page.url), ...changes.removed];
  if (replaced.length > 0) {
    // Chunks without a page were written before pages were tracked; a first page-wise sync replaces them.
    await tx
      .delete(knowledgeChunks)
      .where(and(target, or(inArray(knowledgeChunks.pageUrl, replaced), isNull(knowledgeChunks.pageUrl))));
  }
  if (changes.removed.length > 0) {
    await tx
      .delete(knowledgeSourcePages)
      .where(
        and(
          eq(knowledgeSourcePages.tenantId, source.tenantId),
          eq(knowledgeSourcePages.sourceId, source.id),
          inArray(knowledgeSourcePages.url, changes.removed),
        ),
      );
  }
  const firstTitle = written.find((page) => page.document.title)?.document.title ?? null;
  const title = source.title ?? firstTitle;
  const chunks = written.flatMap((page) => pageChunks(base, page.url, page.document));
  await indexChunks(tx, {
    tenantId: source.tenantId,
    knowledgeBaseId: base.id,
    sourceId: source.id,
    config: base.tsConfig,
    title,
    chunks,
  });

  const kept = changes.pages.flatMap((page, position) => {
    if (page.kind === 'failed') {
      return page.known ? [{ ...page.known, position }] : [];
    }
    const hash = page.kind === 'unchanged' ? page.known.contentHash : page.hash;
    return [{ url: page.url, position, contentHash: hash, ...page.validators }];
  });
  if (kept.length > 0) {
    await tx
      .insert(knowledgeSourcePages)
      .values(
        kept.map((page) => ({
          tenantId: source.tenantId,
          sourceId: source.id,
          url: page.url,
          position: page.position,
          etag: page.etag,
          lastModified: page.lastModified,
          contentHash: page.contentHash,
        })),
      )
      .onConflictDoUpdate({
        target: [knowledgeSourcePages.tenantId, knowledgeSourcePages.sourceId, knowledgeSourcePages.url],
        set: {
          position: sql`excluded.position`,
          etag: sql`excluded.etag`,
          lastModified: sql`excluded.last_modified`,
          contentHash: sql`excluded.content_hash`,
          updatedAt: new Date(),
        },
      });
  }
  // Reading order: pages in the sitemap's order, each page's chunks in theirs.
  await tx.execute(sql`
    update knowledge_chunks c set ordinal = r.n
    from (
      select k.id, (row_number() over (order by coalesce(p.position, 2147483647), k.ordinal, k.id) - 1)::int as n
      from knowledge_chunks k
      left join knowledge_source_pages p
        on p.tenant_id = k.tenant_id and p.source_id = k.source_id and p.url = k.page_url
      where k.tenant_id = ${source.tenantId} and k.source_id = ${source.id}::uuid
    ) r
    where c.id = r.id and c.ordinal <> r.n`);
  const [counted] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(knowledgeChunks)
    .where(target);
  const count = (kind: PageCheck['kind']) => changes.pages.filter((page) => page.kind === kind).length;
  return {
    added: count('added'),
    changed: count('changed'),
    removed: changes.removed.length,
    unchanged: count('unchanged'),
    failed: count('failed'),
    chunksWritten: chunks.length,
    chunkCount: counted?.n ?? 0,
    hash: contentHash(kept.map((page) => `${page.url} ${page.contentHash}`).join('\n')),
    title,
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What a sitemap sync did, in plain words: "4 pages checked: 1 changed, 1 added, 1 removed." */
export function describeSitemapSync(applied: AppliedSitemap): string {
  const total = applied.added + applied.changed + applied.unchanged + applied.failed;
  const parts = [
    applied.changed ? `${applied.changed} changed` : '',
    applied.added ? `${applied.added} added` : '',
    applied.removed ? `${applied.removed} removed` : '',
  ].filter(Boolean);
  let message = `${plural(total, 'page')} checked: ${parts.length > 0 ? parts.join(', ') : 'none changed'}.`;
  if (applied.failed > 0) {
    message += ` ${plural(applied.failed, 'page')} could not be read and ${applied.failed === 1 ? 'was' : 'were'} kept as before; ${applied.failed === 1 ? 'it is' : 'they are'} tried again at the next sync.`;
  }
  return message;
}
