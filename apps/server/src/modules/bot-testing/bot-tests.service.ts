import {
  type AnswerSource,
  BOT_TEST_CASES_MAX,
  BOT_TEST_RUNS_LISTED,
  type BotTestCase,
  type BotTestResult,
  type BotTestRun,
  type BotTestSource,
  type CreateBotTestCaseBodySchema,
  type UpdateBotTestCaseBodySchema,
} from '@omnibot/contracts';
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import {
  type BotTestCaseRow,
  type BotTestRunRow,
  botTestCases,
  botTestRuns,
  bots,
  indexKnowledgeBases,
  knowledgeBases,
  knowledgeSources,
  rags,
} from '../../db/schema';
import { type Actor, writeAudit } from '../../lib/audit';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { refuseUniqueViolation } from '../../lib/unique-violation';
import type { JobRunner } from '../../jobs/queue';
import { actorId, type Principal } from '../../plugins/principal';
import { type BotReply, engineFor } from '../bots/bot-engine';
import { BOT_NOT_FOUND, type BotSecrets, type StoredBot } from '../bots/bots.service';
import type { AnswerDeps } from '../rag/rag-answer';

/** The pg-boss queue that works test runs. */
export const BOT_TEST_JOB = 'bot-test-run';
export const TEST_CASE_NOT_FOUND = 'Test case not found';
export const TEST_RUN_NOT_FOUND = 'Test run not found';
export const INTERRUPTED = 'The server stopped while the run was going on; run the suite again.';

export interface BotTestingDeps {
  db: Db;
  secrets: BotSecrets;
  /** The runner that works queued runs; null leaves them queued (an app built without jobs). */
  jobs: () => JobRunner | null;
}

export interface BotTestJob {
  tenantId: string;
  runId: string;
}

type CreateCaseInput = z.output<typeof CreateBotTestCaseBodySchema>;
type UpdateCaseInput = z.output<typeof UpdateBotTestCaseBodySchema>;

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

const noExpectation = () =>
  badRequest('Give an expected text, an expected source, or both.', 'bot-test/no-expectation');
const unknownSource = () =>
  badRequest('The knowledge source does not exist in your organisation.', 'bot-test/unknown-source');

/** The bot of the tenant, with its configuration opened; a bot of another tenant is answered as unknown. */
async function ownedBot(deps: Pick<BotTestingDeps, 'db' | 'secrets'>, tenantId: string, botId: string) {
  const [row] = await deps.db
    .select()
    .from(bots)
    .where(and(eq(bots.tenantId, tenantId), eq(bots.id, botId)))
    .limit(1);
  if (!row) throw notFound(BOT_NOT_FOUND);
  return { row, config: deps.secrets.open(row.config) } satisfies StoredBot;
}

/** Titles of the tenant's knowledge sources among `ids` (a source without a title shows its address). */
async function sourceTitles(db: Db, tenantId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: knowledgeSources.id, title: knowledgeSources.title, url: knowledgeSources.url })
    .from(knowledgeSources)
    .where(and(eq(knowledgeSources.tenantId, tenantId), inArray(knowledgeSources.id, ids)));
  return new Map(rows.map((row) => [row.id, row.title ?? row.url ?? 'Untitled source']));
}

function presentCase(row: BotTestCaseRow, titles: Map<string, string>): BotTestCase {
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

async function presentCases(db: Db, tenantId: string, rows: BotTestCaseRow[]) {
  const ids = [
    ...new Set(rows.flatMap((row) => (row.expectedSourceId === null ? [] : [row.expectedSourceId]))),
  ];
  const titles = await sourceTitles(db, tenantId, ids);
  return rows.map((row) => presentCase(row, titles));
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

async function assertSource(db: Db, tenantId: string, sourceId: string | null | undefined) {
  if (sourceId === null || sourceId === undefined) return;
  const [row] = await db
    .select({ id: knowledgeSources.id })
    .from(knowledgeSources)
    .where(and(eq(knowledgeSources.tenantId, tenantId), eq(knowledgeSources.id, sourceId)))
    .limit(1);
  if (!row) throw unknownSource();
}

export async function listCases(deps: BotTestingDeps, principal: Principal, botId: string) {
  await ownedBot(deps, principal.tenantId, botId);
  const rows = await deps.db
    .select()
    .from(botTestCases)
    .where(and(eq(botTestCases.tenantId, principal.tenantId), eq(botTestCases.botId, botId)))
    .orderBy(asc(botTestCases.createdAt), asc(botTestCases.id));
  return presentCases(deps.db, principal.tenantId, rows);
}

/** Adds a case; the bot's row is locked meanwhile so that two requests cannot pass the limit together. */
export async function createCase(
  deps: BotTestingDeps,
  actor: Actor,
  botId: string,
  input: CreateCaseInput,
): Promise<BotTestCase> {
  const { principal } = actor;
  await ownedBot(deps, principal.tenantId, botId);
  await assertSource(deps.db, principal.tenantId, input.expected_source_id);
  const by = actorId(principal);
  const row = await deps.db.transaction(async (tx) => {
    await tx
      .select({ id: bots.id })
      .from(bots)
      .where(and(eq(bots.tenantId, principal.tenantId), eq(bots.id, botId)))
      .for('update');
    const [held] = await tx
      .select({ n: count() })
      .from(botTestCases)
      .where(and(eq(botTestCases.tenantId, principal.tenantId), eq(botTestCases.botId, botId)));
    if ((held?.n ?? 0) >= BOT_TEST_CASES_MAX) {
      throw conflict(
        `A bot holds at most ${BOT_TEST_CASES_MAX} test cases; delete some first.`,
        'bot-test/too-many-cases',
      );
    }
    const [inserted] = await tx
      .insert(botTestCases)
      .values({
        tenantId: principal.tenantId,
        botId,
        question: input.question,
        expectedText: input.expected_text,
        expectedSourceId: input.expected_source_id,
        createdBy: by,
        updatedBy: by,
      })
      .returning();
    if (!inserted) throw new AppError(500, 'internal', 'The test case was not stored.');
    await writeAudit(tx, actor, {
      tenantId: principal.tenantId,
      action: 'bot-test-case.create',
      target: inserted.id,
      details: { bot: botId },
    });
    return inserted;
  });
  const [presented] = await presentCases(deps.db, principal.tenantId, [row]);
  if (!presented) throw new AppError(500, 'internal', 'The test case was not stored.');
  return presented;
}

async function ownedCase(db: Db, tenantId: string, botId: string, caseId: string) {
  const [row] = await db
    .select()
    .from(botTestCases)
    .where(
      and(eq(botTestCases.tenantId, tenantId), eq(botTestCases.botId, botId), eq(botTestCases.id, caseId)),
    )
    .limit(1);
  if (!row) throw notFound(TEST_CASE_NOT_FOUND);
  return row;
}

export async function updateCase(
  deps: BotTestingDeps,
  actor: Actor,
  botId: string,
  caseId: string,
  input: UpdateCaseInput,
): Promise<BotTestCase> {
  const { principal } = actor;
  await ownedBot(deps, principal.tenantId, botId);
  const current = await ownedCase(deps.db, principal.tenantId, botId, caseId);
  const expectedText = input.expected_text === undefined ? current.expectedText : input.expected_text;
  const expectedSourceId =
    input.expected_source_id === undefined ? current.expectedSourceId : input.expected_source_id;
  if (expectedText === null && expectedSourceId === null) throw noExpectation();
  if (input.expected_source_id !== undefined && input.expected_source_id !== current.expectedSourceId) {
    await assertSource(deps.db, principal.tenantId, input.expected_source_id);
  }
  const row = await deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(botTestCases)
      .set({
        question: input.question ?? current.question,
        expectedText,
        expectedSourceId,
        updatedBy: actorId(principal),
        updatedAt: new Date(),
      })
      .where(and(eq(botTestCases.tenantId, principal.tenantId), eq(botTestCases.id, caseId)))
      .returning();
    if (!updated) throw notFound(TEST_CASE_NOT_FOUND);
    await writeAudit(tx, actor, {
      tenantId: principal.tenantId,
      action: 'bot-test-case.update',
      target: caseId,
      details: { bot: botId },
    });
    return updated;
  });
  const [presented] = await presentCases(deps.db, principal.tenantId, [row]);
  if (!presented) throw notFound(TEST_CASE_NOT_FOUND);
  return presented;
}

export async function deleteCase(deps: BotTestingDeps, actor: Actor, botId: string, caseId: string) {
  const { principal } = actor;
  await ownedBot(deps, principal.tenantId, botId);
  await ownedCase(deps.db, principal.tenantId, botId, caseId);
  await deps.db.transaction(async (tx) => {
    await tx
      .delete(botTestCases)
      .where(and(eq(botTestCases.tenantId, principal.tenantId), eq(botTestCases.id, caseId)));
    await writeAudit(tx, actor, {
      tenantId: principal.tenantId,
      action: 'bot-test-case.delete',
      target: caseId,
      details: { bot: botId },
    });
  });
}

/** The sources of the knowledge bases behind the bot's RAG (none when it answers without one), by title. */
export async function listTestSources(
  deps: BotTestingDeps,
  principal: Principal,
  botId: string,
): Promise<BotTestSource[]> {
  const bot = await ownedBot(deps, principal.tenantId, botId);
  const ragId = bot.config.engines.rag_id;
  if (ragId === null) return [];
  const tenantId = principal.tenantId;
  const rows = await deps.db
    .select({
      id: knowledgeSources.id,
      title: knowledgeSources.title,
      url: knowledgeSources.url,
      type: knowledgeSources.type,
      knowledgeId: knowledgeBases.id,
      knowledgeName: knowledgeBases.name,
    })
    .from(rags)
    .innerJoin(
      indexKnowledgeBases,
      and(eq(indexKnowledgeBases.tenantId, rags.tenantId), eq(indexKnowledgeBases.indexId, rags.indexId)),
    )
    .innerJoin(
      knowledgeBases,
      and(
        eq(knowledgeBases.tenantId, indexKnowledgeBases.tenantId),
        eq(knowledgeBases.id, indexKnowledgeBases.knowledgeBaseId),
      ),
    )
    .innerJoin(
      knowledgeSources,
      and(
        eq(knowledgeSources.tenantId, knowledgeBases.tenantId),
        eq(knowledgeSources.knowledgeBaseId, knowledgeBases.id),
      ),
    )
    .where(and(eq(rags.tenantId, tenantId), eq(rags.id, ragId)))
    .orderBy(asc(knowledgeBases.name), asc(knowledgeSources.title), asc(knowledgeSources.id))
    .limit(1000);
  return rows.map((row) => ({
    id: row.id,
    title: row.title ?? row.url ?? 'Untitled source',
    type: row.type,
    knowledge_id: row.knowledgeId,
    knowledge_name: row.knowledgeName,
  }));
}

/** Text compared without regard to case, Unicode compatibility forms or runs of whitespace. */
export const normaliseForJudging = (text: string) =>
  text.normalize('NFKC').toLocaleLowerCase('en').replace(/\s+/g, ' ').trim();

/**
 * Whether an answer passes a case: it contains the expected text (case- and whitespace-insensitive) and cites a
 * source with the expected source id, for whichever of the two the case gives; the reason says what was missing.
 */
export function judge(
  testCase: Pick<BotTestCaseRow, 'expectedText' | 'expectedSourceId'>,
  reply: Pick<BotReply, 'messages' | 'sources' | 'fallback' | 'trace'>,
  sourceTitle: (id: string) => string,
): { answer: string; pass: boolean; reason: string; citedSourceIds: string[] } {
  const answer = reply.messages.map((message) => message.text).join('\n\n');
  const cited = [...new Set(reply.sources.map((source: AnswerSource) => source.source_id))];
  const failures: string[] = [];
  const passes: string[] = [];
  if (testCase.expectedText !== null) {
    if (normaliseForJudging(answer).includes(normaliseForJudging(testCase.expectedText))) {
      passes.push('contains the expected text');
    } else {
      failures.push(`does not contain "${testCase.expectedText}"`);
    }
  }
  if (testCase.expectedSourceId !== null) {
    const title = sourceTitle(testCase.expectedSourceId);
    if (cited.includes(testCase.expectedSourceId)) {
      passes.push(`cites ${title}`);
    } else {
      failures.push(cited.length === 0 ? `cites no source (expected ${title})` : `does not cite ${title}`);
    }
  }
  const pass = failures.length === 0;
  let reason = `The answer ${(pass ? passes : failures).join(' and ')}.`;
  if (!pass && reply.fallback) {
    reason += ' The bot gave its fallback text';
    reason += reply.trace.error ? `: ${reply.trace.error.reason}` : '.';
  }
  return { answer, pass, reason, citedSourceIds: cited };
}

/**
 * Queues a run of the bot's whole suite. Only one run per bot may be queued or running (409
 * `bot-test/run-in-progress`); a bot without cases cannot be run.
 */
export async function startRun(deps: BotTestingDeps, actor: Actor, botId: string): Promise<BotTestRun> {
  const { principal } = actor;
  const tenantId = principal.tenantId;
  await ownedBot(deps, tenantId, botId);
  const [held] = await deps.db
    .select({ n: count() })
    .from(botTestCases)
    .where(and(eq(botTestCases.tenantId, tenantId), eq(botTestCases.botId, botId)));
  const total = held?.n ?? 0;
  if (total === 0) throw badRequest('The bot has no test cases yet; add one first.', 'bot-test/no-cases');
  const by = actorId(principal);
  const run = await refuseUniqueViolation(
    () =>
      deps.db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(botTestRuns)
          .values({ tenantId, botId, status: 'queued', total, createdBy: by, updatedBy: by })
          .returning();
        if (!inserted) throw new AppError(500, 'internal', 'The test run was not stored.');
        await writeAudit(tx, actor, {
          tenantId,
          action: 'bot-test-run.start',
          target: inserted.id,
          details: { bot: botId, cases: total },
        });
        return inserted;
      }),
    () =>
      conflict(
        'A test run of this bot is already queued or running; wait for it to finish.',
        'bot-test/run-in-progress',
      ),
  );
  const jobs = deps.jobs();
  if (jobs) {
    try {
      await jobs.send<BotTestJob>(BOT_TEST_JOB, { tenantId, runId: run.id }, { retryLimit: 0 });
    } catch (error) {
      await deps.db
        .update(botTestRuns)
        .set({ status: 'failed', error: 'The run could not be queued.', finishedAt: new Date() })
        .where(and(eq(botTestRuns.tenantId, tenantId), eq(botTestRuns.id, run.id)));
      throw error;
    }
  }
  return presentRun(run);
}

export async function listRuns(deps: BotTestingDeps, principal: Principal, botId: string) {
  await ownedBot(deps, principal.tenantId, botId);
  const rows = await deps.db
    .select()
    .from(botTestRuns)
    .where(and(eq(botTestRuns.tenantId, principal.tenantId), eq(botTestRuns.botId, botId)))
    .orderBy(desc(botTestRuns.createdAt), desc(botTestRuns.id))
    .limit(BOT_TEST_RUNS_LISTED);
  return rows.map(presentRun);
}

export async function getRun(db: Db, principal: Principal, runId: string) {
  const [row] = await db
    .select()
    .from(botTestRuns)
    .where(and(eq(botTestRuns.tenantId, principal.tenantId), eq(botTestRuns.id, runId)))
    .limit(1);
  if (!row) throw notFound(TEST_RUN_NOT_FOUND);
  return presentRun(row);
}

export interface RunnerDeps {
  db: Db;
  secrets: BotSecrets;
  /** The engines' dependencies (without a recorder: a run is not waited on by anyone). */
  answers: AnswerDeps;
  log: FastifyBaseLogger;
}

const ofRun = (job: BotTestJob) => and(eq(botTestRuns.tenantId, job.tenantId), eq(botTestRuns.id, job.runId));

/**
 * Works one queued run: each case of the bot (as it is when the run starts, oldest first) goes through the bot's
 * engine (RAG answers recorded with channel 'test') and is judged; the counts and results are written after
 * each case, so a client polling the run sees it progress. A run that is no longer queued (failed by a restart,
 * or its bot deleted) is left alone; an unexpected error fails the run with a plain reason.
 */
export async function runTestRun(deps: RunnerDeps, job: BotTestJob): Promise<void> {
  const { db } = deps;
  const [run] = await db
    .update(botTestRuns)
    .set({ status: 'running', startedAt: new Date(), updatedAt: new Date() })
    .where(and(ofRun(job), eq(botTestRuns.status, 'queued')))
    .returning();
  if (!run) return;
  const running = and(ofRun(job), eq(botTestRuns.status, 'running'));
  try {
    const bot = await ownedBot(deps, job.tenantId, run.botId);
    const cases = await db
      .select()
      .from(botTestCases)
      .where(and(eq(botTestCases.tenantId, job.tenantId), eq(botTestCases.botId, run.botId)))
      .orderBy(asc(botTestCases.createdAt), asc(botTestCases.id));
    const expected = [
      ...new Set(cases.flatMap((row) => (row.expectedSourceId === null ? [] : [row.expectedSourceId]))),
    ];
    const titles = await sourceTitles(db, job.tenantId, expected);
    const titleOf = (id: string) => {
      const title = titles.get(id);
      return title === undefined ? 'the expected source (it was deleted)' : `"${title}"`;
    };
    await db.update(botTestRuns).set({ total: cases.length }).where(running);
    const results: BotTestResult[] = [];
    const engine = engineFor(deps.answers, bot);
    for (const testCase of cases) {
      const reply = await engine.respond({
        tenantId: job.tenantId,
        bot,
        text: testCase.question,
        history: [],
        channel: 'test',
        actor: run.createdBy,
      });
      const judged = judge(testCase, reply, titleOf);
      results.push({
        case_id: testCase.id,
        question: testCase.question,
        expected_text: testCase.expectedText,
        expected_source_id: testCase.expectedSourceId,
        answer: judged.answer,
        cited_source_ids: judged.citedSourceIds,
        pass: judged.pass,
        reason: judged.reason,
      });
      const passed = results.filter((result) => result.pass).length;
      const [still] = await db
        .update(botTestRuns)
        .set({ results, passed, failed: results.length - passed, updatedAt: new Date() })
        .where(running)
        .returning({ id: botTestRuns.id });
      // Failed meanwhile (a restart of another process took it for interrupted): stop here.
      if (!still) return;
    }
    await db
      .update(botTestRuns)
      .set({ status: 'done', finishedAt: new Date(), updatedAt: new Date() })
      .where(running);
  } catch (error) {
    deps.log.error({ err: error, runId: job.runId }, 'bot test run failed');
    const reason =
      error instanceof AppError && error.statusCode === 404
        ? 'The bot no longer exists.'
        : 'The run stopped because of an unexpected error; run the suite again.';
    await db
      .update(botTestRuns)
      .set({ status: 'failed', error: reason, finishedAt: new Date(), updatedAt: new Date() })
      .where(running);
  }
}

/** Runs a previous process left running are failed: their job died with it. Returns how many. */
export async function failInterruptedRuns(db: Db): Promise<number> {
  const failed = await db
    .update(botTestRuns)
    .set({ status: 'failed', error: INTERRUPTED, finishedAt: new Date(), updatedAt: new Date() })
    .where(eq(botTestRuns.status, 'running'))
    .returning({ id: botTestRuns.id });
  return failed.length;
}

/** Works the test-run queue, after failing what a previous process left running. */
export async function startBotTesting(jobs: JobRunner, deps: RunnerDeps): Promise<void> {
  const interrupted = await failInterruptedRuns(deps.db);
  if (interrupted > 0) deps.log.warn({ interrupted }, 'bot test runs interrupted by a restart were failed');
  await jobs.work<BotTestJob>(BOT_TEST_JOB, (job) => runTestRun(deps, job));
}
