import {
  type BotChatBody,
  BotChatReplySchema,
  BotListSchema,
  BotTestCaseListSchema,
  BotTestCaseSchema,
  type BotTestRun,
  BotTestRunListSchema,
  BotTestRunSchema,
  BotTestSourceListSchema,
  type CreateBotTestCaseBody,
  type UpdateBotTestCaseBody,
} from '@omnibot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Every query key of the bot chat and test screens, so a change invalidates exactly what it touched. */
const botTestingKeys = {
  all: ['bot-testing'] as const,
  bots: () => [...botTestingKeys.all, 'bots'] as const,
  cases: (botId: string) => [...botTestingKeys.all, 'cases', botId] as const,
  sources: (botId: string) => [...botTestingKeys.all, 'sources', botId] as const,
  runs: (botId: string) => [...botTestingKeys.all, 'runs', botId] as const,
};

/** How often a queued or running test run is read again. */
const RUN_POLL_MS = 1500;

const of = (botId: string) => `/v1/bots/${encodeURIComponent(botId)}`;

const botTestingApi = {
  bots: (signal?: AbortSignal) =>
    api.get('/v1/bots', { query: { page: 1, page_size: 100 }, schema: BotListSchema, signal }),
  chat: (botId: string, body: BotChatBody) =>
    api.post(`${of(botId)}/chat`, body, { schema: BotChatReplySchema }),
  cases: (botId: string, signal?: AbortSignal) =>
    api.get(`${of(botId)}/test-cases`, { schema: BotTestCaseListSchema, signal }),
  createCase: (botId: string, body: CreateBotTestCaseBody) =>
    api.post(`${of(botId)}/test-cases`, body, { schema: BotTestCaseSchema }),
  updateCase: (botId: string, caseId: string, body: UpdateBotTestCaseBody) =>
    api.patch(`${of(botId)}/test-cases/${encodeURIComponent(caseId)}`, body, { schema: BotTestCaseSchema }),
  deleteCase: (botId: string, caseId: string) =>
    api.delete<undefined>(`${of(botId)}/test-cases/${encodeURIComponent(caseId)}`),
  sources: (botId: string, signal?: AbortSignal) =>
    api.get(`${of(botId)}/test-sources`, { schema: BotTestSourceListSchema, signal }),
  runs: (botId: string, signal?: AbortSignal) =>
    api.get(`${of(botId)}/test-runs`, { schema: BotTestRunListSchema, signal }),
  startRun: (botId: string) => api.post(`${of(botId)}/test-runs`, {}, { schema: BotTestRunSchema }),
};

/** The organisation's bots (the first 100, by name), enabled or not. */
export function useBots() {
  return useQuery({ queryKey: botTestingKeys.bots(), queryFn: ({ signal }) => botTestingApi.bots(signal) });
}

export function useBotChat(botId: string) {
  return useMutation({ mutationFn: (body: BotChatBody) => botTestingApi.chat(botId, body) });
}

export function useTestCases(botId: string) {
  return useQuery({
    queryKey: botTestingKeys.cases(botId),
    queryFn: ({ signal }) => botTestingApi.cases(botId, signal),
  });
}

export function useTestSources(botId: string) {
  return useQuery({
    queryKey: botTestingKeys.sources(botId),
    queryFn: ({ signal }) => botTestingApi.sources(botId, signal),
  });
}

export function useSaveTestCase(botId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: CreateBotTestCaseBody }) =>
      id === null ? botTestingApi.createCase(botId, body) : botTestingApi.updateCase(botId, id, body),
    onSuccess: () => client.invalidateQueries({ queryKey: botTestingKeys.cases(botId) }),
  });
}

export function useDeleteTestCase(botId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (caseId: string) => botTestingApi.deleteCase(botId, caseId),
    onSuccess: () => client.invalidateQueries({ queryKey: botTestingKeys.cases(botId) }),
  });
}

const active = (run: BotTestRun | undefined) => run?.status === 'queued' || run?.status === 'running';

/** The bot's runs, newest first; read again while the newest one is still queued or running. */
export function useTestRuns(botId: string) {
  return useQuery({
    queryKey: botTestingKeys.runs(botId),
    queryFn: ({ signal }) => botTestingApi.runs(botId, signal),
    refetchInterval: (query) => (active(query.state.data?.items[0]) ? RUN_POLL_MS : false),
  });
}

export function useStartTestRun(botId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => botTestingApi.startRun(botId),
    onSettled: () => client.invalidateQueries({ queryKey: botTestingKeys.runs(botId) }),
  });
}
