import { buffer } from 'node:stream/consumers';
import type { SyncOutcome } from '@omnibot/contracts';
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
import { crawlSite, type CrawledPage, parsePage } from './crawl';
import { type Chunk, chunk } from './ingest/chunk';
import { contentHash } from './ingest/normalise';
import { parse } from './ingest/parse';
import { ParseError } from './ingest/parse-error';
import type { ParsedDocument } from './ingest/types';
import { deleteSourceChunks, indexChunks, indexQa } from './retrieval/retrieval';
import {
  applySitemapChanges,
  conditionalHeaders,
  describeSitemapSync,
  knownPages,
  readSitemapChanges,
  type Validators,
  validatorsOf,
} from './sitemap-sync';
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
  | { kind: 'document'; document: ParsedDocument; validators?: Validators }
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

/** A single page read again: unchanged by a 304 to a conditional request, or its document and validators. */
type PageRead =
  { notModified: true } | { notModified: false; document: ParsedDocument; validators: Validators };

async function readUrl(deps: IngestDeps, source: KnowledgeSourceRow): Promise<PageRead> {
  // Validators are sent only when there is indexed content a 304 could stand for.
  const headers = source.lastSyncedAt && source.contentHash ? conditionalHeaders(source) : {};
  const response = await deps.fetch(source.url ?? '', { headers });
  if (response.status === 304) return { notModified: true };
  return { notModified: false, document: await parsePage(response), validators: validatorsOf(response) };
}

/** The content of a source other than a sitemap (read page by page) and a page a 304 says is unchanged. */
async function readContent(
  deps: IngestDeps,
  source: KnowledgeSourceRow,
  checkpoint: () => void,
): Promise<Content | { kind: 'not-modified' }> {
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
    case 'url': {
      if (source.crawl) {
        return {
          kind: 'pages',
          pages: await crawlSite(deps.fetch, source.url ?? '', source.crawl, checkpoint),
        };
      }
      const read = await readUrl(deps, source);
      if (read.notModified) return { kind: 'not-modified' };
      return { kind: 'document', document: read.document, validators: read.validators };
    }
    case 'sitemap':
      throw new Error('a sitemap is read page by page');
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

/** The columns that record a finished sync: its outcome in plain words, and when. */
const syncResult = (outcome: SyncOutcome, message: string): Partial<KnowledgeSourceRow> => ({
  lastSyncOutcome: outcome,
  lastSyncMessage: message,
  lastSyncAt: new Date(),
});

const chunkWord = (n: number) => `${n} ${n === 1 ? 'chunk' : 'chunks'}`;

/** Locks the source row for the rest of the transaction; false when it was deleted meanwhile. */
async function lockSource(tx: Db, job: IngestJob): Promise<boolean> {
  // The row lock keeps two runs for one source (a recovered job and its original) from interleaving.
  const locked = await tx.execute(
    sql`select id from knowledge_sources where tenant_id = ${job.tenantId} and id = ${job.sourceId}::uuid for update`,
  );
  return rowsOf(locked).length > 0;
}

/** A sitemap is checked page by page; only added and changed pages are chunked and written. */
async function ingestSitemap(
  deps: IngestDeps,
  job: IngestJob,
  source: KnowledgeSourceRow,
  base: KnowledgeBaseRow,
  checkpoint: () => void,
): Promise<string | null> {
  const { db } = deps;
  const known = await knownPages(db, source);
  const changes = await readSitemapChanges(deps.fetch, source, base, known, checkpoint);
  checkpoint();
  await setState(db, job, { state: 'indexing' });
  return db.transaction(async (tx) => {
    if (!(await lockSource(tx, job))) return null;
    checkpoint();
    const applied = await applySitemapChanges(tx, source, base, changes);
    const changed = applied.added + applied.changed + applied.removed > 0;
    await setState(tx, job, {
      state: 'ready',
      title: applied.title,
      contentHash: applied.hash,
      chunkCount: applied.chunkCount,
      etag: changes.sitemap.etag,
      lastModified: changes.sitemap.lastModified,
      lastSyncedAt: new Date(),
      attempts: 0,
      ...syncResult(changed ? 'changed' : 'unchanged', describeSitemapSync(applied)),
    });
    return applied.chunksWritten > 0 ? base.id : null;
  });
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
  if (source.type === 'sitemap') return ingestSitemap(deps, job, source, base, checkpoint);
  const content = await readContent(deps, source, checkpoint);
  checkpoint();
  if (content.kind === 'not-modified') {
    await db.transaction(async (tx) => {
      if (!(await lockSource(tx, job))) return;
      await setState(tx, job, {
        state: 'ready',
        lastSyncedAt: new Date(),
        attempts: 0,
        ...syncResult(
          'unchanged',
          'The page has not changed since the last sync (the site answered 304 Not Modified).',
        ),
      });
    });
    return null;
  }
  await setState(db, job, { state: 'parsing' });
  const hash = hashOf(content, base);
  const unchanged = hash === source.contentHash && source.lastSyncedAt !== null;
  const chunks = unchanged ? [] : chunksOf(content, base);
  const validators = content.kind === 'document' ? content.validators : undefined;
  checkpoint();
  await setState(db, job, { state: 'indexing' });
  return db.transaction(async (tx) => {
    const present = await lockSource(tx, job);
    checkpoint();
    if (!present) return null;
    const title =
      source.title ??
      (content.kind === 'document' ? content.document.title : null) ??
      (content.kind === 'pages' ? (content.pages[0]?.document.title ?? null) : null);
    if (unchanged) {
      await setState(tx, job, {
        state: 'ready',
        lastSyncedAt: new Date(),
        attempts: 0,
        ...(validators ?? {}),
        ...syncResult('unchanged', 'The content was read again and has not changed.'),
      });
      return null;
    }
    const hadContent = source.lastSyncedAt !== null;
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
      ...(validators ?? {}),
      ...syncResult(
        'changed',
        hadContent
          ? `The content changed and was indexed again (${chunkWord(count)}).`
          : `Read and indexed (${chunkWord(count)}).`,
      ),
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
      await recordFailure(
        deps.db,
        job,
        'ingest/timeout',
        `Reading the source took longer than ${minutes === 1 ? 'a minute' : `${minutes} minutes`}; try again or split it into smaller parts.`,
      );
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

/**
 * Records a failed read. A source that was never indexed fails; one that was keeps its indexed content and stays
 * ready, with the failure as its last sync result, and is tried again at its next sync.
 */
async function recordFailure(db: Db, job: IngestJob, code: string, reason: string): Promise<void> {
  const [row] = await db
    .select({ lastSyncedAt: knowledgeSources.lastSyncedAt })
    .from(knowledgeSources)
    .where(and(eq(knowledgeSources.tenantId, job.tenantId), eq(knowledgeSources.id, job.sourceId)));
  if (!row) return;
  if (row.lastSyncedAt === null) {
    await setState(db, job, {
      state: 'failed',
      errorCode: code,
      errorReason: reason,
      ...syncResult('failed', reason),
    });
    return;
  }
  await setState(db, job, {
    state: 'ready',
    errorCode: null,
    errorReason: null,
    attempts: 0,
    ...syncResult('failed', `${reason} The content indexed before is kept.`),
  });
}

async function fail(deps: IngestDeps, job: IngestJob, error: unknown): Promise<void> {
  if (error instanceof ParseError) {
    await recordFailure(deps.db, job, error.code, error.message);
    return;
  }
  if (error instanceof FetchError) {
    await recordFailure(deps.db, job, error.code, error.reason);
    return;
  }
  if (error instanceof FinalFailure) {
    await recordFailure(deps.db, job, error.code, error.reason);
    return;
  }
  const [row] = await deps.db
    .select({ attempts: knowledgeSources.attempts })
    .from(knowledgeSources)
    .where(and(eq(knowledgeSources.tenantId, job.tenantId), eq(knowledgeSources.id, job.sourceId)));
  if (!row) return;
  deps.log.error({ err: error, sourceId: job.sourceId }, 'knowledge ingestion failed');
  if (row.attempts >= INGEST_MAX_ATTEMPTS) {
    await recordFailure(
      deps.db,
      job,
      'ingest/failed',
      `The source could not be read after ${row.attempts} attempts because of an unexpected error; re-sync it to try again.`,
    );
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
