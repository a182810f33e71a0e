import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/client';
import { ragAnswers, rags } from '../db/schema';
import { addKnowledgeBase, addTenant } from '../modules/knowledge/retrieval/retrieval.test-support';
import { makeIndex } from '../modules/rag/rags.test-support';
import { createTestApp, type TestApp } from '../test/app';
import type { JobRunner } from './queue';
import { RAG_ANSWER_SWEEP_CRON, RAG_ANSWER_SWEEP_JOB, sweepRagAnswers } from './rag-answer-sweep';

const TENANT = 'sweep-t';
const RETENTION_DAYS = 30;

describe('RAG answer retention sweep', () => {
  let t: TestApp;
  let jobs: JobRunner;
  let ragId: string;
  beforeAll(async () => {
    t = await createTestApp({
      jobs: { pollingIntervalSeconds: 0.5 },
      env: { RAG_ANSWER_RETENTION_DAYS: String(RETENTION_DAYS) },
    });
    if (!t.app.jobs) throw new Error('the job runner did not start');
    jobs = t.app.jobs;
    await addTenant(t.database.db, TENANT);
    const kb = await addKnowledgeBase(t.database.db, TENANT, 'Help');
    const index = await makeIndex(t, TENANT, 'Help', [kb.id]);
    const [rag] = await t.database.db
      .insert(rags)
      .values({ tenantId: TENANT, name: 'Sweep', indexId: index, fallbackText: 'Sorry.' })
      .returning({ id: rags.id });
    ragId = rag?.id ?? '';
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  /** Answers `ages` days old, one per entry; returns their questions. */
  async function answersAged(ages: number[], label: string) {
    await t.database.db.insert(ragAnswers).values(
      ages.map((age, i) => ({
        tenantId: TENANT,
        ragId,
        question: `${label}-${age}-${i}`,
        answer: 'Sorry.',
        kind: 'fallback' as const,
        fallback: true,
        retrieveMs: 1,
        generateMs: 0,
        totalMs: 1,
        channel: 'test',
        createdAt: new Date(Date.now() - age * 86_400_000),
      })),
    );
  }

  const questions = async () =>
    rowsOf<{ question: string }>(
      await t.database.db.execute(sql`select question from rag_answers order by question`),
    ).map((row) => row.question);

  it('is scheduled daily in the shared job queue', async () => {
    const schedules = await jobs.boss.getSchedules();
    expect(schedules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: RAG_ANSWER_SWEEP_JOB, cron: RAG_ANSWER_SWEEP_CRON }),
      ]),
    );
  });

  it('deletes the answers older than RAG_ANSWER_RETENTION_DAYS through the job and keeps the newer ones', async () => {
    await answersAged([0, 29, RETENTION_DAYS + 1, 400], 'job');
    const id = await jobs.send(RAG_ANSWER_SWEEP_JOB, {});
    expect(await jobs.waitFor(RAG_ANSWER_SWEEP_JOB, id)).toBe('completed');
    expect(await questions()).toEqual(['job-0-0', 'job-29-1']);
    expect(t.logs.some((line) => line.msg === 'old RAG answers swept' && line.deleted === 2)).toBe(true);
  }, 60_000);

  it('sweeps more rows than one batch holds', async () => {
    await t.database.db.execute(sql`delete from rag_answers`);
    await t.database.db.execute(sql`
      insert into rag_answers (tenant_id, rag_id, question, answer, kind, fallback, retrieve_ms, generate_ms, total_ms, channel, created_at)
      select ${TENANT}, ${ragId}::uuid, 'old-' || i, 'Sorry.', 'fallback', true, 1, 0, 1, 'test', now() - interval '100 days'
      from generate_series(1, 12000) as i`);
    await answersAged([1], 'fresh');
    expect(await sweepRagAnswers(t.database.db, RETENTION_DAYS)).toBe(12_000);
    expect(await questions()).toEqual(['fresh-1-0']);
    expect(await sweepRagAnswers(t.database.db, RETENTION_DAYS)).toBe(0);
  }, 60_000);
});
