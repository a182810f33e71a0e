import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { executePrepared, type Db } from '../../db/client';
import type { ragAnswers } from '../../db/schema';

/** An answer to record; created_at is the time it is written. */
export type RecordedAnswer = Omit<typeof ragAnswers.$inferInsert, 'id' | 'createdAt'> & { id: string };

/** Rows per insert statement. */
const MAX_BATCH = 500;
/**
 * How long a recorded answer may wait for others to share its insert: each statement costs several times a row
 * (a commit on embedded PGlite writes through the file system), so busy servers write tens of rows at once.
 */
const RECORD_DELAY_MS = 200;

/**
 * Writes answers to rag_answers after their reply is sent: rows recorded within RECORD_DELAY_MS go in one
 * multi-row insert. A batch that fails is retried row by row, so one bad row (its RAG deleted meanwhile) loses
 * only itself; a failure is logged and never reaches the caller. `flush` resolves once everything recorded
 * so far is written (tests read rag_answers after it; the app flushes on close).
 */
export interface AnswerRecorder {
  record(row: RecordedAnswer): void;
  flush(): Promise<void>;
}

/**
 * Inserts rows into rag_answers in one statement whose text never changes (the rows travel as one JSON
 * parameter), so it is parsed once per connection and costs no query building; created_at takes its default.
 * The insert commits without waiting for its WAL flush (synchronous_commit off for this statement alone): the
 * answers are a record of what was said, consistent after any crash, and only a database crash can forget the
 * last fraction of a second of them, while every batch no longer waits on a disk flush.
 */
async function insertAnswers(db: Db, rows: RecordedAnswer[]): Promise<void> {
  const json = JSON.stringify(
    rows.map((row) => ({
      id: row.id,
      tenant_id: row.tenantId,
      rag_id: row.ragId,
      question: row.question,
      answer: row.answer,
      kind: row.kind,
      fallback: row.fallback,
      chunks: row.chunks ?? [],
      retrieve_ms: row.retrieveMs,
      generate_ms: row.generateMs,
      total_ms: row.totalMs,
      model_error_code: row.modelErrorCode ?? null,
      channel: row.channel,
      created_by: row.createdBy ?? null,
    })),
  );
  await executePrepared(
    db,
    'rag_answers_insert',
    sql`insert into rag_answers (id, tenant_id, rag_id, question, answer, kind, fallback, chunks, retrieve_ms,
      generate_ms, total_ms, model_error_code, channel, created_by)
    select r.id, r.tenant_id, r.rag_id, r.question, r.answer, r.kind, r.fallback, r.chunks, r.retrieve_ms,
      r.generate_ms, r.total_ms, r.model_error_code, r.channel, r.created_by
    from jsonb_to_recordset(${json}::jsonb) as r(id uuid, tenant_id text, rag_id uuid, question text, answer text,
      kind text, fallback boolean, chunks jsonb, retrieve_ms real, generate_ms real, total_ms real,
      model_error_code text, channel text, created_by text)
    cross join (select set_config('synchronous_commit', 'off', true)) as async_commit`,
  );
}

export function createAnswerRecorder(db: Db, log: FastifyBaseLogger): AnswerRecorder {
  let queue: RecordedAnswer[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();

  const insertOne = async (row: RecordedAnswer) => {
    try {
      await insertAnswers(db, [row]);
    } catch (error) {
      // The row's ids only: the question and answer are the visitor's words.
      log.error({ err: error, answerId: row.id, ragId: row.ragId }, 'recording an answer failed');
    }
  };

  const write = async (rows: RecordedAnswer[]) => {
    for (let start = 0; start < rows.length; start += MAX_BATCH) {
      const batch = rows.slice(start, start + MAX_BATCH);
      try {
        await insertAnswers(db, batch);
      } catch {
        for (const row of batch) await insertOne(row);
      }
    }
  };

  const drain = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const rows = queue;
    queue = [];
    // Batches are written one after another, so flush() awaiting the last one awaits them all.
    writing = writing.then(() => (rows.length > 0 ? write(rows) : undefined));
    return writing;
  };

  return {
    record(row) {
      queue.push(row);
      if (queue.length >= MAX_BATCH) void drain();
      else timer ??= setTimeout(() => void drain(), RECORD_DELAY_MS);
    },
    flush: drain,
  };
}
