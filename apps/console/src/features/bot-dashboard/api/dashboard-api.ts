import {
  BotListSchema,
  BotStatsSchema,
  type ConversationListQuery,
  ConversationListSchema,
  ConversationSchema,
} from '@omnibot/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Every dashboard query key. */
const dashboardKeys = {
  all: ['bot-dashboard'] as const,
  bots: () => [...dashboardKeys.all, 'bots'] as const,
  stats: (botId: string, days: number) => [...dashboardKeys.all, 'stats', botId, days] as const,
  conversations: (botId: string, query: ConversationListQuery) =>
    [...dashboardKeys.all, 'conversations', botId, query] as const,
  conversation: (id: string) => [...dashboardKeys.all, 'conversation', id] as const,
};

const bot = (id: string) => `/v1/bots/${encodeURIComponent(id)}`;

const dashboardApi = {
  /** The organisation's bots, by name (one page of the API holds 100). */
  bots: (signal?: AbortSignal) =>
    api.get('/v1/bots', { query: { page: 1, page_size: 100 }, schema: BotListSchema, signal }),
  stats: (botId: string, days: number, signal?: AbortSignal) =>
    api.get(`${bot(botId)}/stats`, { query: { days }, schema: BotStatsSchema, signal }),
  conversations: (botId: string, query: ConversationListQuery, signal?: AbortSignal) =>
    api.get(`${bot(botId)}/conversations`, {
      query: { ...query, q: query.q || undefined },
      schema: ConversationListSchema,
      signal,
    }),
  conversation: (id: string, signal?: AbortSignal) =>
    api.get(`/v1/conversations/${encodeURIComponent(id)}`, { schema: ConversationSchema, signal }),
};

export const useDashboardBots = () =>
  useQuery({ queryKey: dashboardKeys.bots(), queryFn: ({ signal }) => dashboardApi.bots(signal) });

export const useBotStats = (botId: string, days: number) =>
  useQuery({
    queryKey: dashboardKeys.stats(botId, days),
    queryFn: ({ signal }) => dashboardApi.stats(botId, days, signal),
    placeholderData: keepPreviousData,
  });

export const useConversations = (botId: string, query: ConversationListQuery) =>
  useQuery({
    queryKey: dashboardKeys.conversations(botId, query),
    queryFn: ({ signal }) => dashboardApi.conversations(botId, query, signal),
    placeholderData: keepPreviousData,
  });

export const useConversation = (id: string | null) =>
  useQuery({
    queryKey: dashboardKeys.conversation(id ?? ''),
    queryFn: ({ signal }) => dashboardApi.conversation(id ?? '', signal),
    enabled: id !== null,
  });
