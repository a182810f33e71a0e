import type { BotTestCase, BotTestRun } from '@omnibot/contracts';
import type { BotTestCaseRow, BotTestRunRow } from '../../db/schema';

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

/** A case as the API shows it, with the title of its expected source (`titles` by source id). */
export function presentCase(row: BotTestCaseRow, titles: Map<string, string>): BotTestCase {
  return {
    id: row.id,
    bot_id: row.botId,
    question: row.question,
    expected_text: row.expectedText,
    expected_source_id: row.expectedSourceId,
    expected_source_title: row.expectedSourceId === null ? null : (titles.get(row.expectedSourceId) ?? null),
    created_by: row.createdBy,
    updated_by: row.updatedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentRun(row: BotTestRunRow): BotTestRun {
  return {
    id: row.id,
    bot_id: row.botId,
    status: row.status,
    total: row.total,
    passed: row.passed,
    failed: row.failed,
    error: row.error,
    results: row.results,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
  };
}
