// The synthetic handbook the answer and intent benchmarks load: English-like text sources read by the server's own
// ingestion in a client tenant made through the API, and a keyword index over it written straight to the tables.
import { sql } from 'drizzle-orm';
import { indexes, indexKnowledgeBases } from '../../apps/server/src/db/schema/index.ts';
import { textWriter } from './documents.mjs';
import { signIn } from './server.mjs';

/** The words per chunk the knowledge base is made with. */
export const WORDS_PER_CHUNK = 100;
// The chunker closes a chunk at a sentence end before the target, so chunks average about 75 words.
const WORDS_GENERATED_PER_CHUNK = 75;
const CHUNKS_PER_SOURCE = 50;

/** Text sources of about 50 chunks each, `chunks` in all, and `questions` questions; the same for a seed. */
export function handbook({ seed, chunks, questions }) {
  const writer = textWriter(seed);
  const sources = [];
  const words = chunks * WORDS_GENERATED_PER_CHUNK;
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
  return { sources, questions: Array.from({ length: questions }, () => writer.question()) };
}

/** A JSON call to the server (with our Origin); the parsed answer, or an error naming the route and status. */
export async function call(url, headers, method, route, body) {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: { ...headers, origin: url, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** A client tenant holding omnirag, made by the platform admin `admin`; its API credential as a Basic header. */
export async function clientTenant(url, admin, name) {
  const cookie = await signIn(url, admin);
  const created = await call(url, { cookie, 'x-app-id': 'omnibot-console' }, 'POST', '/v1/Account', {
    name,
    subscriptions: ['omnirag'],
  });
  const { key, secret } = created.credential;
  return {
    tenantId: created.account.tenant_id,
    headers: { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` },
  };
}

/** The knowledge base with every source added through the API and read by the server's ingestion. */
export async function loadHandbook(url, headers, sources) {
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
  const deadline = Date.now() + 1_800_000;
  for (;;) {
    let ready = 0;
    let chunks = 0;
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
    if (ready === sources.length) return { knowledgeBaseId: kb.id, chunks };
    if (Date.now() > deadline) throw new Error(`only ${ready} of ${sources.length} sources ready`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The keyword index row and its knowledge base link, as the index module writes them; then statistics. */
export async function insertKeywordIndex(database, { tenantId, knowledgeBaseId, topK }) {
  const [row] = await database.db
    .insert(indexes)
    .values({ tenantId, name: 'Bench index', mode: 'keyword', topK, scoreThreshold: 0 })
    .returning({ id: indexes.id });
  await database.db
    .insert(indexKnowledgeBases)
    .values({ tenantId, indexId: row.id, knowledgeBaseId, position: 0 });
  // The steady state autovacuum reaches after inserts: statistics and an up-to-date visibility map.
  await database.db.execute(sql`vacuum analyze`);
  return row.id;
}
