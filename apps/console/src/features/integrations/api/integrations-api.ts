import {
  type CreateIntegrationBody,
  type Integration,
  type IntegrationListQuery,
  IntegrationListSchema,
  IntegrationSchema,
  type IntegrationTestResult,
  IntegrationTestResultSchema,
  RagListSchema,
  type TestIntegrationBody,
  type UpdateIntegrationBody,
} from '@omnibot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const integrationKeys = {
  all: ['integrations'] as const,
  lists: () => [...integrationKeys.all, 'list'] as const,
  list: (query: IntegrationListQuery) => [...integrationKeys.lists(), query] as const,
  detail: (id: string) => [...integrationKeys.all, 'detail', id] as const,
  rags: () => [...integrationKeys.all, 'rag-options'] as const,
};

const base = '/v1/integrations';
const of = (id: string) => `${base}/${encodeURIComponent(id)}`;

const integrationsApi = {
  list: (query: IntegrationListQuery, signal?: AbortSignal) =>
    api.get(base, { query, schema: IntegrationListSchema, signal }),
  get: (id: string, signal?: AbortSignal) => api.get(of(id), { schema: IntegrationSchema, signal }),
  create: (body: CreateIntegrationBody) => api.post(base, body, { schema: IntegrationSchema }),
  update: (id: string, body: UpdateIntegrationBody) => api.patch(of(id), body, { schema: IntegrationSchema }),
  remove: (id: string) => api.delete<undefined>(of(id)),
  test: (id: string) => api.post(`${of(id)}/test`, undefined, { schema: IntegrationTestResultSchema }),
  testUnsaved: (body: TestIntegrationBody) =>
    api.post(`${base}/test`, body, { schema: IntegrationTestResultSchema }),
  rags: (signal?: AbortSignal) =>
    api.get('/v1/rags', { query: { page: 1, page_size: 100 }, schema: RagListSchema, signal }),
};

/** The organisation's integrations, optionally of one kind. */
export const useIntegrations = (query: IntegrationListQuery = {}) =>
  useQuery({
    queryKey: integrationKeys.list(query),
    queryFn: ({ signal }) => integrationsApi.list(query, signal),
  });

export const useIntegration = (id: string) =>
  useQuery({
    queryKey: integrationKeys.detail(id),
    queryFn: ({ signal }) => integrationsApi.get(id, signal),
  });

/** The RAGs a builtin integration may answer from (a 403 when the organisation has no Omni RAG). */
export const useRagOptions = (enabled: boolean) =>
  useQuery({
    queryKey: integrationKeys.rags(),
    queryFn: ({ signal }) => integrationsApi.rags(signal),
    enabled,
    retry: false,
  });

function useSaved() {
  const queryClient = useQueryClient();
  return async (integration: Integration) => {
    queryClient.setQueryData(integrationKeys.detail(integration.id), integration);
    await queryClient.invalidateQueries({ queryKey: integrationKeys.lists() });
  };
}

export function useCreateIntegration() {
  const saved = useSaved();
  return useMutation({ mutationFn: integrationsApi.create, onSuccess: saved });
}

export function useUpdateIntegration(id: string) {
  const saved = useSaved();
  return useMutation({
    mutationFn: (body: UpdateIntegrationBody) => integrationsApi.update(id, body),
    onSuccess: saved,
  });
}

export function useDeleteIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: integrationsApi.remove,
    onSuccess: async (_nothing, id) => {
      queryClient.removeQueries({ queryKey: integrationKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: integrationKeys.lists() });
    },
  });
}

/** Tries settings: a saved integration as stored (`id` only), or the form's settings before they are saved. */
export function useTestIntegration() {
  return useMutation<IntegrationTestResult, Error, { id: string } | { body: TestIntegrationBody }>({
    mutationFn: (target) =>
      'body' in target ? integrationsApi.testUnsaved(target.body) : integrationsApi.test(target.id),
  });
}
