import {
  type CreatePromptBody,
  type Prompt,
  PromptListSchema,
  type PromptListQuery,
  PromptSchema,
  PromptVersionListSchema,
  PromptVersionSchema,
  type UpdatePromptBody,
} from '@omnibot/contracts';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Every prompt query key, so a change invalidates exactly what it touched. */
const promptKeys = {
  all: ['prompts'] as const,
  lists: () => [...promptKeys.all, 'list'] as const,
  list: (query: PromptListQuery) => [...promptKeys.lists(), query] as const,
  detail: (id: string) => [...promptKeys.all, 'detail', id] as const,
  versions: (id: string) => [...promptKeys.detail(id), 'versions'] as const,
  version: (id: string, version: number) => [...promptKeys.versions(id), version] as const,
};

const base = '/v1/prompts';
const of = (id: string) => `${base}/${encodeURIComponent(id)}`;

const promptsApi = {
  list: (query: PromptListQuery, signal?: AbortSignal) =>
    api.get(base, { query: { ...query, q: query.q || undefined }, schema: PromptListSchema, signal }),
  get: (id: string, signal?: AbortSignal) => api.get(of(id), { schema: PromptSchema, signal }),
  create: (body: CreatePromptBody) => api.post(base, body, { schema: PromptSchema }),
  update: (id: string, body: UpdatePromptBody) => api.patch(of(id), body, { schema: PromptSchema }),
  versions: (id: string, signal?: AbortSignal) =>
    api.get(`${of(id)}/versions`, { schema: PromptVersionListSchema, signal }),
  version: (id: string, version: number, signal?: AbortSignal) =>
    api.get(`${of(id)}/versions/${version}`, { schema: PromptVersionSchema, signal }),
  restore: (id: string, version: number) =>
    api.post(`${of(id)}/versions/${version}/restore`, undefined, { schema: PromptSchema }),
};

export const usePrompts = (query: PromptListQuery) =>
  useQuery(
    queryOptions({
      queryKey: promptKeys.list(query),
      queryFn: ({ signal }) => promptsApi.list(query, signal),
      placeholderData: keepPreviousData,
    }),
  );

export const usePrompt = (id: string) =>
  useQuery({ queryKey: promptKeys.detail(id), queryFn: ({ signal }) => promptsApi.get(id, signal) });

export const usePromptVersions = (id: string) =>
  useQuery({ queryKey: promptKeys.versions(id), queryFn: ({ signal }) => promptsApi.versions(id, signal) });

export const usePromptVersion = (id: string, version: number | null) =>
  useQuery({
    queryKey: promptKeys.version(id, version ?? 0),
    queryFn: ({ signal }) => promptsApi.version(id, version ?? 0, signal),
    enabled: version !== null,
    // A version never changes once written.
    staleTime: Infinity,
  });

/** After a save: the prompt itself is known, its versions and every list may have changed. */
function useSaved() {
  const queryClient = useQueryClient();
  return async (prompt: Prompt) => {
    queryClient.setQueryData(promptKeys.detail(prompt.id), prompt);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: promptKeys.versions(prompt.id), exact: true }),
      queryClient.invalidateQueries({ queryKey: promptKeys.lists() }),
    ]);
  };
}

export function useCreatePrompt() {
  const saved = useSaved();
  return useMutation({ mutationFn: promptsApi.create, onSuccess: saved });
}

export function useUpdatePrompt(id: string) {
  const saved = useSaved();
  return useMutation({
    mutationFn: (body: UpdatePromptBody) => promptsApi.update(id, body),
    onSuccess: saved,
  });
}

export function useRestorePromptVersion(id: string) {
  const saved = useSaved();
  return useMutation({ mutationFn: (version: number) => promptsApi.restore(id, version), onSuccess: saved });
}

export function useDeletePrompt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<undefined>(of(id)),
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ queryKey: promptKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: promptKeys.lists() });
    },
  });
}
