import { randomUUID } from 'node:crypto';
import type {
  ChunkListQuery,
  CreateKnowledgeBodySchema,
  CreateSourceBodySchema,
  KnowledgeListQuery,
  SourceSyncSchedule,
  UpdateKnowledgeBodySchema,
} from '@omnibot/contracts';
import { nextSyncAt } from '@omnibot/contracts';
import {
  and,
  asc,
  count,
  desc,
  eq,
  inArray,
  type Placeholder,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import {
  type KnowledgeBaseRow,
  knowledgeBases,
  knowledgeChunks,
  knowledgeQa,
  type KnowledgeSourceRow,
  knowledgeSources,
} from '../../db/schema';
import type { Env } from '../../env';
import type { JobRunner } from '../../jobs/queue';
import { type Actor, writeAudit, writeAudits } from '../../lib/audit';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { refuseUniqueViolation } from '../../lib/unique-violation';
import { actorId, type Principal } from '../../lib/principal';
import type { Storage } from '../../storage';
import { getFile } from '../files/files.service';
import { queueIngestions } from './ingestion';
import { textSearchConfigFor } from './retrieval/retrieval';
import { FetchError, precheckUrl, refusalReasonFor } from '../../lib/guarded-http/guarded-fetch';

const KNOWLEDGE_NOT_FOUND = 'Knowledge base not found';
const SOURCE_NOT_FOUND = 'Source not found';

export interface KnowledgeDeps {
  db: Db;
  env: Env;
  storage: () => Storage;
  /** The job runner, or null when this process runs no jobs (sources then wait, queued, for one that does). */
  jobs: () => JobRunner | null;
}

type CreateInput = z.output<typeof CreateKnowledgeBodySchema>;
type UpdateInput = z.output<typeof UpdateKnowledgeBodySchema>;
type SourceInput = z.output<typeof CreateSourceBodySchema>;

const nameTaken = () =>
  conflict('Another knowledge base of your organisation already has this name.', 'knowledge/name-taken');

const guardName = <T>(work: () => Promise<T>) => refuseUniqueViolation(work, nameTaken);

export async function listKnowledge(db: Db, principal: Principal, query: KnowledgeListQuery) {
  const where = eq(knowledgeBases.tenantId, principal.tenantId);
  const [total] = await db.select({ n: count() }).from(knowledgeBases).where(where);
  const rows = await db
    .select()
    .from(knowledgeBases)
    .where(where)
    .orderBy(asc(knowledgeBases.name), asc(knowledgeBases.id))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  return { rows, total: total?.n ?? 0 };
}

export async function getKnowledge(db: Db, principal: Principal, id: string): Promise<KnowledgeBaseRow> {
  const [row] = await db
    .select()
    .from(knowledgeBases)
    .where(and(eq(knowledgeBases.id, id), eq(knowledgeBases.tenantId, principal.tenantId)))
    .limit(1);
  if (!row) throw notFound(KNOWLEDGE_NOT_FOUND);
  return row;
}

export async function createKnowledge(db: Db, actor: Actor, input: CreateInput): Promise<KnowledgeBaseRow> {
  const { principal } = actor;
  const by = actorId(principal);
  return guardName(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(knowledgeBases)
        .values({
          tenantId: principal.tenantId,
          name: input.name,
          language: input.language,
          tsConfig: textSearchConfigFor(input.language),
          ...(input.chunking
            ? { chunkTargetWords: input.chunking.target_words, chunkOverlap: input.chunking.overlap }
            : {}),
          createdBy: by,
          updatedBy: by,
        })
        .returning();
      if (!row) throw new Error('knowledge base insert returned nothing');
      await writeAudit(tx, actor, {
        tenantId: principal.tenantId,
        action: 'knowledge.create',
        target: row.id,
        details: { name: row.name },
      });
      return row;
    }),
  );
}

/** Changing the language re-derives the text-search configuration; existing chunks keep theirs until re-synced. */
export async function updateKnowledge(
  db: Db,
  actor: Actor,
  id: string,
  input: UpdateInput,
): Promise<KnowledgeBaseRow> {
  const { principal } = actor;
  await getKnowledge(db, principal, id);
  const fields = Object.keys(input);
  return guardName(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .update(knowledgeBases)
        .set({
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.language === undefined
            ? {}
            : { language: input.language, tsConfig: textSearchConfigFor(input.language) }),
          ...(input.chunking
            ? { chunkTargetWords: input.chunking.target_words, chunkOverlap: input.chunking.overlap }
            : {}),
          updatedBy: actorId(principal),
          updatedAt: new Date(),
        })
        .where(and(eq(knowledgeBases.id, id), eq(knowledgeBases.tenantId, principal.tenantId)))
        .returning();
      if (!row) throw notFound(KNOWLEDGE_NOT_FOUND);
      await writeAudit(tx, actor, {
        tenantId: principal.tenantId,
        action: 'knowledge.update',
        target: id,
        details: { fields },
      });
      return row;
    }),
  );
}

/** Deletes a knowledge base; its sources, chunks, postings and Q&A pairs go with it. */
export async function deleteKnowledge(db: Db, actor: Actor, id: string): Promise<void> {
  const { principal } = actor;
  const row = await getKnowledge(db, principal, id);
  await db.transaction(async (tx) => {
    await tx
      .delete(knowledgeBases)
      .where(and(eq(knowledgeBases.id, id), eq(knowledgeBases.tenantId, principal.tenantId)));
    await writeAudit(tx, actor, {
      tenantId: principal.tenantId,
      action: 'knowledge.delete',
      target: id,
      details: { name: row.name },
    });
  });
}

async function enqueue(deps: KnowledgeDeps, rows: readonly KnowledgeSourceRow[]) {
  const jobs = deps.jobs();
  if (jobs)
    await queueIngestions(
      jobs,
      rows.map((row) => ({ tenantId: row.tenantId, sourceId: row.id })),
    );
}

/**
 * A source's web address as it is stored: normalised once, and refused (400, naming the rule) when the guarded
 * client would refuse it whatever DNS answers, so that no source is stored for an address never fetched.
 */
function sourceUrl(deps: KnowledgeDeps, principal: Principal, raw: string): string {
  try {
    return precheckUrl(raw, { allowAddresses: deps.env.FETCH_ALLOW_ADDRESSES }).href;
  } catch (error) {
    if (error instanceof FetchError) {
      throw badRequest(refusalReasonFor(error.code, error.reason, principal), error.code);
    }
    throw error;
  }
}

/** The columns a source's input sets; a file must exist in the organisation's storage. */
async function sourceFields(
  deps: KnowledgeDeps,
  principal: Principal,
  input: SourceInput,
): Promise<Partial<KnowledgeSourceRow>> {
  switch (input.type) {
    case 'text':
      return { title: input.title, content: input.text };
    case 'qa':
      return { title: input.question, content: input.answer };
    case 'file': {
      const file = await getFile({ db: deps.db }, principal.tenantId, input.path);
      return { path: file.path, title: file.name };
    }
    case 'url':
      return {
        url: sourceUrl(deps, principal, input.url),
        crawl: input.crawl
          ? {
              depth: input.crawl.depth,
              maxPages: input.crawl.max_pages,
              ...(input.crawl.include ? { include: input.crawl.include } : {}),
              ...(input.crawl.exclude ? { exclude: input.crawl.exclude } : {}),
            }
          : null,
      };
    case 'sitemap':
      return { url: sourceUrl(deps, principal, input.url) };
  }
}

interface ResolvedSource {
  type: SourceInput['type'];
  fields: Partial<KnowledgeSourceRow>;
}

/** Inserts the sources and their audit rows, one statement each; returns the rows in the order given. */
async function insertSources(
  tx: Db,
  actor: Actor,
  base: KnowledgeBaseRow,
  sources: readonly ResolvedSource[],
): Promise<KnowledgeSourceRow[]> {
  const { principal } = actor;
  const by = actorId(principal);
  // Ids chosen here give the rows back in the order of the request, whatever order RETURNING has.
  const ids = sources.map(() => randomUUID());
  const inserted = await tx
    .insert(knowledgeSources)
    .values(
      sources.map(({ type, fields }, index) => ({
        ...fields,
        id: ids[index],
        tenantId: principal.tenantId,
        knowledgeBaseId: base.id,
        type,
        state: 'queued' as const,
        createdBy: by,
        updatedBy: by,
      })),
    )
    .returning();
  const byId = new Map(inserted.map((row) => [row.id, row]));
  const rows = ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw new Error('knowledge source insert returned nothing');
    return row;
  });
  await writeAudits(
    tx,
    actor,
    rows.map((row) => ({
      tenantId: principal.tenantId,
      action: 'knowledge.source.create',
      target: row.id,
      details: { knowledge_id: base.id, type: row.type },
    })),
  );
  return rows;
}

/** Stores a source as queued and queues its ingestion; a file must exist in the organisation's storage. */
export async function createSource(
  deps: KnowledgeDeps,
  actor: Actor,
  knowledgeId: string,
  input: SourceInput,
): Promise<KnowledgeSourceRow> {
  const [row] = await createSources(deps, actor, knowledgeId, [input], (error) => error);
  if (!row) throw new Error('knowledge source insert returned nothing');
  return row;
}

const nameItem = (error: AppError, index: number) =>
  new AppError(error.statusCode, error.code, `Item ${index + 1}: ${error.message}`, error.headers);

/**
 * Stores many sources as queued in one transaction and queues their ingestion, all or none: every input is
 * checked first (files must exist), and a refusal names the item, counting from 1.
 */
export async function createSources(
  deps: KnowledgeDeps,
  actor: Actor,
  knowledgeId: string,
  inputs: SourceInput[],
  refusal: (error: AppError, index: number) => AppError = nameItem,
): Promise<KnowledgeSourceRow[]> {
  const base = await getKnowledge(deps.db, actor.principal, knowledgeId);
  const resolved: ResolvedSource[] = [];
  for (const [index, input] of inputs.entries()) {
    try {
      resolved.push({ type: input.type, fields: await sourceFields(deps, actor.principal, input) });
    } catch (error) {
      throw error instanceof AppError ? refusal(error, index) : error;
    }
  }
  const rows = await deps.db.transaction((tx) => insertSources(tx, actor, base, resolved));
  await enqueue(deps, rows);
  return rows;
}

export async function listSources(
  db: Db,
  principal: Principal,
  knowledgeId: string,
  query: KnowledgeListQuery,
) {
  await getKnowledge(db, principal, knowledgeId);
  const where = and(
    eq(knowledgeSources.tenantId, principal.tenantId),
    eq(knowledgeSources.knowledgeBaseId, knowledgeId),
  );
  const [total] = await db.select({ n: count() }).from(knowledgeSources).where(where);
  const rows = await db
    .select()
    .from(knowledgeSources)
    .where(where)
    .orderBy(desc(knowledgeSources.createdAt), asc(knowledgeSources.id))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  return { rows, total: total?.n ?? 0 };
}

export async function getSource(
  db: Db,
  principal: Principal,
  knowledgeId: string,
  sourceId: string,
): Promise<KnowledgeSourceRow> {
  const [row] = await db
    .select()
    .from(knowledgeSources)
    .where(
      and(
        eq(knowledgeSources.id, sourceId),
        eq(knowledgeSources.knowledgeBaseId, knowledgeId),
        eq(knowledgeSources.tenantId, principal.tenantId),
      ),
    )
    .limit(1);
  if (!row) throw notFound(SOURCE_NOT_FOUND);
  return row;
}

/** Deletes a source with its chunks and Q&A pairs. */
export async function deleteSource(
  db: Db,
  actor: Actor,
  knowledgeId: string,
  sourceId: string,
): Promise<void> {
  const { principal } = actor;
  await getSource(db, principal, knowledgeId, sourceId);
  await db.transaction(async (tx) => {
    await tx
      .delete(knowledgeSources)
      .where(and(eq(knowledgeSources.id, sourceId), eq(knowledgeSources.tenantId, principal.tenantId)));
    await writeAudit(tx, actor, {
      tenantId: principal.tenantId,
      action: 'knowledge.source.delete',
      target: sourceId,
      details: { knowledge_id: knowledgeId },
    });
  });
}

/** Queues a source to be read again; unchanged content is recognised by its hash and not re-indexed. */
export async function resyncSource(
  deps: KnowledgeDeps,
  actor: Actor,
  knowledgeId: string,
  sourceId: string,
): Promise<KnowledgeSourceRow> {
  const { principal } = actor;
  await getSource(deps.db, principal, knowledgeId, sourceId);
  const [row] = await deps.db
    .update(knowledgeSources)
    .set({
      state: 'queued',
      errorCode: null,
      errorReason: null,
      attempts: 0,
      updatedBy: actorId(principal),
      updatedAt: new Date(),
    })
    .where(and(eq(knowledgeSources.id, sourceId), eq(knowledgeSources.tenantId, principal.tenantId)))
    .returning();
  if (!row) throw notFound(SOURCE_NOT_FOUND);
  await enqueue(deps, [row]);
  return row;
}

/**
 * Sets when a web page or sitemap source is read again on its own; its next run is computed from now. Other source
 * types can only be set to off (400 knowledge/sync-not-supported).
 */
export async function setSourceSync(
  db: Db,
  actor: Actor,
  knowledgeId: string,
  sourceId: string,
  schedule: SourceSyncSchedule,
  now = new Date(),
): Promise<KnowledgeSourceRow> {
  const { principal } = actor;
  const source = await getSource(db, principal, knowledgeId, sourceId);
  if (schedule.frequency !== 'off' && source.type !== 'url' && source.type !== 'sitemap') {
    throw badRequest(
      'Only web page and sitemap sources can be re-synced on a schedule.',
      'knowledge/sync-not-supported',
    );
  }
  const run = schedule.frequency === 'off' ? null : schedule;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(knowledgeSources)
      .set({
        syncSchedule: run,
        nextSyncAt: run ? nextSyncAt(run, now) : null,
        updatedBy: actorId(principal),
        updatedAt: new Date(),
      })
      .where(and(eq(knowledgeSources.id, sourceId), eq(knowledgeSources.tenantId, principal.tenantId)))
      .returning();
    if (!row) throw notFound(SOURCE_NOT_FOUND);
    await writeAudit(tx, actor, {
      tenantId: principal.tenantId,
      action: 'knowledge.source.sync-schedule',
      target: sourceId,
      details: { knowledge_id: knowledgeId, ...schedule },
    });
    return row;
  });
}

export async function listChunks(
  db: Db,
  principal: Principal,
  knowledgeId: string,
  sourceId: string,
  query: ChunkListQuery,
) {
  await getSource(db, principal, knowledgeId, sourceId);
  const where = and(eq(knowledgeChunks.tenantId, principal.tenantId), eq(knowledgeChunks.sourceId, sourceId));
  const [total] = await db.select({ n: count() }).from(knowledgeChunks).where(where);
  const rows = await db
    .select({
      id: knowledgeChunks.id,
      ordinal: knowledgeChunks.ordinal,
      text: knowledgeChunks.text,
      headingPath: knowledgeChunks.headingPath,
      page: knowledgeChunks.page,
    })
    .from(knowledgeChunks)
    .where(where)
    .orderBy(asc(knowledgeChunks.ordinal))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  return { rows, total: total?.n ?? 0 };
}

/** Which of `ids` are knowledge bases of the tenant. */
export async function tenantKnowledgeBaseIds(db: Db, tenantId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: knowledgeBases.id })
    .from(knowledgeBases)
    .where(and(eq(knowledgeBases.tenantId, tenantId), inArray(knowledgeBases.id, ids)));
  return rows.map((row) => row.id);
}

/** A knowledge base's name as a correlated subquery, for a later module's statement that lists rows naming one. */
export const knowledgeBaseNameSql = (knowledgeBaseId: SQLWrapper, tenantId: SQLWrapper) =>
  sql<string>`(select ${knowledgeBases.name} from ${knowledgeBases}
    where ${knowledgeBases.id} = ${knowledgeBaseId} and ${knowledgeBases.tenantId} = ${tenantId})`;

/** Whether the tenant's knowledge bases `knowledgeBaseIds` (a subquery) hold any curated Q&A pair, as a column. */
export const holdsQaSql = (tenantId: SQLWrapper | Placeholder | string, knowledgeBaseIds: SQL) =>
  sql<boolean>`exists (select 1 from ${knowledgeQa} a
        where a.tenant_id = ${tenantId} and a.knowledge_base_id in (${knowledgeBaseIds}))`;

/** Title and link of some of the tenant's sources (those it has), for the hits that cite them. */
export async function sourceLinksOf(db: Db, tenantId: string, sourceIds: string[]) {
  if (sourceIds.length === 0) return [];
  return db
    .select({
      id: knowledgeSources.id,
      type: knowledgeSources.type,
      title: knowledgeSources.title,
      url: knowledgeSources.url,
      path: knowledgeSources.path,
    })
    .from(knowledgeSources)
    .where(and(eq(knowledgeSources.tenantId, tenantId), inArray(knowledgeSources.id, sourceIds)));
}

/** Whether source `id` is one of the tenant's. */
export async function tenantHasSource(db: Db, tenantId: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: knowledgeSources.id })
    .from(knowledgeSources)
    .where(and(eq(knowledgeSources.tenantId, tenantId), eq(knowledgeSources.id, id)))
    .limit(1);
  return row !== undefined;
}

/** The tenant's chunks among `ids` (text, heading path, page) and its Q&A pairs among them, for an answer's trace. */
export async function passagesOf(db: Db, tenantId: string, ids: string[]) {
  const [chunks, pairs] = await Promise.all([
    db
      .select({
        id: knowledgeChunks.id,
        text: knowledgeChunks.text,
        headingPath: knowledgeChunks.headingPath,
        page: knowledgeChunks.page,
      })
      .from(knowledgeChunks)
      .where(and(eq(knowledgeChunks.tenantId, tenantId), inArray(knowledgeChunks.id, ids))),
    db
      .select({ id: knowledgeQa.id, question: knowledgeQa.question, answer: knowledgeQa.answer })
      .from(knowledgeQa)
      .where(and(eq(knowledgeQa.tenantId, tenantId), inArray(knowledgeQa.id, ids))),
  ]);
  return { chunks, pairs };
}

/** The sources of the tenant's knowledge bases among `knowledgeBaseIds`, by knowledge base name, then title. */
export async function sourcesOfKnowledgeBases(
  db: Db,
  tenantId: string,
  knowledgeBaseIds: string[],
  limit: number,
) {
  if (knowledgeBaseIds.length === 0) return [];
  return db
    .select({
      id: knowledgeSources.id,
      title: knowledgeSources.title,
      url: knowledgeSources.url,
      type: knowledgeSources.type,
      knowledgeId: knowledgeBases.id,
      knowledgeName: knowledgeBases.name,
    })
    .from(knowledgeBases)
    .innerJoin(
      knowledgeSources,
      and(
        eq(knowledgeSources.tenantId, knowledgeBases.tenantId),
        eq(knowledgeSources.knowledgeBaseId, knowledgeBases.id),
      ),
    )
    .where(and(eq(knowledgeBases.tenantId, tenantId), inArray(knowledgeBases.id, knowledgeBaseIds)))
    .orderBy(asc(knowledgeBases.name), asc(knowledgeSources.title), asc(knowledgeSources.id))
    .limit(limit);
}
