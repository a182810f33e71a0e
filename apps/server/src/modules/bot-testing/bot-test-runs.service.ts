import { BOT_TEST_RUNS_LISTED, type BotTestRun } from '@omnibot/contracts';
import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { botTestCases, botTestRuns } from '../../db/schema';
import { type Actor, writeAudit } from '../../lib/audit';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { refuseUniqueViolation } from '../../lib/unique-violation';
import { actorId, type Principal } from '../../lib/principal';
import { type BotTestingDeps, ownedBot } from './bot-test-cases.service';
import { presentRun } from './bot-testing.presenter';

/** The pg-boss queue that works test runs. */
export const BOT_TEST_JOB = 'bot-test-run';
const TEST_RUN_NOT_FOUND = 'Test run not found';

export interface BotTestJob {
  tenantId: string;
  runId: string;
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
