// Answer throughput: requests per second and p50/p99 latency of POST /v1/rags/{id}/answer (extractive: the
// RAG has no chat model; keyword index) through the built server, next to the same keyword statement
// (keywordSearchSql) sent straight to the database with the same concurrency. The corpus (about 10k chunks of
// synthetic English-like text) is added through the API as text sources and read by the server's own
// ingestion; the index row is written straight to the tables, the RAG is made with POST /v1/rags. On PostgreSQL
// the API runs with one server process and again with several (--servers), the way the product scales. Both
// sides run at every concurrency (--concurrency); a side's rate is the most requests per second it reached at any
// of them (at a low concurrency a side waits on its own round trips instead of working). Budget: for every driver
// and number of processes, the API's rate is at least half the database's. Each run also prints the CPU
// milliseconds per request of the server, the database and the client.
// PostgreSQL runs in a throwaway database created beside DATABASE_URL or TEST_DATABASE_URL and dropped after;
// PGlite is the server's embedded default (the direct run opens its data directory once the server stopped).
// Prints figures; never part of `npm test`.
//   npm run bench:answer -- [--chunks 10000] [--queries 1000] [--rounds 2] [--concurrency 8,32,64]
//                           [--drivers pglite,postgres] [--servers 1,2] [--no-build]
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { keywordSearchSql } from '../apps/server/src/modules/knowledge/retrieval/bm25.ts';
import { ROOT } from '../scripts/lib/build.mjs';
import { cpuMeter, describeCpu } from './lib/cpu.mjs';
import { throwawayPostgres } from './lib/database.mjs';
import { call, clientTenant, handbook, insertKeywordIndex, loadHandbook } from './lib/handbook.mjs';
import { startBuiltServer } from './lib/server.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const CHUNKS = Number(arg('chunks', '10000'));
const QUERIES = Number(arg('queries', '1000'));
const ROUNDS = Number(arg('rounds', '2'));
const CONCURRENCY = arg('concurrency', '8,32,64').split(',').map(Number);
const DRIVERS = arg('drivers', 'pglite,postgres').split(',');
// Server processes answering on PostgreSQL, the requests spread over them in turn as a load balancer would (the
// product scales by processes; PGlite has one owner, so it always runs one).
const SERVERS = arg('servers', '1,2').split(',').map(Number);
// Writes a V8 CPU profile of every server process to this folder (open it in Chrome DevTools).
const PROFILE_DIR = arg('profile', null);
const WARM_UP = 300;
// Questions per measured run. Every run gets questions of its own (none repeats another run's), so no cache of
// passages or answers meets the same question twice; a direct run uses the questions of the one-process API run at
// its concurrency, so both send the same retrieval statements.
const PER_RUN = QUERIES * ROUNDS;
const runSlot = (serverIndex, concurrencyIndex) => serverIndex * CONCURRENCY.length + concurrencyIndex;
const TOP_K = 5;
const ADMIN = { email: 'bench@example.com', password: 'Bench-Answer-Passw0rd-2026' };
// Raised for the bench so the limits never refuse a request; the figures are the server's, not the limiter's.
const LIMITS = { RATE_LIMIT_MAX: '100000000', RAG_ANSWER_RATE_LIMIT: '100000' };

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const pad = (value, width) => String(value).padStart(width);

const startServer = (dataDir, databaseUrl) =>
  startBuiltServer({
    dataDir,
    databaseUrl,
    admin: ADMIN,
    env: LIMITS,
    nodeArgs: PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [],
  });

/**
 * Runs `work(item)` over `items` with `concurrency` in flight; throughput and latency percentiles.
 * `check` sees each result and returns a label to count.
 */
async function drive(items, concurrency, work) {
  const times = new Array(items.length);
  const labels = new Map();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        const begun = performance.now();
        const label = await work(items[i]);
        times[i] = performance.now() - begun;
        labels.set(label, (labels.get(label) ?? 0) + 1);
      }
    }),
  );
  const elapsed = performance.now() - started;
  times.sort((a, b) => a - b);
  return {
    rps: items.length / (elapsed / 1000),
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    labels,
  };
}

const dialect = new PgDialect();

/** The statement the RAG's retrieval ranks with, as text and parameters for a plain connection. */
function statementOf(tenantId, knowledgeBaseId, question) {
  const statement = keywordSearchSql({
    tenantId,
    knowledgeBaseIds: [knowledgeBaseId],
    query: question,
    topK: TOP_K,
  });
  if (!statement) throw new Error(`no statement for ${question}`);
  return dialect.sqlToQuery(statement);
}

/**
 * POST with a JSON body over a keep-alive connection of `agent`; the status and the parsed reply. Plain node:http
 * rather than fetch: the load generator shares the machine with the server, and fetch spends several times the
 * CPU per request (about 0.9 ms against 0.3 ms here), which the server would lose; the direct run's client is
 * the equally plain pg.Pool.
 */
function postJson(agent, url, headers, body) {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': payload.length },
      },
      (response) => {
        const parts = [];
        response.on('data', (part) => parts.push(part));
        response.on('error', reject);
        response.on('end', () => {
          try {
            resolve({ status: response.statusCode, body: JSON.parse(Buffer.concat(parts).toString('utf8')) });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

async function apiRuns(urls, headers, ragId, { warmUp, forConcurrency }, measured) {
  // Keep-alive connections, one per request in flight, as fetch keeps them.
  const agent = new http.Agent({ keepAlive: true });
  let turn = 0;
  let timings = [];
  const answerOne = async (question) => {
    const url = urls[turn++ % urls.length];
    const { status, body } = await postJson(agent, `${url}/v1/rags/${ragId}/answer`, headers, { question });
    if (status !== 200) throw new Error(`answer: ${status} ${JSON.stringify(body)}`);
    timings.push(body.timings);
    return body.kind;
  };
  await drive(warmUp, 8, answerOne);
  const runs = new Map();
  for (const concurrency of CONCURRENCY) {
    timings = [];
    const questions = forConcurrency(concurrency);
    const meter = await cpuMeter(measured);
    const run = await drive(questions, concurrency, answerOne);
    const cpu = meter.stop(questions.length);
    // The answer's own stage timings, as the server measured them (retrieval, answer making, both).
    const mean = (key) => timings.reduce((sum, t) => sum + t[key], 0) / timings.length;
    runs.set(concurrency, {
      ...run,
      cpu,
      retrieveMs: mean('retrieve_ms'),
      generateMs: mean('generate_ms'),
      totalMs: mean('total_ms'),
    });
  }
  agent.destroy();
  return runs;
}

async function databaseRuns(run, { warmUp, forConcurrency }, measured) {
  await drive(warmUp, 8, run);
  const runs = new Map();
  for (const concurrency of CONCURRENCY) {
    const statements = forConcurrency(concurrency);
    const meter = await cpuMeter(measured);
    const result = await drive(statements, concurrency, run);
    runs.set(concurrency, { ...result, cpu: meter.stop(statements.length) });
  }
  return runs;
}

async function bench(driver, { sources, questions }) {
  const work = await mkdtemp(path.join(tmpdir(), 'omnibot-bench-answer-'));
  const dataDir = path.join(work, 'data');
  const postgres = driver === 'postgres' ? await throwawayPostgres() : null;
  try {
    let server = await startServer(dataDir, postgres?.url);
    let tenantId;
    let headers;
    let loaded;
    let indexId;
    const loadStarted = performance.now();
    try {
      ({ tenantId, headers } = await clientTenant(server.url, ADMIN, 'Bench answers'));
      loaded = await loadHandbook(server.url, headers, sources);
      if (postgres) {
        const database = await openDatabase({ kind: 'postgres', url: postgres.url });
        indexId = await insertKeywordIndex(database, {
          tenantId,
          knowledgeBaseId: loaded.knowledgeBaseId,
          topK: TOP_K,
        }).finally(() => database.close());
      }
    } finally {
      if (!postgres) await server.stop();
    }
    if (!postgres) {
      // PGlite has one owner at a time: the index is written while the server is down.
      const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
      indexId = await insertKeywordIndex(database, {
        tenantId,
        knowledgeBaseId: loaded.knowledgeBaseId,
        topK: TOP_K,
      }).finally(() => database.close());
      server = await startServer(dataDir, null);
    }
    const loadMs = performance.now() - loadStarted;
    const warmUp = questions.slice(0, WARM_UP);
    const slot = (n) => questions.slice(WARM_UP + n * PER_RUN, WARM_UP + (n + 1) * PER_RUN);
    // Server count -> concurrency -> run. The first server stays up; the others start for their runs only.
    const api = new Map();
    try {
      const rag = await call(server.url, headers, 'POST', '/v1/rags', {
        name: 'Bench RAG',
        index_id: indexId,
      });
      for (const [serverIndex, count] of (postgres ? SERVERS : [1]).entries()) {
        const more = [];
        try {
          for (let i = 1; i < count; i++)
            more.push(await startServer(path.join(work, `data-${i}`), postgres?.url ?? null));
          const servers = [server, ...more];
          const measured = { serverPids: servers.map((s) => s.pid), databaseUrl: postgres?.url ?? null };
          api.set(
            count,
            await apiRuns(
              servers.map((s) => s.url),
              headers,
              rag.id,
              {
                warmUp,
                forConcurrency: (concurrency) => slot(runSlot(serverIndex, CONCURRENCY.indexOf(concurrency))),
              },
              measured,
            ),
          );
        } finally {
          for (const extra of more) await extra.stop();
        }
      }
    } finally {
      await server.stop();
    }
    const statementsOf = (list) =>
      list.map((question) => statementOf(tenantId, loaded.knowledgeBaseId, question));
    const statements = {
      warmUp: statementsOf(warmUp),
      forConcurrency: (concurrency) => statementsOf(slot(runSlot(0, CONCURRENCY.indexOf(concurrency)))),
    };
    let direct;
    if (postgres) {
      // A plain pool the size of the server's (10 connections), sending the statement prepared under one name as the
      // server sends its own (parsed once per connection): unprepared, each query would also pay its parsing.
      const pool = new pg.Pool({ connectionString: postgres.url, max: 10 });
      // pool.end() resolves before its connections have closed, and dropping the database then ends them from the
      // server's side: that error of an idle connection must not end the bench (a failing query still rejects).
      pool.on('error', () => undefined);
      try {
        direct = await databaseRuns(
          async (q) =>
            (await pool.query({ name: 'bench_keyword', text: q.sql, values: q.params })).rows.length > 0
              ? 'hits'
              : 'none',
          statements,
          { databaseUrl: postgres.url },
        );
      } finally {
        await pool.end();
      }
    } else {
      const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
      try {
        direct = await databaseRuns(
          async (q) => ((await database.executeSql(q.sql, q.params)).rows.length > 0 ? 'hits' : 'none'),
          statements,
          {},
        );
      } finally {
        await database.close();
      }
    }
    return { driver, chunks: loaded.chunks, loadMs, api, direct };
  } finally {
    await postgres?.drop();
    await rm(work, { recursive: true, force: true });
  }
}

if (!process.argv.includes('--no-build')) {
  const built = spawnSync(process.execPath, ['build.mjs'], {
    cwd: path.join(ROOT, 'apps/server'),
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const data = handbook({
  seed: 20261123,
  chunks: CHUNKS,
  questions: WARM_UP + PER_RUN * runSlot(SERVERS.length, 0),
});
const results = [];
for (const driver of DRIVERS) results.push(await bench(driver, data));

const describe = (labels) => [...labels].map(([label, count]) => `${label} ${count}`).join(', ');
console.log(
  `\nPOST /v1/rags/{id}/answer (extractive, keyword index, top ${TOP_K}, API credential) against keywordSearchSql ` +
    `sent straight to the database; ${PER_RUN} questions of its own per run (--queries x --rounds) after ${WARM_UP} ` +
    `warm-up requests; node:http with keep-alive over loopback.\nRate limits raised for the bench: ` +
    `RATE_LIMIT_MAX=${LIMITS.RATE_LIMIT_MAX}, RAG_ANSWER_RATE_LIMIT=${LIMITS.RAG_ANSWER_RATE_LIMIT}. ` +
    'PostgreSQL: the server and the direct run each use a pool of 10 connections.\n',
);
console.log(
  `${'driver'.padEnd(9)}${pad('chunks', 7)}${pad('procs', 6)}${pad('conc', 5)}${pad('API rps', 10)}${pad('p50 ms', 8)}` +
    `${pad('p99 ms', 8)}${pad('DB rps', 10)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('API/DB', 8)}`,
);
// A side's rate is the most requests per second it reached at any concurrency measured.
const peak = (runs) => {
  let best = { concurrency: 0, rps: 0 };
  for (const [concurrency, run] of runs) if (run.rps > best.rps) best = { concurrency, rps: run.rps };
  return best;
};
let failed = false;
for (const row of results) {
  for (const [count, runs] of row.api) {
    for (const concurrency of CONCURRENCY) {
      const api = runs.get(concurrency);
      const direct = row.direct.get(concurrency);
      console.log(
        `${row.driver.padEnd(9)}${pad(row.chunks, 7)}${pad(count, 6)}${pad(concurrency, 5)}${pad(api.rps.toFixed(0), 10)}` +
          `${pad(api.p50.toFixed(1), 8)}${pad(api.p99.toFixed(1), 8)}${pad(direct.rps.toFixed(0), 10)}` +
          `${pad(direct.p50.toFixed(1), 8)}${pad(direct.p99.toFixed(1), 8)}${pad((api.rps / direct.rps).toFixed(2), 8)}` +
          `  (answers: ${describe(api.labels)}; statements: ${describe(direct.labels)})`,
      );
    }
  }
  const database = peak(row.direct);
  for (const [count, runs] of row.api) {
    const api = peak(runs);
    const ratio = api.rps / database.rps;
    failed ||= ratio < 0.5;
    console.log(
      `${row.driver.padEnd(9)}${count} proc: rate ${api.rps.toFixed(0)} answers/s (at concurrency ${api.concurrency}) ` +
        `against ${database.rps.toFixed(0)} statements/s (at ${database.concurrency}): ${ratio.toFixed(2)}, ` +
        `budget >= 0.5 ${ratio >= 0.5 ? 'PASS' : 'FAIL'}`,
    );
  }
  // On PGlite the database runs inside the server, and inside the client in the direct run.
  const databaseName = row.driver === 'postgres' ? 'PostgreSQL' : 'PGlite';
  for (const [count, runs] of row.api) {
    for (const concurrency of CONCURRENCY) {
      const api = runs.get(concurrency);
      const label = `${row.driver.padEnd(9)}${count} proc, conc ${concurrency}:`;
      console.log(
        `${label} the server's own stage timings, mean: retrieve ${api.retrieveMs.toFixed(1)} ms, ` +
          `extractive answer ${api.generateMs.toFixed(1)} ms, total before recording ${api.totalMs.toFixed(1)} ms ` +
          `(the rest of the p50 is authentication, RAG lookup, recording the answer, HTTP and waiting)`,
      );
      console.log(
        `${label} CPU per request: API run ${describeCpu(api.cpu, databaseName)}; ` +
          `direct run ${describeCpu(row.direct.get(concurrency).cpu, databaseName)}`,
      );
    }
  }
  console.log(
    `${row.driver.padEnd(9)}corpus loaded through the API and ingested in ${(row.loadMs / 1000).toFixed(0)} s`,
  );
}
process.exitCode = failed ? 1 : 0;
