import type { BotTestResult } from '@omnibot/contracts';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { botTestCases, botTestRuns } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { JobRunner } from '../../jobs/queue';
import { engineFor } from '../bots/bot-engine';
import type { BotSecrets } from '../bots/bots.service';
import type { AnswerDeps } from '../rag/rag-answer';
import { ownedBot, sourceTitles } from './bot-test-cases.service';
import { judge } from './bot-test-judge';
import { BOT_TEST_JOB, type BotTestJob } from './bot-test-runs.service';

export const INTERRUPTED = 'The server stopped while the run was going on; run the suite again.';

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
