import {
  AvailableModelListSchema,
  BotListSchema,
  type CaseSummaryConfig,
  CaseSummaryConfigListSchema,
  CaseSummaryConfigSchema,
  type CreateCaseSummaryConfigBody,
  type UpdateCaseSummaryConfigBody,
} from '@omnibot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const keys = {
  all: ['case-summary-configs'] as const,
  list: () => [...keys.all, 'list'] as const,
  detail: (id: string) => [...keys.all, 'detail', id] as const,
  options: (kind: 'bots' | 'chat-models') => [...keys.all, 'options', kind] as const,
};

const base = '/v1/case-summary-configs';
const of = (id: string) => `${base}/${encodeURIComponent(id)}`;

const caseSummariesApi = {
  list: (signal?: AbortSignal) => api.get(base, { schema: CaseSummaryConfigListSchema, signal }),
  get: (id: string, signal?: AbortSignal) => api.get(of(id), { schema: CaseSummaryConfigSchema, signal }),
  create: (body: CreateCaseSummaryConfigBody) => api.post(base, body, { schema: CaseSummaryConfigSchema }),
  update: (id: string, body: UpdateCaseSummaryConfigBody) =>
    api.patch(of(id), body, { schema: CaseSummaryConfigSchema }),
  remove: (id: string) => api.delete<undefined>(of(id)),
  bots: (signal?: AbortSignal) =>
    api.get('/v1/bots', { query: { page: 1, page_size: 100 }, schema: BotListSchema, signal }),
  chatModels: (signal?: AbortSignal) =>
    api.get('/v1/models/available', { query: { kind: 'chat' }, schema: AvailableModelListSchema, signal }),
};

export const useCaseSummaryConfigs = () =>
  useQuery({ queryKey: keys.list(), queryFn: ({ signal }) => caseSummariesApi.list(signal) });

export const useCaseSummaryConfig = (id: string) =>
  useQuery({ queryKey: keys.detail(id), queryFn: ({ signal }) => caseSummariesApi.get(id, signal) });

export const useBotOptions = () =>
  useQuery({ queryKey: keys.options('bots'), queryFn: ({ signal }) => caseSummariesApi.bots(signal) });

export const useSummaryModelOptions = () =>
  useQuery({
    queryKey: keys.options('chat-models'),
    queryFn: ({ signal }) => caseSummariesApi.chatModels(signal),
  });

function useSaved() {
  const queryClient = useQueryClient();
  return async (config: CaseSummaryConfig) => {
    queryClient.setQueryData(keys.detail(config.id), config);
    await queryClient.invalidateQueries({ queryKey: keys.list() });
  };
}

export function useCreateCaseSummaryConfig() {
  const saved = useSaved();
  return useMutation({ mutationFn: caseSummariesApi.create, onSuccess: saved });
}

export function useUpdateCaseSummaryConfig(id: string) {
  const saved = useSaved();
  return useMutation({
    mutationFn: (body: UpdateCaseSummaryConfigBody) => caseSummariesApi.update(id, body),
    onSuccess: saved,
  });
}

export function useDeleteCaseSummaryConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: caseSummariesApi.remove,
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ queryKey: keys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: keys.list() });
    },
  });
}
