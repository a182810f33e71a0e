import { nextSyncAt, type SourceSyncRun } from '@omnibot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../../db/client';
import type { JobRunner } from '../../jobs/queue';
import { type IngestJob, queueIngestions } from './ingestion';

export const SOURCE_SYNC_JOB = 'knowledge-source-sync';
/** Every minute: a schedule names a minute, so a due source waits at most one. */
export const SOURCE_SYNC_CRON = '* * * * *';
/** Sources claimed per statement; a sweep claims batches until none is due. */
const CLAIM_BATCH = 200;

interface DueRow {
  tenant_id: string;
  id: string;
  sync_schedule: SourceSyncRun | string;
}

/**
 * Claims up to `limit` sources whose scheduled sync is due, in one transaction: each is locked with
 * FOR UPDATE SKIP LOCKED (so a concurrent claim on another process passes over it), queued, and its next run moved
 * past `now`, so no later claim sees it due again. Sources being read just now wait for the next sweep.
 */
export async function claimDueSources(db: Db, now: Date, limit = CLAIM_BATCH): Promise<IngestJob[]> {
  return db.transaction(async (tx) => {
    const due = rowsOf<DueRow>(
      await tx.execute(sql`
        select tenant_id, id, sync_schedule from knowledge_sources
        where next_sync_at is not null and next_sync_at <= ${now.toISOString()}::timestamptz
          and sync_schedule is not null and state in ('ready', 'failed')
        order by next_sync_at
        limit ${limit}
        for update skip locked`),
    );
    if (due.length === 0) return [];
    const rows = due.map((row) => {
      const schedule =
        typeof row.sync_schedule === 'string'
          ? (JSON.parse(row.sync_schedule) as SourceSyncRun)
          : row.sync_schedule;
      return { tenant_id: row.tenant_id, id: row.id, next: nextSyncAt(schedule, now).toISOString() };
    });
    await tx.execute(sql`
      update knowledge_sources s set
        next_sync_at = x.next, state = 'queued', error_code = null, error_reason = null, attempts = 0,
        updated_at = now()
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(tenant_id text, id uuid, next timestamptz)
      where s.tenant_id = x.tenant_id and s.id = x.id`);
    return rows.map((row) => ({ tenantId: row.tenant_id, sourceId: row.id }));
  });
}

/** Claims every due source, batch by batch, and queues its ingestion (the path a manual sync takes). */
export async function runSourceSyncSweep(db: Db, jobs: JobRunner, now = new Date()): Promise<number> {
  let total = 0;
  for (;;) {
    const claimed = await claimDueSources(db, now);
    if (claimed.length > 0) await queueIngestions(jobs, claimed);
    total += claimed.length;
    if (claimed.length < CLAIM_BATCH) return total;
  }
}

/** Re-reads the web page and sitemap sources whose schedule is due, every minute, on one process at a time. */
export async function scheduleSourceSync(
  jobs: JobRunner,
  { db, log }: { db: Db; log: FastifyBaseLogger },
): Promise<void> {
  await jobs.work(SOURCE_SYNC_JOB, async () => {
    const queued = await runSourceSyncSweep(db, jobs);
    if (queued > 0) log.info({ queued }, 'scheduled knowledge source syncs queued');
  });
  await jobs.schedule(SOURCE_SYNC_JOB, SOURCE_SYNC_CRON);
}
