import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../db/client';
import { openTestDatabase } from '../../../test/app';
import { evaluateQaSet, indexQaSet, loadDebianFaq, rate, type QaResult } from './qa-benchmark';

// A subset of the public Debian FAQ question set (all six languages run in `npm run bench:qa`): English and
// German, each in its own knowledge base with its language's text-search configuration.
const LANGUAGES = ['en', 'de'];
// The SQL ranking may differ from the reference only where scores tie; one point of first-hit rate allows that.
const MAX_GAP_POINTS = 1;

describe('keyword retrieval on the Debian FAQ question set', () => {
  let database: Database;
  let drop: (() => Promise<void>) | undefined;
  const results = new Map<string, QaResult>();

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
    const data = loadDebianFaq();
    for (const language of LANGUAGES) {
      const set = data.languages[language];
      if (!set) throw new Error(`no ${language} questions`);
      const indexed = await indexQaSet(database.db, `faq-${language}`, language, set);
      results.set(language, await evaluateQaSet(database.db, indexed, set.questions));
    }
  });

  afterAll(async () => {
    await drop?.();
  });

  it.each(LANGUAGES)('finds as many expected paragraphs first as textbook BM25 does (%s)', (language) => {
    const result = results.get(language);
    if (!result) throw new Error(`no result for ${language}`);
    const { sql, reference } = result;
    const sqlFirst = rate(sql.firstHits, sql.questions);
    const referenceFirst = rate(reference.firstHits, reference.questions);
    console.log(
      `${language}: ${sql.questions} questions; SQL BM25 first hit ${sqlFirst.toFixed(1)} %, ` +
        `recall@3 ${rate(sql.inTop3, sql.questions).toFixed(1)} %; reference first hit ${referenceFirst.toFixed(1)} %, ` +
        `recall@3 ${rate(reference.inTop3, reference.questions).toFixed(1)} %`,
    );
    expect(sql.questions).toBeGreaterThanOrEqual(100);
    // Far above chance (one paragraph in about 140), so a broken index or tokeniser cannot pass.
    expect(referenceFirst).toBeGreaterThan(15);
    expect(Math.abs(sqlFirst - referenceFirst)).toBeLessThanOrEqual(MAX_GAP_POINTS);
    expect(
      Math.abs(rate(sql.inTop3, sql.questions) - rate(reference.inTop3, reference.questions)),
    ).toBeLessThanOrEqual(MAX_GAP_POINTS);
  });
});
