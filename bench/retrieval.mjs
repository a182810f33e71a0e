// Keyword retrieval quality, then latency. Quality: the help-centre fixture (one source per section, titled by
// it) and the public Debian FAQ set in six languages (fixtures/README.md), indexed through the product's
// indexChunks and asked through searchKeyword on PGlite; prints first-hit rate, recall@3 and MRR@10.
// Latency: synthetic corpora (Zipf-distributed words, 80-150 words per chunk, sources titled "Page N") spread over
// 50 tenants of uneven size, loaded through the product's indexChunks, then 1,000 queries through the
// product's searchKeyword with the tenant filter, one at a time; prints p50/p95/p99 per driver and size.
// PostgreSQL runs in a throwaway database created beside DATABASE_URL or TEST_DATABASE_URL and dropped after.
// Prints figures; never part of `npm test`.
//   npm run bench:retrieval -- [--sizes 10000,100000] [--queries 1000] [--drivers pglite,postgres] [--explain]
//                              [--no-quality] [--quality-only]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../apps/server/src/db/client.ts';
import { knowledgeBases, knowledgeSources, tenants } from '../apps/server/src/db/schema/index.ts';
import { keywordSearchSql, searchKeyword } from '../apps/server/src/modules/knowledge/retrieval/bm25.ts';
import { indexChunks } from '../apps/server/src/modules/knowledge/retrieval/index-store.ts';
import { indexQaSet, loadDebianFaq } from '../apps/server/src/modules/knowledge/retrieval/qa-benchmark.ts';
import {
  addKnowledgeBase,
  addSource,
  addTenant,
  chunkOf,
} from '../apps/server/src/modules/knowledge/retrieval/retrieval.test-support.ts';
import { openBenchDatabase } from './lib/database.mjs';
import { random } from './lib/documents.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const SIZES = arg('sizes', '10000,100000').split(',').map(Number);
const QUERIES = Number(arg('queries', '1000'));
const DRIVERS = arg('drivers', 'pglite,postgres').split(',');
const EXPLAIN = process.argv.includes('--explain');
const TENANTS = 50;
const CHUNKS_PER_SOURCE = 50;
const BATCH = 250;
const VOCABULARY = 30_000;
const WARM_UP = 100;

// The most frequent words of English text are stop words; putting them at the top of the Zipf ranks makes
// the text-search configuration drop them as it would in real text.
const STOP_WORDS = (
  'the of and to a in is it you that he was for on are with as i his they be at one have this from or had by ' +
  'but some what there we can out other were all your when up use how said an each she which do their if ' +
  'will way about many then them would these so her has more could no into than its now my only over also ' +
  'after our just any most very us where while should through before here both those under same'
).split(' ');

let rand = random(20261123);
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ter',
  'van',
  'sol',
  'dri',
  'pen',
  'ru',
  'bex',
  'cha',
  'no',
  'fi',
  'gar',
  'tul',
  'mes',
  'ob',
  'ri',
  'zen',
  'pla',
  'cor',
  'du',
  'ven',
  'sta',
];
const vocabulary = [...STOP_WORDS];
const seen = new Set(vocabulary);
while (vocabulary.length < VOCABULARY) {
  const syllables = 2 + Math.floor(rand() * 3);
  let word = '';
  for (let i = 0; i < syllables; i++) word += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
  if (!seen.has(word)) {
    seen.add(word);
    vocabulary.push(word);
  }
}
// Zipf with exponent 1: P(rank r) proportional to 1/r.
const cdf = new Float64Array(VOCABULARY);
let running = 0;
for (let r = 0; r < VOCABULARY; r++) cdf[r] = running += 1 / (r + 1);
const zipfWord = () => {
  const target = rand() * running;
  let low = 0;
  let high = VOCABULARY - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (cdf[middle] < target) low = middle + 1;
    else high = middle;
  }
  return vocabulary[low];
};

function sentenceText(words) {
  const out = [];
  for (let i = 0; i < words; i++) out.push(zipfWord());
  return out.join(' ');
}

/** A question: a few stop words around 2-5 content words drawn from the same Zipf distribution. */
function questionText() {
  const out = [];
  const content = 2 + Math.floor(rand() * 4);
  while (out.length < content) {
    const word = zipfWord();
    if (!STOP_WORDS.includes(word)) out.push(word);
  }
  for (let i = 0; i < 2 + Math.floor(rand() * 3); i++)
    out.splice(Math.floor(rand() * out.length), 0, STOP_WORDS[Math.floor(rand() * 30)]);
  return out.join(' ');
}

/** Tenant sizes: uneven (the largest about 4x the smallest), summing to `total`. */
function tenantSizes(total) {
  const weights = Array.from({ length: TENANTS }, (_, i) => 1 / (1 + i * 0.06));
  const sum = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.floor((w / sum) * total));
  sizes[0] += total - sizes.reduce((a, b) => a + b, 0);
  return sizes;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (value) => `${value.toFixed(2)} ms`;

async function load(db, total) {
  const sizes = tenantSizes(total);
  const corpus = [];
  const started = performance.now();
  for (let t = 0; t < TENANTS; t++) {
    const tenantId = `bench-${String(t).padStart(2, '0')}`;
    await db.insert(tenants).values({ tenantId, name: tenantId, type: '3' });
    const [kb] = await db
      .insert(knowledgeBases)
      .values({ tenantId, name: 'Docs', language: 'en', tsConfig: 'english' })
      .returning({ id: knowledgeBases.id });
    corpus.push({ tenantId, knowledgeBaseId: kb.id, chunks: sizes[t] });
    let ordinalBase = 0;
    for (let done = 0; done < sizes[t];) {
      const count = Math.min(BATCH, sizes[t] - done);
      await db.transaction(async (tx) => {
        for (let offset = 0; offset < count; offset += CHUNKS_PER_SOURCE) {
          const [source] = await tx
            .insert(knowledgeSources)
            .values({
              tenantId,
              knowledgeBaseId: kb.id,
              type: 'text',
              title: `Page ${ordinalBase}`,
              state: 'ready',
            })
            .returning({ id: knowledgeSources.id });
          const chunks = [];
          for (let i = 0; i < Math.min(CHUNKS_PER_SOURCE, count - offset); i++) {
            const text = sentenceText(80 + Math.floor(rand() * 71));
            chunks.push({
              ordinal: i,
              text,
              headingPath: [],
              page: null,
              charCount: text.length,
              wordCount: 0,
              hash: '',
            });
          }
          await indexChunks(tx, {
            tenantId,
            knowledgeBaseId: kb.id,
            sourceId: source.id,
            config: 'english',
            title: `Page ${ordinalBase}`,
            chunks,
          });
          ordinalBase += chunks.length;
        }
      });
      done += count;
    }
  }
  // The steady state autovacuum reaches after inserts: statistics and an up-to-date visibility map.
  await db.execute(sql`vacuum analyze`);
  return { corpus, loadMs: performance.now() - started };
}

function queries(corpus) {
  const total = corpus.reduce((sum, c) => sum + c.chunks, 0);
  const out = [];
  for (let i = 0; i < QUERIES; i++) {
    // A tenant picked in proportion to its size (bigger tenants get more traffic), a 4-9 word question.
    let pick = rand() * total;
    const tenant = corpus.find((c) => (pick -= c.chunks) < 0) ?? corpus[0];
    out.push({ tenant, query: questionText() });
  }
  return out;
}

async function run(driver, size) {
  // Reseeded per run: every driver gets the same corpus and the same queries for a size.
  rand = random(size);
  const { database, cleanup } = await openBenchDatabase(driver, 'omnibot-bench-retrieval-');
  try {
    const db = database.db;
    const { corpus, loadMs } = await load(db, size);
    const [counts] = rowsOf(
      await db.execute(
        sql`select (select count(*) from knowledge_chunks)::int as chunks, (select count(*) from knowledge_postings)::int as postings`,
      ),
    );
    const list = queries(corpus);
    let hits = 0;
    for (const { tenant, query } of list.slice(0, WARM_UP)) {
      await searchKeyword(db, {
        tenantId: tenant.tenantId,
        knowledgeBaseIds: [tenant.knowledgeBaseId],
        query,
        topK: 5,
      });
    }
    const times = [];
    let slowest = { ms: 0, item: list[0] };
    for (const item of list) {
      const { tenant, query } = item;
      const started = performance.now();
      const found = await searchKeyword(db, {
        tenantId: tenant.tenantId,
        knowledgeBaseIds: [tenant.knowledgeBaseId],
        query,
        topK: 5,
      });
      const elapsed = performance.now() - started;
      times.push(elapsed);
      if (elapsed > slowest.ms) slowest = { ms: elapsed, item };
      if (found.some((hit) => hit.text.length === 0)) throw new Error('empty chunk returned');
      if (found.length > 0) hits += 1;
    }
    // The same statements timed inside the database (planning + execution), and a bare round trip, so the
    // client's and the machine's share of the figures above can be told apart.
    const server = [];
    const roundTrips = [];
    for (const { tenant, query } of list) {
      const statement = keywordSearchSql({
        tenantId: tenant.tenantId,
        knowledgeBaseIds: [tenant.knowledgeBaseId],
        query,
        topK: 5,
      });
      const [row] = rowsOf(await db.execute(sql`explain (analyze, timing off, format json) ${statement}`));
      const plan = row['QUERY PLAN'];
      const parsed = typeof plan === 'string' ? JSON.parse(plan) : plan;
      server.push(parsed[0]['Planning Time'] + parsed[0]['Execution Time']);
      const started = performance.now();
      await db.execute(sql`select 1`);
      roundTrips.push(performance.now() - started);
    }
    const figures = (values) => {
      values.sort((a, b) => a - b);
      return `p50 ${ms(percentile(values, 50))}  p95 ${ms(percentile(values, 95))}  p99 ${ms(percentile(values, 99))}`;
    };
    const label = `${driver.padEnd(8)} ${String(size).padStart(6)} chunks`;
    console.log(
      `${label} (${counts.postings} postings, load ${(loadMs / 1000).toFixed(0)} s, ${QUERIES} queries, ${hits} with hits)\n` +
        `  searchKeyword, end to end: ${figures(times)}  max ${ms(times.at(-1))}\n` +
        `  inside the database:       ${figures(server)}\n` +
        `  select 1 round trip:       ${figures(roundTrips)}`,
    );
    if (EXPLAIN) await explain(db, slowest.item);
  } finally {
    await database.close();
    await cleanup();
  }
}

/** Prints the plan of the slowest query of the run, as the product sends it. */
async function explain(db, { tenant, query }) {
  const statement = keywordSearchSql({
    tenantId: tenant.tenantId,
    knowledgeBaseIds: [tenant.knowledgeBaseId],
    query,
    topK: 5,
  });
  const plan = rowsOf(await db.execute(sql`explain (analyze, buffers) ${statement}`));
  console.log(`slowest query: ${query}\n${plan.map((row) => row['QUERY PLAN']).join('\n')}`);
}

/** First-hit rate, recall@3 and MRR@10 of searchKeyword for questions with one expected paragraph each. */
async function rankQuality(db, tenantId, knowledgeBaseId, paragraphOf, questions) {
  let first = 0;
  let top3 = 0;
  let reciprocal = 0;
  for (const { question, expected } of questions) {
    const hits = await searchKeyword(db, {
      tenantId,
      knowledgeBaseIds: [knowledgeBaseId],
      query: question,
      topK: 10,
    });
    const rank = hits.findIndex((hit) => paragraphOf.get(hit.chunkId) === expected);
    if (rank === 0) first++;
    if (rank >= 0 && rank < 3) top3++;
    if (rank >= 0) reciprocal += 1 / (rank + 1);
  }
  return { questions: questions.length, first, top3, reciprocal };
}

async function quality() {
  const { database, cleanup } = await openBenchDatabase('pglite', 'omnibot-bench-retrieval-quality-');
  const rows = [];
  try {
    const db = database.db;
    const help = JSON.parse(
      readFileSync(
        new URL('../apps/server/src/modules/knowledge/retrieval/fixtures/help-centre.json', import.meta.url),
        'utf8',
      ),
    );
    await addTenant(db, 'quality-help');
    const kb = await addKnowledgeBase(db, 'quality-help', 'Help centre', 'en');
    const paragraphOf = new Map();
    for (const section of [...new Set(help.paragraphs.map((p) => p.section[0] ?? ''))]) {
      const sourceId = await addSource(db, 'quality-help', kb.id, section);
      const paragraphs = help.paragraphs.filter((p) => p.section[0] === section);
      const ids = await db.transaction((tx) =>
        indexChunks(tx, {
          tenantId: 'quality-help',
          knowledgeBaseId: kb.id,
          sourceId,
          config: kb.config,
          title: section,
          chunks: paragraphs.map((p, ordinal) => chunkOf(ordinal, p.text, p.section)),
        }),
      );
      ids.forEach((id, index) => paragraphOf.set(id, paragraphs[index]?.id ?? ''));
    }
    rows.push({
      set: 'help-centre (en)',
      ...(await rankQuality(db, 'quality-help', kb.id, paragraphOf, help.questions)),
    });
    const faq = loadDebianFaq();
    const total = { set: 'Debian FAQ (all)', questions: 0, first: 0, top3: 0, reciprocal: 0 };
    for (const [language, set] of Object.entries(faq.languages)) {
      const indexed = await indexQaSet(db, `quality-faq-${language}`, language, set);
      const row = await rankQuality(
        db,
        indexed.tenantId,
        indexed.knowledgeBaseId,
        indexed.paragraphOf,
        set.questions,
      );
      rows.push({ set: `Debian FAQ (${language})`, ...row });
      for (const key of ['questions', 'first', 'top3', 'reciprocal']) total[key] += row[key];
    }
    rows.push(total);
  } finally {
    await database.close();
    await cleanup();
  }
  const percent = (count, questions) => `${((100 * count) / questions).toFixed(1).padStart(7)} %`;
  console.log('quality (PGlite; one expected paragraph per question)');
  console.log(
    `${'set'.padEnd(20)}${'questions'.padStart(10)}${'first'.padStart(10)}${'recall@3'.padStart(10)}${'MRR@10'.padStart(9)}`,
  );
  for (const row of rows) {
    console.log(
      `${row.set.padEnd(20)}${String(row.questions).padStart(10)}${percent(row.first, row.questions)}` +
        `${percent(row.top3, row.questions)}${(row.reciprocal / row.questions).toFixed(3).padStart(9)}`,
    );
  }
  console.log('');
}

if (!process.argv.includes('--no-quality')) await quality();
if (!process.argv.includes('--quality-only')) {
  for (const driver of DRIVERS) {
    for (const size of SIZES) await run(driver, size);
  }
}
