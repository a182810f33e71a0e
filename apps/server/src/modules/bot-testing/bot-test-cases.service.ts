import {
  BOT_TEST_CASES_MAX,
  type BotTestCase,
  type BotTestSource,
  type CreateBotTestCaseBodySchema,
  type UpdateBotTestCaseBodySchema,
} from '@omnibot/contracts';
import { and, asc, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { type BotTestCaseRow, botTestCases } from '../../db/schema';
import { type Actor, writeAudit } from '../../lib/audit';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import type { JobRunner } from '../../jobs/queue';
import { actorId, type Principal } from '../../lib/principal';
import { BOT_NOT_FOUND, type BotSecrets, lockBot, openedBotOf, type StoredBot } from '../bots/bots.service';
import { sourceLinksOf, sourcesOfKnowledgeBases, tenantHasSource } from '../knowledge/knowledge.service';
import { indexKnowledgeBaseIds } from '../indexes/indexes.service';
import { ragIndexIdOf } from '../rag/rags.service';
import { presentCase } from './bot-testing.presenter';

const TEST_CASE_NOT_FOUND = 'Test case not found';

export interface BotTestingDeps {
  db: Db;
  secrets: BotSecrets;
  /** The runner that works queued runs; null leaves them queued (an app built without jobs). */
  jobs: () => JobRunner | null;
}

type CreateCaseInput = z.output<typeof CreateBotTestCaseBodySchema>;
type UpdateCaseInput = z.output<typeof UpdateBotTestCaseBodySchema>;

const noExpectation = () =>
  badRequest('Give an expected text, an expected source, or both.', 'bot-test/no-expectation');
const unknownSource = () =>
  badRequest('The knowledge source does not exist in your organisation.', 'bot-test/unknown-source');

/** The bot of the tenant, with its configuration opened; a bot of another tenant is answered as unknown. */
export async function ownedBot(
  deps: Pick<BotTestingDeps, 'db' | 'secrets'>,
  tenantId: string,
  botId: string,
) {
  const bot = await openedBotOf(deps, tenantId, botId);
  if (!bot) throw notFound(BOT_NOT_FOUND);
  return bot satisfies StoredBot;
}

/** Titles of the tenant's knowledge sources among `ids` (a source without a title shows its address). */
export async function sourceTitles(db: Db, tenantId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await sourceLinksOf(db, tenantId, ids);
  return new Map(rows.map((row) => [row.id, row.title ?? row.url ?? 'Untitled source']));
}

async function presentCases(db: Db, tenantId: string, rows: BotTestCaseRow[]) {
  const ids = [
    ...new Set(rows.flatMap((row) => (row.expectedSourceId === null ? [] : [row.expectedSourceId]))),
  ];
  const titles = await sourceTitles(db, tenantId, ids);
  return rows.map((row) => presentCase(row, titles));
}

async function assertSource(db: Db, tenantId: string, sourceId: string | null | undefined) {
  if (sourceId === null || sourceId === undefined) return;
  if (!(await tenantHasSource(db, tenantId, sourceId))) throw unknownSource();
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
    await lockBot(tx, principal.tenantId, botId);
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
  const indexId = await ragIndexIdOf(deps.db, tenantId, ragId);
  if (indexId === null) return [];
  const knowledgeBaseIds = await indexKnowledgeBaseIds(deps.db, tenantId, indexId);
  const rows = await sourcesOfKnowledgeBases(deps.db, tenantId, knowledgeBaseIds, 1000);
  return rows.map((row) => ({
    id: row.id,
    title: row.title ?? row.url ?? 'Untitled source',
    type: row.type,
    knowledge_id: row.knowledgeId,
    knowledge_name: row.knowledgeName,
  }));
}
