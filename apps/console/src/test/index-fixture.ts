import type { Index, SearchHit } from '@omnibot/contracts';

export const KB_MANUALS = '3d7e2f0a-1b2c-4d5e-8f90-a1b2c3d4e5f6';
export const KB_FAQ = '4e8f3a1b-2c3d-4e5f-9a01-b2c3d4e5f6a7';
export const EMBEDDING_MODEL = '5f9a4b2c-3d4e-4f6a-8b12-c3d4e5f6a7b8';
export const INDEX_ID = '6a0b5c3d-4e5f-4a7b-9c23-d4e5f6a7b8c9';

/** A complete index as the API answers it: hybrid over the manuals, fully embedded. */
export const indexFixture = (overrides: Partial<Index> = {}): Index => ({
  id: INDEX_ID,
  tenant_id: 't-acme',
  name: 'Support search',
  knowledge_ids: [KB_MANUALS],
  knowledge: [{ id: KB_MANUALS, name: 'Manuals' }],
  mode: 'hybrid',
  top_k: 5,
  score_threshold: 0,
  embedding_model_id: EMBEDDING_MODEL,
  embedding: { state: 'ready', done: 40, total: 40, error: null },
  created_by: 'u1',
  updated_by: 'u1',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
  ...overrides,
});

export const knowledgeFixture = (id: string, name: string) => ({
  id,
  tenant_id: 't-acme',
  name,
  language: 'english',
  text_search_config: 'english',
  chunking: { target_words: 350, overlap: 0.15 },
  created_by: 'u1',
  updated_by: 'u1',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

export const embeddingModelFixture = {
  id: EMBEDDING_MODEL,
  name: 'Small embeddings',
  kind: 'embedding',
  model_name: 'text-embedding-3-small',
  max_tokens: 8191,
  temperature: 0,
  dimensions: 1536,
};

/** A hit of a retrieval test from the manuals. */
export const hitFixture = (overrides: Partial<SearchHit> = {}): SearchHit => ({
  id: 'c1',
  text: 'Hold the power button for ten seconds to reset the router.',
  score: 0.8123,
  heading_path: ['Troubleshooting', 'Reset'],
  page: 12,
  source: {
    id: 's1',
    knowledge_id: KB_MANUALS,
    title: 'Router manual',
    url: '/v1/files/download?tenant=t&path=docs%2Fmanuals%2Frouter.pdf&expires=1&signature=s',
  },
  ...overrides,
});
