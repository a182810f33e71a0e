import { buffer } from 'node:stream/consumers';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { rowsOf, type Db } from '../../db/client';
import {
  type KnowledgeBaseRow,
  knowledgeBases,
  type KnowledgeSourceRow,
  knowledgeSources,
  type SourceState,
} from '../../db/schema';
import type { JobRunner } from '../../jobs/queue';
import { AppError } from '../../lib/errors';
import { FetchError, type GuardedFetch } from '../../lib/guarded-http/guarded-fetch';
import type { Storage } from '../../storage';
import { tenantObjectKey } from '../../storage/path';
import { getFile } from '../files/files.service';
import { crawlSite, type CrawledPage, readSitemap } from './crawl';
import { type Chunk, chunk } from './ingest/chunk';
import { contentHash } from './ingest/normalise';
import { parse } from './ingest/parse';
import { ParseError } from './ingest/parse-error';
import type { ParsedDocument } from './ingest/types';
import { deleteSourceChunks, indexChunks, indexQa } from './retrieval/retrieval';
import type { Env } from '../../env';

export const INGEST_JOB = 'knowledge-ingest';
/** pg-boss retries an unexpected failure this many times, waiting longer each time. */
export const INGEST_RETRY_LIMIT = 3;
export const INGEST_MAX_ATTEMPTS = INGEST_RETRY_LIMIT + 1;
/** A source still being read after this long fails with ingest/timeout. */
const INGEST_TIME_LIMIT_MS = 300_000;
const IN_FLIGHT: SourceState[] = ['fetching', 'parsing', 'indexing'];

export interface IngestJob {
  tenantId: string;
  sourceId: string;
}

export interface IngestDeps {
  db: Db;
  storage: Storage;
  env: Env;
  fetch: GuardedFetch;
  log: FastifyBaseLogger;
  timeLimitMs?: number;
  /** Called after a source's new chunks are stored (e.g. to embed them for the indexes covering the base). */
  onSourceIndexed?: (target: { tenantId: string; knowledgeBaseId: string }) => Promise<void>;
}

/** A failure that is stored on the source as is and never retried. */
class FinalFailure extends Error {
  constructor(
    readonly code: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

class Cancelled extends Error {}

/** Queues one ingestion job for a source; a failure is retried with a growing delay, and a job is given up after the time limit. */
const INGEST_JOB_OPTIONS = {
  retryLimit: INGEST_RETRY_LIMIT,
  retryDelay: 2,
  retryBackoff: true,
  expireInSeconds: Math.ceil(INGEST_TIME_LIMIT_MS / 1000) + 60,
};

async function queueIngestion(jobs: JobRunner, job: IngestJob): Promise<void> {
  await jobs.send(INGEST_JOB, job, INGEST_JOB_OPTIONS);
}

/** Queues the ingestion of many sources in one statement, as queueIngestion queues one. */
export async function queueIngestions(jobs: JobRunner, batch: readonly IngestJob[]): Promise<void> {
  await jobs.sendMany(INGEST_JOB, batch, INGEST_JOB_OPTIONS);
}

const setState = (db: Db, job: IngestJob, values: Partial<KnowledgeSourceRow>) =>
  db
    .update(knowledgeSources)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(knowledgeSources.tenantId, job.tenantId), eq(knowledgeSources.id, job.sourceId)));

/** The content of a source as text to index, or its Q&A pair. */
type Content =
  | { kind: 'document'; document: ParsedDocument }
  | { kind: 'pages'; pages: CrawledPage[] }
  | { kind: 'qa'; question: string; answer: string };

async function readFile(deps: IngestDeps, source: KnowledgeSourceRow): Promise<ParsedDocument> {
  let file;
  try {
    file = await getFile(deps, source.tenantId, source.path ?? '');
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 404) {
      throw new FinalFailure('ingest/file-missing', 'The file is no longer in your storage.');
    }
    throw error;
  }
  const object = await deps.storage.driver.get(tenantObjectKey(source.tenantId, file.path));
  const bytes = await buffer(object.stream);
  return parse(bytes, { contentType: file.contentType, filename: file.name });
}

async function readUrl(deps: IngestDeps, source: KnowledgeSourceRow): Promise<ParsedDocument> {
  const response = await deps.fetch(source.url ?? '');
  const filename = new URL(response.url).pathname.split('/').at(-1) ?? null;
  return parse(response.body, { contentType: response.contentType, filename });
}

async function readContent(
  deps: IngestDeps,
  source: KnowledgeSourceRow,
  checkpoint: () => void,
): Promise<Content> {
  switch (source.type) {
    case 'text':
      return {
        kind: 'document',
        document: await parse(Buffer.from(source.content ?? '', 'utf8'), {
          contentType: 'text/plain',
          filename: source.title,
        }),
      };
    case 'qa':
      return { kind: 'qa', question: source.title ?? '', answer: source.content ?? '' };
    case 'file':
      return { kind: 'document', document: await readFile(deps, source) };
    case 'url':
      if (source.crawl) {
        return {
          kind: 'pages',
          pages: await crawlSite(deps.fetch, source.url ?? '', source.crawl, checkpoint),
        };
      }
      return { kind: 'document', document: await readUrl(deps, source) };
    case 'sitemap':
      return { kind: 'pages', pages: await readSitemap(deps.fetch, source.url ?? '', checkpoint) };
  }
}

/** The hash of what gets indexed: the normalised text and the chunking settings it is cut with. */
function hashOf(content: Content, base: KnowledgeBaseRow): string {
  if (content.kind === 'qa') return contentHash(`${content.question}\n${content.answer}`);
  const documents = content.kind === 'pages' ? content.pages : [{ url: '', document: content.document }];
  const text = documents
    .map(({ url, document }) => `${url}\n${document.blocks.map((block) => block.text).join('\n')}`)
    .join('\n');
  return contentHash(`${base.chunkTargetWords}:${base.chunkOverlap}\n${text}`);
}

/** Each page of a crawl is chunked on its own, under its title (or address), and the ordinals run on across pages. */
function chunksOf(content: Content, base: KnowledgeBaseRow): Chunk[] {
  const options = { targetWords: base.chunkTargetWords, overlap: base.chunkOverlap };
  if (content.kind === 'qa') return [];
  if (content.kind === 'document') return chunk(content.document, options);
  const all: Chunk[] = [];
  for (const page of content.pages) {
    const label = page.document.title ?? page.url;
    for (const piece of chunk(page.document, options)) {
      all.push({
        ...piece,
        ordinal: all.length,
        headingPath: piece.headingPath[0] === label ? piece.headingPath : [label, ...piece.headingPath],
      });
    }
  }
  return all;
}

async function loadSource(db: Db, job: IngestJob) {
  const [found] = await db
    .select({ source: knowledgeSources, base: knowledgeBases })
    .from(knowledgeSources)
    .innerJoin(
      knowledgeBases,
      and(
        eq(knowledgeBases.tenantId, knowledgeSources.tenantId),
        eq(knowledgeBases.id, knowledgeSources.knowledgeBaseId),
      ),
    )
    .where(and(eq(knowledgeSources.tenantId, job.tenantId), eq(knowledgeSources.id, job.sourceId)))
    .limit(1);
  return found;
}

/** Returns the knowledge base id when new chunks were stored, null otherwise. */
async function ingest(deps: IngestDeps, job: IngestJob, signal: AbortSignal): Promise<string | null> {
  const { db } = deps;
  const checkpoint = () => {
    if (signal.aborted) throw new Cancelled();
  };
  const found = await loadSource(db, job);
  if (!found) return null;
  const { base } = found;
  await setState(db, job, {
    state: 'fetching',
    errorCode: null,
    errorReason: null,
    attempts: found.source.attempts + 1,
  });
  const source = { ...found.source, attempts: found.source.attempts + 1 };
  const content = await readContent(deps, source, checkpoint);
  checkpoint();
  await setState(db, job, { state: 'parsing' });
  const hash = hashOf(content, base);
  const unchanged = hash === source.contentHash && source.lastSyncedAt !== null;
  const chunks = unchanged ? [] : chunksOf(content, base);
  checkpoint();
  await setState(db, job, { state: 'indexing' });
  return db.transaction(async (tx) => {
    // The row lock keeps two runs for one source (a recovered job and its original) from interleaving.
    const locked = await tx.execute(
      sql`select id from knowledge_sources where tenant_id = ${job.tenantId} and id = ${job.sourceId}::uuid for update`,
    );
    checkpoint();
    if (rowsOf(locked).length === 0) return null;
    const title =
      source.title ??
      (content.kind === 'document' ? content.document.title : null) ??
      (content.kind === 'pages' ? (content.pages[0]?.document.title ?? null) : null);
    if (unchanged) {
      await setState(tx, job, { state: 'ready', lastSyncedAt: new Date(), attempts: 0 });
      return null;
    }
    await deleteSourceChunks(tx, job);
    let count: number;
    if (content.kind === 'qa') {
      count = (
        await indexQa(tx, {
          tenantId: job.tenantId,
          knowledgeBaseId: base.id,
          sourceId: job.sourceId,
          config: base.tsConfig,
          pairs: [{ question: content.question, answer: content.answer }],
          createdBy: source.createdBy,
        })
      ).length;
    } else {
      count = (
        await indexChunks(tx, {
          tenantId: job.tenantId,
          knowledgeBaseId: base.id,
          sourceId: job.sourceId,
          config: base.tsConfig,
          title,
          chunks,
        })
      ).length;
    }
    await setState(tx, job, {
      state: 'ready',
      title,
      contentHash: hash,
      chunkCount: count,
      lastSyncedAt: new Date(),
      attempts: 0,
    });
    return base.id;
  });
}

/**
 * Reads, chunks and indexes one source, moving it through fetching, parsing and indexing to ready. A document
 * that cannot be read or an address that cannot be fetched fails the source with its reason at once; any other
 * error is thrown for a retry, except on the last attempt, which fails the source.
 */
export async function runIngestion(deps: IngestDeps, job: IngestJob): Promise<void> {
  const limit = deps.timeLimitMs ?? INGEST_TIME_LIMIT_MS;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve('timeout');
    }, limit);
  });
  let indexedBase: string | null = null;
  const work = ingest(deps, job, controller.signal).then(
    (knowledgeBaseId) => {
      indexedBase = knowledgeBaseId;
      return null;
    },
    (error: unknown) => error,
  );
  try {
    const outcome = await Promise.race([work, timedOut]);
    if (outcome === 'timeout') {
      const minutes = Math.max(1, Math.round(limit / 60_000));
      await setState(deps.db, job, {
        state: 'failed',
        errorCode: 'ingest/timeout',
        errorReason: `Reading the source took longer than ${minutes === 1 ? 'a minute' : `${minutes} minutes`}; try again or split it into smaller parts.`,
      });
      // The abandoned run stops at its next checkpoint without writing anything more.
      return;
    }
    if (outcome === null) {
      if (indexedBase && deps.onSourceIndexed) await notifyIndexed(deps, job, indexedBase);
      return;
    }
    await fail(deps, job, outcome);
  } finally {
    clearTimeout(timer);
  }
}

/** The source is ready whatever the follow-up does; its failure is logged, never the source's. */
async function notifyIndexed(deps: IngestDeps, job: IngestJob, knowledgeBaseId: string) {
  try {
    await deps.onSourceIndexed?.({ tenantId: job.tenantId, knowledgeBaseId });
  } catch (error) {
    deps.log.error({ err: error, sourceId: job.sourceId }, 'follow-up of an indexed source failed');
  }
}

async function fail(deps: IngestDeps, job: IngestJob, error: unknown): Promise<void> {
  if (error instanceof ParseError) {
    await setState(deps.db, job, { state: 'failed', errorCode: error.code, errorReason: error.message });
    return;
  }
  if (error instanceof FetchError) {
    await setState(deps.db, job, { state: 'failed', errorCode: error.code, errorReason: error.reason });
    return;
  }
  if (error instanceof FinalFailure) {
    await setState(deps.db, job, { state: 'failed', errorCode: error.code, errorReason: error.reason });
    return;
  }
  const [row] = await deps.db
    .select({ attempts: knowledgeSources.attempts })
    .from(knowledgeSources)
    .where(and(eq(knowledgeSources.tenantId, job.tenantId), eq(knowledgeSources.id, job.sourceId)));
  if (!row) return;
  deps.log.error({ err: error, sourceId: job.sourceId }, 'knowledge ingestion failed');
  if (row.attempts >= INGEST_MAX_ATTEMPTS) {
    await setState(deps.db, job, {
      state: 'failed',
      errorCode: 'ingest/failed',
      errorReason: `The source could not be read after ${row.attempts} attempts because of an unexpected error; re-sync it to try again.`,
    });
    return;
  }
  await setState(deps.db, job, { state: 'queued' });
  throw error;
}

/**
 * Sources a crash left fetching, parsing or indexing are queued again, or failed when they have used all their
 * attempts. Returns how many of each.
 */
async function recoverInterruptedSources(
  db: Db,
  jobs: JobRunner,
): Promise<{ requeued: number; failed: number }> {
  const stuck = await db
    .select({
      tenantId: knowledgeSources.tenantId,
      id: knowledgeSources.id,
      attempts: knowledgeSources.attempts,
    })
    .from(knowledgeSources)
    .where(inArray(knowledgeSources.state, IN_FLIGHT));
  let requeued = 0;
  let failed = 0;
  for (const row of stuck) {
    const job = { tenantId: row.tenantId, sourceId: row.id };
    if (row.attempts >= INGEST_MAX_ATTEMPTS) {
      await setState(db, job, {
        state: 'failed',
        errorCode: 'ingest/interrupted',
        errorReason: 'Reading the source was interrupted too many times; re-sync it to try again.',
      });
      failed++;
    } else {
      await setState(db, job, { state: 'queued' });
      await queueIngestion(jobs, job);
      requeued++;
    }
  }
  return { requeued, failed };
}

/** Runs the ingestion worker and queues again what a previous process left unfinished. */
export async function startIngestion(jobs: JobRunner, deps: IngestDeps): Promise<void> {
  await jobs.work<IngestJob>(INGEST_JOB, (job) => runIngestion(deps, job));
  const recovered = await recoverInterruptedSources(deps.db, jobs);
  if (recovered.requeued + recovered.failed > 0) {
    deps.log.info(recovered, 'knowledge sources interrupted by a restart recovered');
  }
}
