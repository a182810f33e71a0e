// Visitor message throughput: requests per second and p50/p99 latency of POST /v1/intent (builtin engine: a RAG
// over a keyword index of about --chunks chunks, extractive answers, no chat model) through the built server
// under autocannon, next to a bare Fastify route (POST, small JSON body, same answer size order) served by this
// process in the same run. Each request is a visitor's first message, so every one starts and stores a
// conversation (two messages, the origin hit and the RAG answer). The corpus is added through the API and read
// by the server's own ingestion; the index rows are written straight to the tables like bench/answer.mjs does.
// Prints figures; never part of `npm test`.
//   npm run bench:intent -- [--chunks 10000] [--duration 30] [--connections 50] [--no-build]
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { ROOT } from '../scripts/lib/build.mjs';
import { call, clientTenant, handbook, insertKeywordIndex, loadHandbook } from './lib/handbook.mjs';
import { freePort, startBuiltServer } from './lib/server.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const CHUNKS = Number(arg('chunks', '10000'));
const DURATION = Number(arg('duration', '30'));
const CONNECTIONS = Number(arg('connections', '50'));
const QUESTIONS = 500;
const ADMIN = { email: 'bench@example.com', password: 'Bench-Intent-Passw0rd-2026' };
// Raised for the bench so the limits never refuse a request; the figures are the server's, not the limiter's.
const LIMITS = {
  RATE_LIMIT_MAX: '100000000',
  WIDGET_RATE_LIMIT_IP: '100000',
  WIDGET_RATE_LIMIT_CONVERSATION: '100000',
};

/** The handbook's keyword index, written while the server is down (PGlite has one owner at a time). */
async function makeIndex(dataDir, tenantId, knowledgeBaseId) {
  const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
  try {
    return await insertKeywordIndex(database, { tenantId, knowledgeBaseId, topK: 5 });
  } finally {
    await database.close();
  }
}

function run(url, title, requests) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, title, connections: CONNECTIONS, duration: DURATION, requests },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    instance.on('error', reject);
  });
}

/** A bare Fastify route in this process: the ceiling of a JSON POST on this machine. */
async function bareServer() {
  const app = Fastify({ logger: false });
  app.post('/bare', async (request) => ({ echo: request.body.text.length, ok: true }));
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${port}/bare` };
}

if (!process.argv.includes('--no-build')) {
  const built = spawnSync(process.execPath, ['build.mjs'], {
    cwd: path.join(ROOT, 'apps/server'),
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const data = handbook({ seed: 20261124, chunks: CHUNKS, questions: QUESTIONS });
// PGlite: the server's embedded default.
const work = await mkdtemp(path.join(tmpdir(), 'omnibot-bench-intent-'));
const dataDir = path.join(work, 'data');
const start = () => startBuiltServer({ dataDir, admin: ADMIN, env: LIMITS });
try {
  let server = await start();
  const tenant = await clientTenant(server.url, ADMIN, 'Bench intents');
  const made = { ...tenant, ...(await loadHandbook(server.url, tenant.headers, data.sources)) };
  await server.stop();
  const indexId = await makeIndex(dataDir, made.tenantId, made.knowledgeBaseId);
  server = await start();
  const rag = await call(server.url, made.headers, 'POST', '/v1/rags', {
    name: 'Bench RAG',
    index_id: indexId,
  });
  const bot = await call(server.url, made.headers, 'POST', '/v1/bots', {
    name: 'Bench bot',
    config: { engines: { rag_id: rag.id } },
  });
  let next = 0;
  const body = () => JSON.stringify({ botId: bot.id, text: data.questions[next++ % data.questions.length] });
  const requests = [
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      setupRequest: (request) => ({ ...request, body: body() }),
    },
  ];
  // A short warm-up so the first figures do not include compilation and cold caches.
  const check = await call(server.url, {}, 'POST', '/v1/intent', JSON.parse(body()));
  if (!check.conversationToken) throw new Error('no conversation token in the intent reply');

  const intent = await run(`${server.url}/v1/intent`, 'POST /v1/intent', requests);
  await server.stop();
  const bare = await bareServer();
  const bareResult = await run(bare.url, 'bare Fastify', [
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      setupRequest: (request) => ({ ...request, body: body() }),
    },
  ]);
  await bare.app.close();

  const row = (name, result) =>
    `${name.padEnd(22)}${String(Math.round(result.requests.average)).padStart(9)}${String(result.latency.p50).padStart(9)}` +
    `${String(result.latency.p99).padStart(9)}${String(result['2xx']).padStart(10)}${String(result.non2xx + result.errors + result.timeouts).padStart(8)}`;
  console.log(
    `\nPOST /v1/intent (builtin engine, extractive, keyword index over ${made.chunks} chunks, PGlite, a new ` +
      `conversation per request) and a bare Fastify POST route, autocannon ${CONNECTIONS} connections x ${DURATION} s ` +
      'each over loopback, one after the other on this machine.\n',
  );
  console.log(
    `${'route'.padEnd(22)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'2xx'.padStart(10)}${'other'.padStart(8)}`,
  );
  console.log(row('POST /v1/intent', intent));
  console.log(row('bare Fastify', bareResult));
} finally {
  await rm(work, { recursive: true, force: true });
}
