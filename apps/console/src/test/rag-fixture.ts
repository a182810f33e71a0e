import type { AnswerResult, Index, Rag } from '@omnibot/contracts';
import { json } from './fake-auth-api';

const NOW = '2026-01-01T00:00:00.000Z';

export const INDEX_ID = '5b0e8d2c-3f4a-4b5c-9d6e-7f8a9b0c1d2e';
export const PROMPT_ID = '7f1c6a52-6c1e-4a43-9a39-0d6c1f3b2a10';
export const MODEL_ID = '0c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f';
export const RAG_ID = '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d';

export const INDEX: Index = {
  id: INDEX_ID,
  tenant_id: 't-acme',
  name: 'Manuals index',
  knowledge_ids: [],
  knowledge: [],
  mode: 'keyword',
  top_k: 5,
  score_threshold: 0,
  embedding_model_id: null,
  embedding: { state: 'none', done: 0, total: 0, error: null },
  created_by: 'u1',
  updated_by: 'u1',
  created_at: NOW,
  updated_at: NOW,
};

export const RAG: Rag = {
  id: RAG_ID,
  tenant_id: 't-acme',
  name: 'Support answers',
  index_id: INDEX_ID,
  index_name: 'Manuals index',
  prompt_id: null,
  prompt_name: null,
  model_id: null,
  model_name: null,
  fallback_text: "Sorry, I don't know the answer to that. Could you rephrase your question?",
  citations: true,
  max_context_chars: 6000,
  language: 'auto',
  created_by: 'u1',
  updated_by: 'u1',
  created_at: NOW,
  updated_at: NOW,
};

export const PROMPT = {
  id: PROMPT_ID,
  tenant_id: 't-acme',
  name: 'Help desk',
  description: '',
  current_version: 1,
  created_by: 'u1',
  updated_by: 'u1',
  created_at: NOW,
  updated_at: NOW,
};

export const CHAT_MODEL = {
  id: MODEL_ID,
  name: 'House model',
  kind: 'chat',
  model_name: 'gpt-test',
  max_tokens: 512,
  temperature: 0.2,
  dimensions: null,
};

export const ANSWER: AnswerResult = {
  id: 'answer-1',
  answer: 'Items can be returned within 30 days [1]. Refunds take a week [2].',
  kind: 'model',
  sources: [
    {
      n: 1,
      chunk_id: 'c1',
      source_id: 's1',
      knowledge_id: 'k1',
      title: 'Returns policy',
      url: 'https://acme.test/returns',
      heading_path: ['Policies', 'Returns'],
      page: null,
      score: 0.8123,
    },
    {
      n: 2,
      chunk_id: 'c2',
      source_id: 's2',
      knowledge_id: 'k1',
      title: 'Refunds.pdf',
      url: null,
      heading_path: [],
      page: 4,
      score: 0.5,
    },
  ],
  fallback: false,
  timings: { retrieve_ms: 12, generate_ms: 340.4, total_ms: 356 },
  model_error: null,
};

/** A page of a list answer. */
export const listOf = (items: unknown[], extra: Record<string, unknown> = {}) =>
  json(200, { items, total: items.length, page: 1, page_size: 100, ...extra });

/** The pickers of the RAG form: these indexes, one prompt and one chat model. */
export function optionsHandler(indexes: unknown[] = [INDEX]) {
  return (method: string, path: string): Response | undefined => {
    if (method !== 'GET') return undefined;
    if (path === '/v1/indexes') return listOf(indexes, { vector_search: 'exact' });
    if (path === '/v1/prompts') return listOf([PROMPT]);
    if (path === '/v1/models/available') return json(200, { items: [CHAT_MODEL] });
    return undefined;
  };
}

/**
 * A text/event-stream response whose events the test sends one at a time with `send`, then `close`s, so what
 * the page shows between events can be checked.
 */
export function sseResponse() {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(streamController) {
      controller = streamController;
    },
  });
  const push = (text: string) => controller?.enqueue(encoder.encode(text));
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    send: (event: string, data: unknown) => push(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
    /** Raw text, to split an event across reads. */
    push,
    close: () => controller?.close(),
  };
}
