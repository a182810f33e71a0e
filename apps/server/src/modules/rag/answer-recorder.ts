import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { ragAnswers } from '../../db/schema';

export type RecordedAnswer = typeof ragAnswers.$inferInsert & { id: string };

/** Rows per insert statement. */
const MAX_BATCH = 500;
/** How long a recorded answer may wait for others to share its insert. */
export const RECORD_DELAY_MS = 50;

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

export function createAnswerRecorder(db: Db, log: FastifyBaseLogger): AnswerRecorder {
  let queue: RecordedAnswer[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();

  const insertOne = async (row: RecordedAnswer) => {
    try {
      await db.insert(ragAnswers).values(row);
    } catch (error) {
      // The row's ids only: the question and answer are the visitor's words.
      log.error({ err: error, answerId: row.id, ragId: row.ragId }, 'recording an answer failed');
    }
  };

  const write = async (rows: RecordedAnswer[]) => {
    for (let start = 0; start < rows.length; start += MAX_BATCH) {
      const batch = rows.slice(start, start + MAX_BATCH);
      try {
        await db.insert(ragAnswers).values(batch);
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
