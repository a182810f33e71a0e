import {
  AvailableModelListSchema,
  type CreateRagBody,
  IndexListSchema,
  PromptListSchema,
  type Rag,
  RagListSchema,
  type RagListQuery,
  RagSchema,
  type UpdateRagBody,
} from '@omnibot/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Every RAG query key, so a change invalidates exactly what it touched. */
const ragKeys = {
  all: ['rags'] as const,
  lists: () => [...ragKeys.all, 'list'] as const,
  list: (query: RagListQuery) => [...ragKeys.lists(), query] as const,
  detail: (id: string) => [...ragKeys.all, 'detail', id] as const,
  /** What a RAG form offers to pick from: indexes, prompts and chat models. */
  options: (kind: 'indexes' | 'prompts' | 'chat-models') => [...ragKeys.all, 'options', kind] as const,
};

/** The most rows one page of the API holds; the console lists RAGs and the pickers' options in one go. */
const ALL = { page: 1, page_size: 100 };

const base = '/v1/rags';
const of = (id: string) => `${base}/${encodeURIComponent(id)}`;

const ragsApi = {
  list: (query: RagListQuery, signal?: AbortSignal) =>
    api.get(base, { query, schema: RagListSchema, signal }),
  get: (id: string, signal?: AbortSignal) => api.get(of(id), { schema: RagSchema, signal }),
  create: (body: CreateRagBody) => api.post(base, body, { schema: RagSchema }),
  update: (id: string, body: UpdateRagBody) => api.patch(of(id), body, { schema: RagSchema }),
  remove: (id: string) => api.delete<undefined>(of(id)),
  indexes: (signal?: AbortSignal) => api.get('/v1/indexes', { query: ALL, schema: IndexListSchema, signal }),
  prompts: (signal?: AbortSignal) => api.get('/v1/prompts', { query: ALL, schema: PromptListSchema, signal }),
  chatModels: (signal?: AbortSignal) =>
    api.get('/v1/models/available', { query: { kind: 'chat' }, schema: AvailableModelListSchema, signal }),
};

/** The organisation's RAGs; `prompt_id` or `index_id` narrow them to those using that prompt or index. */
export const useRags = (filter: Pick<RagListQuery, 'prompt_id' | 'index_id'> = {}) => {
  const query: RagListQuery = { ...ALL, ...filter };
  return useQuery({
    queryKey: ragKeys.list(query),
    queryFn: ({ signal }) => ragsApi.list(query, signal),
    placeholderData: keepPreviousData,
  });
};

export const useRag = (id: string) =>
  useQuery({ queryKey: ragKeys.detail(id), queryFn: ({ signal }) => ragsApi.get(id, signal) });

export const useIndexOptions = () =>
  useQuery({ queryKey: ragKeys.options('indexes'), queryFn: ({ signal }) => ragsApi.indexes(signal) });

export const usePromptOptions = () =>
  useQuery({ queryKey: ragKeys.options('prompts'), queryFn: ({ signal }) => ragsApi.prompts(signal) });

export const useChatModelOptions = () =>
  useQuery({ queryKey: ragKeys.options('chat-models'), queryFn: ({ signal }) => ragsApi.chatModels(signal) });

/** After a save the RAG itself is known and every list (the prompt's "used by" too) may have changed. */
function useSaved() {
  const queryClient = useQueryClient();
  return async (rag: Rag) => {
    queryClient.setQueryData(ragKeys.detail(rag.id), rag);
    await queryClient.invalidateQueries({ queryKey: ragKeys.lists() });
  };
}

export function useCreateRag() {
  const saved = useSaved();
  return useMutation({ mutationFn: ragsApi.create, onSuccess: saved });
}

export function useUpdateRag(id: string) {
  const saved = useSaved();
  return useMutation({ mutationFn: (body: UpdateRagBody) => ragsApi.update(id, body), onSuccess: saved });
}

export function useDeleteRag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ragsApi.remove,
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ queryKey: ragKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: ragKeys.lists() });
    },
  });
}
