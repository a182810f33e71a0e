// Ingestion throughput, in pages per second:
//  1. in process, the path an ingestion job takes for a document: parse + chunk (ingest/parseAndChunk) and
//     index (retrieval/indexChunks in one transaction), for a generated 100-page PDF and for 100 generated
//     HTML pages (one source each), on PGlite and on PostgreSQL;
//  2. through the built server: upload the 100-page PDF with tus, add it to a knowledge base as a file
//     source, and poll the source until it is ready; the time from the start of the upload to "ready";
//  3. through the built server: the time to the answer of one bulk request of 500 text sources (each is read
//     in the background after the answer), on a knowledge base that already holds earlier bulk requests.
// PostgreSQL runs in throwaway databases created beside DATABASE_URL or TEST_DATABASE_URL and dropped after.
// Prints figures; never part of `npm test`.
//   npm run bench:ingest -- [--pages 100] [--runs 3] [--drivers pglite,postgres] [--no-server] [--no-build]
//                           [--bulk 500] [--no-bulk] [--bulk-only]
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { knowledgeBases, knowledgeSources, tenants } from '../apps/server/src/db/schema/index.ts';
import { parseAndChunk } from '../apps/server/src/modules/knowledge/ingest/ingest.ts';
import { indexChunks } from '../apps/server/src/modules/knowledge/retrieval/index-store.ts';
import { ROOT } from '../scripts/lib/build.mjs';
import { openBenchDatabase, throwawayPostgres } from './lib/database.mjs';
import { htmlPage, manyPagePdf } from './lib/documents.mjs';
import { signIn, startBuiltServer, tusUpload } from './lib/server.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const PAGES = Number(arg('pages', '100'));
const RUNS = Number(arg('runs', '3'));
const DRIVERS = arg('drivers', 'pglite,postgres').split(',');
const BULK = Number(arg('bulk', '500'));
const BULK_ONLY = process.argv.includes('--bulk-only');
const WORDS_PER_PAGE = 450;
const ADMIN = { email: 'bench@example.com', password: 'Bench-Ingest-Passw0rd-2026' };
const TENANT = 'bench-ingest';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const pad = (value, width) => String(value).padStart(width);

/** Parses, chunks and indexes one document as a new source of the knowledge base; returns the timings. */
async function ingestOne(db, knowledgeBaseId, bytes, filename) {
  const started = performance.now();
  const { chunks, stats } = await parseAndChunk(bytes, { filename });
  const indexStarted = performance.now();
  await db.transaction(async (tx) => {
    const [source] = await tx
      .insert(knowledgeSources)
      .values({ tenantId: TENANT, knowledgeBaseId, type: 'file', title: filename, state: 'indexing' })
      .returning({ id: knowledgeSources.id });
    await indexChunks(tx, {
      tenantId: TENANT,
      knowledgeBaseId,
      sourceId: source.id,
      config: 'english',
      chunks,
    });
  });
  const done = performance.now();
  return {
    parseMs: stats.parseMs,
    chunkMs: stats.chunkMs,
    indexMs: done - indexStarted,
    totalMs: done - started,
    chunks: chunks.length,
    words: stats.words,
  };
}

const startServer = (dataDir, databaseUrl) => startBuiltServer({ dataDir, databaseUrl, admin: ADMIN });

const sum = (runs, key) => runs.reduce((total, run) => total + run[key], 0);

async function inProcess(driver, pdf, html) {
  const { database, cleanup } = await openBenchDatabase(driver, 'omnibot-bench-ingest-');
  const rows = [];
  try {
    const db = database.db;
    await db.insert(tenants).values({ tenantId: TENANT, name: TENANT, type: '3' });
    const [kb] = await db
      .insert(knowledgeBases)
      .values({ tenantId: TENANT, name: 'Bench', language: 'en', tsConfig: 'english' })
      .returning({ id: knowledgeBases.id });
    // One warm-up of each format: the first call loads the PDF reader and compiles the statements.
    await ingestOne(db, kb.id, pdf, 'warm-up.pdf');
    await ingestOne(db, kb.id, html[0], 'warm-up.html');
    const pdfRuns = [];
    for (let run = 0; run < RUNS; run++) pdfRuns.push(await ingestOne(db, kb.id, pdf, `manual-${run}.pdf`));
    const htmlRuns = [];
    for (let run = 0; run < RUNS; run++) {
      const pages = [];
      for (const [index, page] of html.entries())
        pages.push(await ingestOne(db, kb.id, page, `page-${index}.html`));
      htmlRuns.push({
        parseMs: sum(pages, 'parseMs'),
        chunkMs: sum(pages, 'chunkMs'),
        indexMs: sum(pages, 'indexMs'),
        totalMs: sum(pages, 'totalMs'),
        chunks: sum(pages, 'chunks'),
        words: sum(pages, 'words'),
      });
    }
    for (const [format, runs, label] of [
      ['PDF', pdfRuns, `1 file, ${PAGES} pages`],
      ['HTML', htmlRuns, `${PAGES} files, 1 page each`],
    ]) {
      const best = runs.find((run) => run.totalMs === median(runs.map((r) => r.totalMs)));
      rows.push({ driver, format, label, ...best, pagesPerSecond: PAGES / (best.totalMs / 1000) });
    }
  } finally {
    await database.close();
    await cleanup();
  }
  return rows;
}

async function api(server, cookie, method, route, body) {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: { cookie, origin: server.url, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Upload -> file source -> ready through the running server, `RUNS` times; the median run's timings. */
async function throughServer(driver, pdf) {
  const work = await mkdtemp(path.join(tmpdir(), 'omnibot-bench-ingest-server-'));
  const postgres = driver === 'postgres' ? await throwawayPostgres() : null;
  try {
    const server = await startServer(path.join(work, 'data'), postgres?.url);
    try {
      const cookie = await signIn(server.url, ADMIN);
      const kb = await api(server, cookie, 'POST', '/v1/knowledge', {
        name: 'Bench manuals',
        language: 'en',
      });
      const runs = [];
      for (let run = 0; run < RUNS; run++) {
        const name = `manual-${run}.pdf`;
        const started = performance.now();
        await tusUpload(server.url, cookie, {
          body: pdf,
          size: pdf.byteLength,
          chunkSize: 32 * 1024 * 1024,
          name,
        });
        const uploaded = performance.now();
        const source = await api(server, cookie, 'POST', `/v1/knowledge/${kb.id}/sources`, {
          type: 'file',
          path: `bench/${name}`,
        });
        let state = source.state;
        let current = source;
        let pickedUp = state === 'queued' ? null : performance.now();
        const deadline = Date.now() + 300_000;
        while (state !== 'ready') {
          if (state === 'failed') throw new Error(`source failed: ${JSON.stringify(current)}`);
          if (Date.now() > deadline) throw new Error(`source not ready after 300 s: ${state}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
          current = await api(server, cookie, 'GET', `/v1/knowledge/${kb.id}/sources/${source.id}`);
          state = current.state;
          if (pickedUp === null && state !== 'queued') pickedUp = performance.now();
        }
        const ready = performance.now();
        runs.push({
          uploadMs: uploaded - started,
          ingestMs: ready - uploaded,
          queuedMs: (pickedUp ?? ready) - uploaded,
          totalMs: ready - started,
          chunks: current.chunk_count,
        });
      }
      const best = runs.find((run) => run.totalMs === median(runs.map((r) => r.totalMs)));
      return { driver, ...best, runs };
    } finally {
      await server.stop();
    }
  } finally {
    await postgres?.drop();
    await rm(work, { recursive: true, force: true });
  }
}

/** Polls the newest `count` sources of the knowledge base until every one is ready. */
async function allReady(server, cookie, kbId, count) {
  const deadline = Date.now() + 600_000;
  for (;;) {
    let ready = 0;
    for (let page = 1; (page - 1) * 100 < count; page++) {
      const list = await api(
        server,
        cookie,
        'GET',
        `/v1/knowledge/${kbId}/sources?page=${page}&page_size=100`,
      );
      for (const item of list.items.slice(0, count - (page - 1) * 100)) {
        if (item.state === 'failed') throw new Error(`source failed: ${JSON.stringify(item)}`);
        if (item.state === 'ready') ready++;
      }
    }
    if (ready >= count) return;
    if (Date.now() > deadline) throw new Error(`${count - ready} sources not ready after 600 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Bulk requests of `BULK` text sources through the built server: `RUNS` times on an idle server (each after the
 * sources before are all read), the time to the answer and until every source is ready; then one request sent
 * while the jobs of the one before it still run.
 */
async function bulkThroughServer(driver) {
  const work = await mkdtemp(path.join(tmpdir(), 'omnibot-bench-ingest-bulk-'));
  const postgres = driver === 'postgres' ? await throwawayPostgres() : null;
  try {
    const server = await startServer(path.join(work, 'data'), postgres?.url);
    try {
      const cookie = await signIn(server.url, ADMIN);
      const kb = await api(server, cookie, 'POST', '/v1/knowledge', { name: 'Bench bulk', language: 'en' });
      const send = async (run, count = BULK) => {
        const started = performance.now();
        const answer = await api(server, cookie, 'POST', `/v1/knowledge/${kb.id}/sources/bulk`, {
          sources: Array.from({ length: count }, (_, index) => ({
            type: 'text',
            title: `Note ${run}-${index}`,
            text: `Note ${index} of run ${run}: the shop opens at ${8 + (index % 4)} and closes at ${17 + (index % 3)}.`,
          })),
        });
        if (answer.items.length !== count) throw new Error(`bulk answered ${answer.items.length} items`);
        return performance.now() - started;
      };
      // The warm-up compiles the statements and starts the ingestion worker.
      await send('warm-up', 5);
      await allReady(server, cookie, kb.id, 5);
      const runs = [];
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        const answerMs = await send(run);
        await allReady(server, cookie, kb.id, BULK);
        runs.push({ answerMs, readyMs: performance.now() - started });
      }
      await send('busy-first');
      const busyMs = await send('busy-second');
      return {
        driver,
        answerMs: median(runs.map((run) => run.answerMs)),
        readyMs: median(runs.map((run) => run.readyMs)),
        busyMs,
        runs,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await postgres?.drop();
    await rm(work, { recursive: true, force: true });
  }
}

const pdf = manyPagePdf(PAGES, WORDS_PER_PAGE);
const html = Array.from({ length: PAGES }, (_, index) => htmlPage(index, WORDS_PER_PAGE));
const htmlBytes = html.reduce((total, page) => total + page.byteLength, 0);
console.log(
  `documents: PDF ${PAGES} pages, ${(pdf.byteLength / 1024).toFixed(0)} KiB; HTML ${PAGES} pages, ` +
    `${(htmlBytes / 1024).toFixed(0)} KiB; about ${WORDS_PER_PAGE} words a page; medians of ${RUNS} runs ` +
    `after one warm-up; chunking 350 words with 0.15 overlap (the knowledge base default)\n`,
);

const rows = [];
if (!BULK_ONLY) for (const driver of DRIVERS) rows.push(...(await inProcess(driver, pdf, html)));
if (rows.length > 0) {
  console.log('parse + chunk + index, in process');
  console.log(
    `${'driver'.padEnd(9)}${'format'.padEnd(7)}${'document'.padEnd(24)}${pad('words', 8)}${pad('chunks', 7)}${pad('parse ms', 10)}` +
      `${pad('chunk ms', 10)}${pad('index ms', 10)}${pad('total ms', 10)}${pad('pages/s', 10)}`,
  );
  for (const row of rows) {
    console.log(
      `${row.driver.padEnd(9)}${row.format.padEnd(7)}${row.label.padEnd(24)}${pad(row.words, 8)}${pad(row.chunks, 7)}` +
        `${pad(row.parseMs.toFixed(0), 10)}${pad(row.chunkMs.toFixed(0), 10)}${pad(row.indexMs.toFixed(0), 10)}` +
        `${pad(row.totalMs.toFixed(0), 10)}${pad(row.pagesPerSecond.toFixed(1), 10)}`,
    );
  }
}

const serverRuns = !process.argv.includes('--no-server');
if (serverRuns && !process.argv.includes('--no-build')) {
  const built = spawnSync(process.execPath, ['build.mjs'], {
    cwd: path.join(ROOT, 'apps/server'),
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
if (serverRuns && !BULK_ONLY) {
  const served = [];
  for (const driver of DRIVERS) served.push(await throughServer(driver, pdf));
  console.log(
    `\n${PAGES}-page PDF through the built server (tus upload -> file source -> ready, loopback; queued = ` +
      'from adding the source until the job queue starts it; to ready = from adding the source until ready)',
  );
  console.log(
    `${'driver'.padEnd(9)}${pad('chunks', 7)}${pad('upload ms', 11)}${pad('queued ms', 11)}${pad('to ready ms', 13)}` +
      `${pad('total ms', 10)}${pad('pages/s', 10)}  runs (total ms)`,
  );
  for (const row of served) {
    console.log(
      `${row.driver.padEnd(9)}${pad(row.chunks, 7)}${pad(row.uploadMs.toFixed(0), 11)}${pad(row.queuedMs.toFixed(0), 11)}` +
        `${pad(row.ingestMs.toFixed(0), 13)}${pad(row.totalMs.toFixed(0), 10)}` +
        `${pad((PAGES / (row.totalMs / 1000)).toFixed(1), 10)}  ${row.runs.map((r) => r.totalMs.toFixed(0)).join(', ')}`,
    );
  }
}

if (serverRuns && !process.argv.includes('--no-bulk')) {
  const bulks = [];
  for (const driver of DRIVERS) bulks.push(await bulkThroughServer(driver));
  console.log(
    `\nbulk request of ${BULK} text sources through the built server (POST /v1/knowledge/:id/sources/bulk, ` +
      'loopback): to answer = from sending it to its answer on an idle server (budget: under 3,000 ms on PGlite, ' +
      'under 1,000 ms on PostgreSQL); to ready = until all its sources are read; busy = to the answer of a ' +
      "request sent right after another, while that one's jobs run",
  );
  console.log(
    `${'driver'.padEnd(9)}${pad('to answer ms', 14)}${pad('to ready ms', 13)}${pad('busy ms', 9)}  runs (answer ms)`,
  );
  for (const row of bulks) {
    console.log(
      `${row.driver.padEnd(9)}${pad(row.answerMs.toFixed(0), 14)}${pad(row.readyMs.toFixed(0), 13)}` +
        `${pad(row.busyMs.toFixed(0), 9)}  ${row.runs.map((run) => run.answerMs.toFixed(0)).join(', ')}`,
    );
  }
}
