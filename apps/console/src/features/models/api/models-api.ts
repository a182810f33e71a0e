import {
  AvailableModelListSchema,
  ModelListSchema,
  ModelSchema,
  ModelTestResultSchema,
  type AvailableModel,
  type CreateModelBody,
  type Model,
  type ModelKind,
  type ModelTestResult,
  type UpdateModelBody,
} from '@omnibot/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Query keys of the model connections; invalidating `modelsKeys.all` refreshes the list. */
const modelsKeys = {
  all: ['models'] as const,
  list: ['models', 'list'] as const,
  available: (kind: ModelKind | 'all') => ['models', 'available', kind] as const,
};

const modelPath = (id: string) => `/v1/models/${encodeURIComponent(id)}`;

const getModels = (signal?: AbortSignal): Promise<Model[]> =>
  api.get('/v1/models', { schema: ModelListSchema, signal }).then((list) => list.items);

const createModel = (body: CreateModelBody): Promise<Model> =>
  api.post('/v1/models', body, { schema: ModelSchema });

const updateModel = (id: string, body: UpdateModelBody): Promise<Model> =>
  api.patch(modelPath(id), body, { schema: ModelSchema });

const deleteModel = (id: string): Promise<void> => api.delete(modelPath(id));

const testModel = (id: string): Promise<ModelTestResult> =>
  api.post(`${modelPath(id)}/test`, undefined, { schema: ModelTestResultSchema });

const getModelsQueryOptions = () =>
  queryOptions({ queryKey: modelsKeys.list, queryFn: ({ signal }) => getModels(signal) });

export const useModels = () => useQuery(getModelsQueryOptions());

/**
 * Create or change a connection. The body may hold an API key: `gcTime: 0` drops the mutation (and the key in
 * its variables) as soon as no screen uses it, and the answer only ever holds the key's mask.
 */
export function useSaveModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: { id: null; body: CreateModelBody } | { id: string; body: UpdateModelBody }) =>
      change.id === null ? createModel(change.body) : updateModel(change.id, change.body),
    gcTime: 0,
    onSettled: () => queryClient.invalidateQueries({ queryKey: modelsKeys.all }),
  });
}

export function useDeleteModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteModel(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: modelsKeys.all }),
  });
}

/** A tiny real call through the connection; the answer is ok with its latency or the provider's refusal. */
export const useTestModel = () => useMutation({ mutationFn: (id: string) => testModel(id) });

/** The models shared with the caller's organisation (no key, no address), optionally of one kind. */
const getAvailableModels = (kind?: ModelKind, signal?: AbortSignal): Promise<AvailableModel[]> =>
  api
    .get('/v1/models/available', { query: { kind }, schema: AvailableModelListSchema, signal })
    .then((list) => list.items);

/** The models an index or RAG may use: those shared with the organisation, optionally of one kind. */
export const useAvailableModels = (kind?: ModelKind) =>
  useQuery({
    queryKey: modelsKeys.available(kind ?? 'all'),
    queryFn: ({ signal }) => getAvailableModels(kind, signal),
  });
