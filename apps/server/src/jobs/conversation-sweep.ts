import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import type { JobRunner } from './queue';

const CONVERSATION_SWEEP_JOB = 'conversation-sweep';
/** Daily at 03:29, off the hour and apart from the RAG answer sweep. */
const CONVERSATION_SWEEP_CRON = '29 3 * * *';
const BATCH = 2000;

/**
 * Deletes the conversations whose last message is older than `retentionDays` (their messages and feedback go with
 * them), in batches so no statement holds locks for long; returns how many conversations went.
 */
export async function sweepConversations(db: Db, retentionDays: number): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      with gone as (
        delete from conversations where id in (
          select id from conversations
          where last_message_at < now() - make_interval(days => ${retentionDays}::integer)
          limit ${BATCH}
        ) returning 1
      ) select count(*)::integer as n from gone`);
    const n = Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
    total += n;
    if (n < BATCH) break;
  }
  // The origins that loaded a bot are kept as long as conversations are.
  await db.execute(
    sql`delete from bot_origins where last_seen < now() - make_interval(days => ${retentionDays}::integer)`,
  );
  return total;
}

/** Keeps visitor conversations bounded: those idle longer than CONVERSATION_RETENTION_DAYS are deleted daily. */
export async function scheduleConversationSweep(
  jobs: JobRunner,
  { db, retentionDays, log }: { db: Db; retentionDays: number; log: FastifyBaseLogger },
): Promise<void> {
  await jobs.work(CONVERSATION_SWEEP_JOB, async () => {
    const deleted = await sweepConversations(db, retentionDays);
    log.info({ deleted, retentionDays }, 'old conversations swept');
  });
  await jobs.schedule(CONVERSATION_SWEEP_JOB, CONVERSATION_SWEEP_CRON);
}
