import type { BotTestResult, BotTestRunStatus } from '@omnibot/contracts';
import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bots } from './bots';
import { inList } from './knowledge';
import { tenants } from './tenants';

export const BOT_TEST_RUN_STATES = ['queued', 'running', 'done', 'failed'] as const;

/**
 * A question of a bot's test suite and what a passing answer must show: text it contains (compared without
 * regard to case and whitespace), a knowledge source it cites, or both. The source is a knowledge source of the
 * tenant, kept by id only: a deleted source makes the case fail with that reason instead of vanishing.
 */
export const botTestCases = pgTable(
  'bot_test_cases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    expectedText: text('expected_text'),
    expectedSourceId: uuid('expected_source_id'),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('bot_test_cases_tenant_bot_idx').on(t.tenantId, t.botId, t.createdAt),
    check(
      'bot_test_cases_expectation_check',
      sql`${t.expectedText} is not null or ${t.expectedSourceId} is not null`,
    ),
  ],
);

/**
 * One run of a bot's test suite, worked by a background job: the counts and, per case, the answer, whether it
 * passed and why. At most one run per bot is queued or running at a time (a partial unique index says so).
 */
export const botTestRuns = pgTable(
  'bot_test_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    status: text('status').$type<BotTestRunStatus>().notNull().default('queued'),
    total: integer('total').notNull().default(0),
    passed: integer('passed').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    results: jsonb('results').$type<BotTestResult[]>().notNull().default([]),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('bot_test_runs_tenant_bot_created_idx').on(t.tenantId, t.botId, t.createdAt),
    uniqueIndex('bot_test_runs_one_active_key')
      .on(t.botId)
      .where(sql`${t.status} in ('queued', 'running')`),
    check('bot_test_runs_status_check', sql`${t.status} in (${inList(BOT_TEST_RUN_STATES)})`),
  ],
);

export type BotTestCaseRow = typeof botTestCases.$inferSelect;
export type BotTestRunRow = typeof botTestRuns.$inferSelect;
