import {
  type Bot,
  BotListSchema,
  BotOriginListSchema,
  ConversationListSchema,
  IndexListSchema,
  KnowledgeBaseListSchema,
  KnowledgeSourceListSchema,
  RagListSchema,
} from '@omnibot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type ResponseParser } from '../../../lib/api-client';

/** What the organisation has set up so far, read from its own lists (never stored separately). */
export interface SetupProgress {
  /** A knowledge base holds at least one source that is ready to answer from. */
  hasKnowledge: boolean;
  hasIndex: boolean;
  hasRag: boolean;
  /** The bot the install and try-it steps use: the first answering from a RAG, else the first. */
  bot: { id: string; name: string } | null;
  /** A bot was loaded from a site other than this console's own origin (its demo page). */
  isInstalled: boolean;
  /** A bot has had at least one conversation. */
  isTried: boolean;
}

interface SetupProgressScope {
  /** Knowledge, indexes and RAGs need the Omni RAG subscription; without it they are not read. */
  hasOmnirag: boolean;
  /** The console's own origin, whose loads (the demo page) do not count as an install. */
  consoleOrigin: string;
}

const ALL = { page: 1, page_size: 100 };
/** Bots checked in parallel at a time; checking stops at the first that answers the question. */
const BATCH = 5;

async function someInBatches<T>(items: readonly T[], test: (item: T) => Promise<boolean>): Promise<boolean> {
  for (let start = 0; start < items.length; start += BATCH) {
    const results = await Promise.all(items.slice(start, start + BATCH).map(test));
    if (results.some(Boolean)) return true;
  }
  return false;
}

async function hasReadyKnowledge(signal?: AbortSignal): Promise<boolean> {
  const bases = await api.get('/v1/knowledge', { query: ALL, schema: KnowledgeBaseListSchema, signal });
  return someInBatches(bases.items, async (base) => {
    const sources = await api.get(`/v1/knowledge/${encodeURIComponent(base.id)}/sources`, {
      query: ALL,
      schema: KnowledgeSourceListSchema,
      signal,
    });
    return sources.items.some((source) => source.state === 'ready');
  });
}

/** Whether a list endpoint holds at least one row (one row is asked for). */
const hasAny = async (path: string, schema: ResponseParser<{ items: unknown[] }>, signal?: AbortSignal) =>
  (await api.get(path, { query: { page: 1, page_size: 1 }, schema, signal })).items.length > 0;

const botPath = (bot: Bot, rest: string) => `/v1/bots/${encodeURIComponent(bot.id)}/${rest}`;

/** Reads the organisation's lists and says which getting-started steps are done. */
export async function getSetupProgress(
  { hasOmnirag, consoleOrigin }: SetupProgressScope,
  signal?: AbortSignal,
): Promise<SetupProgress> {
  const [hasKnowledge, hasIndex, hasRag, bots] = await Promise.all([
    hasOmnirag ? hasReadyKnowledge(signal) : false,
    hasOmnirag ? hasAny('/v1/indexes', IndexListSchema, signal) : false,
    hasOmnirag ? hasAny('/v1/rags', RagListSchema, signal) : false,
    api.get('/v1/bots', { query: ALL, schema: BotListSchema, signal }),
  ]);
  const [isInstalled, isTried] = await Promise.all([
    someInBatches(bots.items, async (bot) => {
      const origins = await api.get(botPath(bot, 'origins'), { schema: BotOriginListSchema, signal });
      return origins.items.some((item) => item.origin !== consoleOrigin);
    }),
    someInBatches(bots.items, async (bot) => {
      const conversations = await api.get(botPath(bot, 'conversations'), {
        query: { page: 1, page_size: 1 },
        schema: ConversationListSchema,
        signal,
      });
      return conversations.total > 0;
    }),
  ]);
  const bot = bots.items.find((item) => item.config.engines.rag_id) ?? bots.items[0];
  return {
    hasKnowledge,
    hasIndex,
    hasRag,
    bot: bot ? { id: bot.id, name: bot.name } : null,
    isInstalled,
    isTried,
  };
}

const getSetupProgressQueryOptions = (scope: SetupProgressScope) =>
  queryOptions({
    queryKey: ['getting-started', scope] as const,
    queryFn: ({ signal }) => getSetupProgress(scope, signal),
    // Read afresh on every visit: each step is done on another screen.
    staleTime: 0,
  });

export const useSetupProgress = (scope: SetupProgressScope) => useQuery(getSetupProgressQueryOptions(scope));
