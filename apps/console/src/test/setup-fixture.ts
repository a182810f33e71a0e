import type { KnowledgeSource } from '@omnibot/contracts';
import { makeBot } from './bot-fixture';
import { json } from './fake-auth-api';
import { indexFixture, KB_MANUALS, knowledgeFixture } from './index-fixture';
import { listOf, RAG } from './rag-fixture';

/** What an organisation has set up, as the getting-started steps read it from the API. */
export interface SetupState {
  sourceState?: KnowledgeSource['state'] | null;
  hasIndex?: boolean;
  hasRag?: boolean;
  hasBot?: boolean;
  origins?: string[];
  conversations?: number;
}

const NOW = '2026-01-01T00:00:00.000Z';

const source = (state: KnowledgeSource['state']): KnowledgeSource => ({
  id: 'src-1',
  knowledge_id: KB_MANUALS,
  type: 'text',
  title: 'Opening hours',
  url: null,
  path: null,
  state,
  error: null,
  chunk_count: state === 'ready' ? 1 : 0,
  content_hash: null,
  last_synced_at: null,
  sync: { frequency: 'off' },
  next_sync_at: null,
  last_sync_result: null,
  created_by: 'u1',
  created_at: NOW,
  updated_at: NOW,
});

/** Answers the list requests of the getting-started steps for `state` (a `handle` for stubAuthApi). */
export function setupHandler(state: SetupState) {
  const bot = makeBot();
  return (method: string, path: string): Response | undefined => {
    if (method !== 'GET') return undefined;
    if (path === '/v1/knowledge')
      return listOf(state.sourceState === undefined ? [] : [knowledgeFixture(KB_MANUALS, 'Manuals')]);
    if (path === `/v1/knowledge/${KB_MANUALS}/sources`)
      return listOf(state.sourceState ? [source(state.sourceState)] : []);
    if (path === '/v1/indexes')
      return listOf(state.hasIndex ? [indexFixture()] : [], { vector_search: 'exact' });
    if (path === '/v1/rags') return listOf(state.hasRag ? [RAG] : []);
    if (path === '/v1/bots') return listOf(state.hasBot ? [bot] : []);
    if (path === `/v1/bots/${bot.id}/origins`)
      return json(200, {
        items: (state.origins ?? []).map((origin) => ({ origin, first_seen: NOW, last_seen: NOW, hits: 1 })),
      });
    if (path === `/v1/bots/${bot.id}/conversations`)
      return json(200, { items: [], total: state.conversations ?? 0, page: 1, page_size: 1 });
    return undefined;
  };
}

/** Every step done: a ready source, an index, a RAG, a bot loaded from a customer site and tried. */
export const COMPLETE_SETUP: SetupState = {
  sourceState: 'ready',
  hasIndex: true,
  hasRag: true,
  hasBot: true,
  origins: ['https://www.customer.test'],
  conversations: 3,
};
