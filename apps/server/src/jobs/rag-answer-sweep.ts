import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import type { JobRunner } from './queue';

export const RAG_ANSWER_SWEEP_JOB = 'rag-answer-sweep';
/** Daily at 03:17, off the hour so it does not meet other hourly work. */
export const RAG_ANSWER_SWEEP_CRON = '17 3 * * *';
const BATCH = 5000;

/** Deletes the RAG answers older than `retentionDays`, in batches so no statement holds locks for long; returns how many went. */
export async function sweepRagAnswers(db: Db, retentionDays: number): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      with gone as (
        delete from rag_answers where id in (
          select id from rag_answers
          where created_at < now() - make_interval(days => ${retentionDays}::integer)
          limit ${BATCH}
        ) returning 1
      ) select count(*)::integer as n from gone`);
    const n = Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
    total += n;
    if (n < BATCH) return total;
  }
}

/** Keeps rag_answers bounded: rows older than RAG_ANSWER_RETENTION_DAYS are deleted once a day. */
export async function scheduleRagAnswerSweep(
  jobs: JobRunner,
  { db, retentionDays, log }: { db: Db; retentionDays: number; log: FastifyBaseLogger },
): Promise<void> {
  await jobs.work(RAG_ANSWER_SWEEP_JOB, async () => {
    const deleted = await sweepRagAnswers(db, retentionDays);
    log.info({ deleted, retentionDays }, 'old RAG answers swept');
  });
  await jobs.schedule(RAG_ANSWER_SWEEP_JOB, RAG_ANSWER_SWEEP_CRON);
}
