// Keyword retrieval quality on a public question set: the Debian FAQ in six languages (fixture and sources in
// apps/server/src/modules/knowledge/retrieval/fixtures/README.md). Each language's answers are indexed through
// the product's indexChunks in their own knowledge base; every question goes through the product's
// searchKeyword (BM25 in SQL) and through textbook BM25 computed in TypeScript over the same postings; prints
// first-hit rate and recall@3 of both, per language and overall, on PGlite and on PostgreSQL. Then every question
// is answered by the extractive answerer from its best three passages, as shipped and as a plain
// best-two-sentences answerer (whole sentences only), on the first driver: how often the answer quotes the
// expected paragraph, how many answers hold an ellipsis, and how much of the expected paragraph they carry.
// PostgreSQL runs in a throwaway database created beside DATABASE_URL or TEST_DATABASE_URL and dropped after.
// Prints figures; never part of `npm test`.
//   npm run bench:qa -- [--drivers pglite,postgres] [--languages en,de,fr,it,nl,pt]
import { performance } from 'node:perf_hooks';
import {
  evaluateQaSet,
  indexQaSet,
  loadDebianFaq,
  rate,
} from '../apps/server/src/modules/knowledge/retrieval/qa-benchmark.ts';
import { evaluateAnswers } from '../apps/server/src/modules/rag/answer/answer-benchmark.ts';
import { openBenchDatabase } from './lib/database.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const DRIVERS = arg('drivers', 'pglite,postgres').split(',');
const data = loadDebianFaq();
const LANGUAGES = arg('languages', Object.keys(data.languages).join(',')).split(',');

const cell = (hits, total) => `${rate(hits, total).toFixed(1).padStart(6)} %`;
const line = (driver, label, paragraphs, { sql, reference }) =>
  `${driver.padEnd(9)}${label.padEnd(6)}${String(paragraphs).padStart(11)}${String(sql.questions).padStart(10)}` +
  `${cell(sql.firstHits, sql.questions)}${cell(reference.firstHits, reference.questions)}` +
  `${(rate(sql.firstHits, sql.questions) - rate(reference.firstHits, reference.questions)).toFixed(1).padStart(8)}` +
  `${cell(sql.inTop3, sql.questions)}${cell(reference.inTop3, reference.questions)}`;

console.log(`${data.source}\n`);
console.log(
  `${'driver'.padEnd(9)}${'lang'.padEnd(6)}${'paragraphs'.padStart(11)}${'questions'.padStart(10)}` +
    `${'first SQL'.padStart(10)}${'first ref'.padStart(10)}${'gap'.padStart(8)}` +
    `${'top3 SQL'.padStart(10)}${'top3 ref'.padStart(10)}`,
);
const answers = [];
for (const [driverIndex, driver] of DRIVERS.entries()) {
  const { database, cleanup } = await openBenchDatabase(driver, 'omnibot-bench-qa-');
  const started = performance.now();
  const total = {
    sql: { questions: 0, firstHits: 0, inTop3: 0 },
    reference: { questions: 0, firstHits: 0, inTop3: 0 },
  };
  let paragraphs = 0;
  try {
    for (const language of LANGUAGES) {
      const set = data.languages[language];
      if (!set) throw new Error(`no questions in ${language}; the set has ${Object.keys(data.languages)}`);
      const indexed = await indexQaSet(database.db, `faq-${language}`, language, set);
      const result = await evaluateQaSet(database.db, indexed, set.questions);
      console.log(line(driver, language, set.paragraphs.length, result));
      if (driverIndex === 0) {
        const paragraphs = new Map(set.paragraphs.map((p) => [p.id, p]));
        answers.push({
          language,
          ...(await evaluateAnswers(database.db, indexed, language, paragraphs, set.questions)),
        });
      }
      paragraphs += set.paragraphs.length;
      for (const side of ['sql', 'reference'])
        for (const key of ['questions', 'firstHits', 'inTop3']) total[side][key] += result[side][key];
    }
    console.log(line(driver, 'all', paragraphs, total));
    console.log(`${' '.repeat(9)}(${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } finally {
    await database.close();
    await cleanup();
  }
}
console.log(
  '\nfirst = the expected paragraph ranked first; top3 = within the first three (recall@3); ' +
    'gap = SQL minus reference, in points. Each language is its own knowledge base with its own ' +
    'text-search configuration; N and df are per knowledge base.',
);

const answerLine = (label, side, score) =>
  `${label.padEnd(6)}${side.padEnd(8)}${String(score.questions).padStart(10)}${String(score.answered).padStart(10)}` +
  `${cell(score.right, score.questions)}${String(score.elided).padStart(10)}` +
  `${(score.questions === 0 ? 0 : (100 * score.paragraphTerms) / score.questions).toFixed(1).padStart(9)} %` +
  `${(score.answered === 0 ? 0 : score.chars / score.answered).toFixed(0).padStart(10)}`;
console.log(`\nextractive answers from the best three passages (${DRIVERS[0]})`);
console.log(
  `${'lang'.padEnd(6)}${'answer'.padEnd(8)}${'questions'.padStart(10)}${'answered'.padStart(10)}` +
    `${'right'.padStart(10)}${'with …'.padStart(10)}${'para terms'.padStart(11)}${'chars'.padStart(10)}`,
);
const totals = { product: {}, plain: {} };
for (const row of answers) {
  for (const side of ['product', 'plain']) {
    console.log(answerLine(row.language, side, row[side]));
    for (const [key, value] of Object.entries(row[side]))
      totals[side][key] = (totals[side][key] ?? 0) + value;
  }
}
for (const side of ['product', 'plain']) console.log(answerLine('all', side, totals[side]));
console.log(
  '\nproduct = the extractive answer as shipped; plain = the same sentences quoted whole (a best-two-sentences ' +
    'answerer); right = the answer quotes the expected paragraph (answer accuracy); with … = answers holding a ' +
    "shortened sentence; para terms = the share of the expected paragraph's content terms the answer holds; " +
    'chars = mean answer length.',
);
