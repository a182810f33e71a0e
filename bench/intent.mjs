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
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { indexes, indexKnowledgeBases } from '../apps/server/src/db/schema/index.ts';
import { ROOT } from '../scripts/lib/build.mjs';
import { textWriter } from './lib/documents.mjs';
import { freePort, signIn, startBuiltServer } from './lib/server.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const CHUNKS = Number(arg('chunks', '10000'));
const DURATION = Number(arg('duration', '30'));
const CONNECTIONS = Number(arg('connections', '50'));
const QUESTIONS = 500;
const WORDS_PER_CHUNK = 100;
const WORDS_GENERATED_PER_CHUNK = 75;
const CHUNKS_PER_SOURCE = 50;
const ADMIN = { email: 'bench@example.com', password: 'Bench-Intent-Passw0rd-2026' };
// Raised for the bench so the limits never refuse a request; the figures are the server's, not the limiter's.
const LIMITS = {
  RATE_LIMIT_MAX: '100000000',
  WIDGET_RATE_LIMIT_IP: '100000',
  WIDGET_RATE_LIMIT_CONVERSATION: '100000',
};

/** Text sources of about CHUNKS_PER_SOURCE chunks each, and visitor questions; the same every run. */
function corpus() {
  const writer = textWriter(20261124);
  const sources = [];
  const words = CHUNKS * WORDS_GENERATED_PER_CHUNK;
  const perSource = CHUNKS_PER_SOURCE * WORDS_GENERATED_PER_CHUNK;
  for (let done = 0, n = 1; done < words; n++) {
    const paragraphs = [];
    let left = Math.min(perSource, words - done);
    done += left;
    while (left > 0) {
      const sentences = [];
      for (let i = 0; i < 4 && left > 0; i++) {
        const count = Math.min(left, 12 + ((sentences.length * 7) % 15));
        sentences.push(writer.sentence(count));
        left -= count;
      }
      paragraphs.push(sentences.join(' '));
    }
    sources.push({ type: 'text', title: `Handbook page ${n}`, text: paragraphs.join('\n\n') });
  }
  return { sources, questions: Array.from({ length: QUESTIONS }, () => writer.question()) };
}

async function call(url, headers, method, route, body) {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: { ...headers, origin: url, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** A client tenant holding omnirag with its API credential, a knowledge base read by ingestion, index, RAG, bot. */
async function setUp(url, sources) {
  const cookie = await signIn(url, ADMIN);
  const created = await call(url, { cookie, 'x-app-id': 'omnibot-console' }, 'POST', '/v1/Account', {
    name: 'Bench intents',
    subscriptions: ['omnirag'],
  });
  const { key, secret } = created.credential;
  const tenantId = created.account.tenant_id;
  const headers = { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` };
  const kb = await call(url, headers, 'POST', '/v1/knowledge', {
    name: 'Bench handbook',
    language: 'en',
    chunking: { target_words: WORDS_PER_CHUNK, overlap: 0 },
  });
  for (let i = 0; i < sources.length; i += 100) {
    await call(url, headers, 'POST', `/v1/knowledge/${kb.id}/sources/bulk`, {
      sources: sources.slice(i, i + 100),
    });
  }
  let chunks = 0;
  for (const deadline = Date.now() + 1_800_000; ;) {
    let ready = 0;
    chunks = 0;
    for (let page = 1; (page - 1) * 100 < sources.length; page++) {
      const list = await call(
        url,
        headers,
        'GET',
        `/v1/knowledge/${kb.id}/sources?page=${page}&page_size=100`,
      );
      for (const source of list.items) {
        if (source.state === 'failed') throw new Error(`source failed: ${JSON.stringify(source.error)}`);
        if (source.state === 'ready') {
          ready += 1;
          chunks += source.chunk_count;
        }
      }
    }
    if (ready === sources.length) break;
    if (Date.now() > deadline) throw new Error(`only ${ready} of ${sources.length} sources ready`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { headers, tenantId, knowledgeBaseId: kb.id, chunks };
}

/** The index row and its knowledge base link, as the index module writes them (through the server's database). */
async function makeIndex(dataDir, tenantId, knowledgeBaseId) {
  // PGlite has one owner at a time: the index is written while the server is down.
  const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
  try {
    const [row] = await database.db
      .insert(indexes)
      .values({ tenantId, name: 'Bench index', mode: 'keyword', topK: 5, scoreThreshold: 0 })
      .returning({ id: indexes.id });
    await database.db
      .insert(indexKnowledgeBases)
      .values({ tenantId, indexId: row.id, knowledgeBaseId, position: 0 });
    await database.db.execute(sql`vacuum analyze`);
    return row.id;
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

const data = corpus();
// PGlite: the server's embedded default.
const work = await mkdtemp(path.join(tmpdir(), 'omnibot-bench-intent-'));
const dataDir = path.join(work, 'data');
const start = () => startBuiltServer({ dataDir, admin: ADMIN, env: LIMITS });
try {
  let server = await start();
  const made = await setUp(server.url, data.sources);
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
