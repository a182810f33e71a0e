import {
  type BulkCreateSourcesBody,
  BulkSourcesResultSchema,
  type CreateKnowledgeBody,
  type CreateSourceBody,
  type KnowledgeBase,
  KnowledgeBaseListSchema,
  KnowledgeBaseSchema,
  KnowledgeChunkListSchema,
  type KnowledgeSource,
  KnowledgeSourceListSchema,
  KnowledgeSourceSchema,
  type SourceSyncScheduleBody,
  type UpdateKnowledgeBody,
} from '@omnibot/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Every knowledge query key, so a change invalidates exactly what it touched. */
const knowledgeKeys = {
  all: ['knowledge'] as const,
  lists: () => [...knowledgeKeys.all, 'list'] as const,
  detail: (id: string) => [...knowledgeKeys.all, 'detail', id] as const,
  sources: (id: string) => [...knowledgeKeys.detail(id), 'sources'] as const,
  chunks: (id: string, sourceId: string, page: number, pageSize: number) =>
    [...knowledgeKeys.sources(id), sourceId, 'chunks', page, pageSize] as const,
};

/** How often the sources are asked for again while one of them is still being ingested. */
const SOURCE_POLL_MS = 2000;
/** The most knowledge bases (or sources) one page of the API holds; the console lists them in one go. */
const ALL = { page: 1, page_size: 100 };

const base = '/v1/knowledge';
const of = (id: string) => `${base}/${encodeURIComponent(id)}`;
const sourceOf = (id: string, sourceId: string) => `${of(id)}/sources/${encodeURIComponent(sourceId)}`;

const knowledgeApi = {
  list: (signal?: AbortSignal) => api.get(base, { query: ALL, schema: KnowledgeBaseListSchema, signal }),
  get: (id: string, signal?: AbortSignal) => api.get(of(id), { schema: KnowledgeBaseSchema, signal }),
  create: (body: CreateKnowledgeBody) => api.post(base, body, { schema: KnowledgeBaseSchema }),
  update: (id: string, body: UpdateKnowledgeBody) => api.patch(of(id), body, { schema: KnowledgeBaseSchema }),
  sources: (id: string, signal?: AbortSignal) =>
    api.get(`${of(id)}/sources`, { query: ALL, schema: KnowledgeSourceListSchema, signal }),
  addSource: (id: string, body: CreateSourceBody) =>
    api.post(`${of(id)}/sources`, body, { schema: KnowledgeSourceSchema }),
  addSources: (id: string, body: BulkCreateSourcesBody) =>
    api.post(`${of(id)}/sources/bulk`, body, { schema: BulkSourcesResultSchema }),
  resync: (id: string, sourceId: string) =>
    api.post(`${sourceOf(id, sourceId)}/resync`, undefined, { schema: KnowledgeSourceSchema }),
  setSync: (id: string, sourceId: string, body: SourceSyncScheduleBody) =>
    api.put(`${sourceOf(id, sourceId)}/sync`, body, { schema: KnowledgeSourceSchema }),
  chunks: (id: string, sourceId: string, page: number, pageSize: number, signal?: AbortSignal) =>
    api.get(`${sourceOf(id, sourceId)}/chunks`, {
      query: { page, page_size: pageSize },
      schema: KnowledgeChunkListSchema,
      signal,
    }),
};

export const useKnowledgeBases = () =>
  useQuery({ queryKey: knowledgeKeys.lists(), queryFn: ({ signal }) => knowledgeApi.list(signal) });

export const useKnowledgeBase = (id: string) =>
  useQuery({ queryKey: knowledgeKeys.detail(id), queryFn: ({ signal }) => knowledgeApi.get(id, signal) });

/** A source is settled once it is ready or failed; until then its state changes on the server. */
const isSettled = (source: KnowledgeSource) => source.state === 'ready' || source.state === 'failed';

/** The sources of a knowledge base, asked for again every 2 s while any of them is still being ingested. */
export const useKnowledgeSources = (id: string) =>
  useQuery({
    queryKey: knowledgeKeys.sources(id),
    queryFn: ({ signal }) => knowledgeApi.sources(id, signal),
    refetchInterval: (query) =>
      query.state.data && !query.state.data.items.every(isSettled) ? SOURCE_POLL_MS : false,
  });

export const useSourceChunks = (id: string, sourceId: string | null, page: number, pageSize: number) =>
  useQuery({
    queryKey: knowledgeKeys.chunks(id, sourceId ?? '', page, pageSize),
    queryFn: ({ signal }) => knowledgeApi.chunks(id, sourceId ?? '', page, pageSize, signal),
    enabled: sourceId !== null,
    placeholderData: keepPreviousData,
  });

export function useCreateKnowledgeBase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: knowledgeApi.create,
    onSuccess: async (knowledge: KnowledgeBase) => {
      queryClient.setQueryData(knowledgeKeys.detail(knowledge.id), knowledge);
      await queryClient.invalidateQueries({ queryKey: knowledgeKeys.lists() });
    },
  });
}

export function useUpdateKnowledgeBase(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateKnowledgeBody) => knowledgeApi.update(id, body),
    onSuccess: async (knowledge: KnowledgeBase) => {
      queryClient.setQueryData(knowledgeKeys.detail(knowledge.id), knowledge);
      await queryClient.invalidateQueries({ queryKey: knowledgeKeys.lists() });
    },
  });
}

export function useDeleteKnowledgeBase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<undefined>(of(id)),
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ queryKey: knowledgeKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: knowledgeKeys.lists() });
    },
  });
}

/** Adding, re-syncing or deleting a source changes the list, which then polls until it settles. */
function useSourcesChanged(id: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: knowledgeKeys.sources(id) });
}

export function useAddSource(id: string) {
  const changed = useSourcesChanged(id);
  return useMutation({
    mutationFn: (body: CreateSourceBody) => knowledgeApi.addSource(id, body),
    onSuccess: changed,
  });
}

/** Many sources in one request: all are added or none. */
export function useAddSources(id: string) {
  const changed = useSourcesChanged(id);
  return useMutation({
    mutationFn: (body: BulkCreateSourcesBody) => knowledgeApi.addSources(id, body),
    onSuccess: changed,
  });
}

export function useResyncSource(id: string) {
  const changed = useSourcesChanged(id);
  return useMutation({
    mutationFn: (sourceId: string) => knowledgeApi.resync(id, sourceId),
    onSuccess: changed,
  });
}

/** Sets when a web page or sitemap source is re-synced on its own. */
export function useSetSourceSync(id: string) {
  const changed = useSourcesChanged(id);
  return useMutation({
    mutationFn: ({ sourceId, body }: { sourceId: string; body: SourceSyncScheduleBody }) =>
      knowledgeApi.setSync(id, sourceId, body),
    onSuccess: changed,
  });
}

export function useDeleteSource(id: string) {
  const changed = useSourcesChanged(id);
  return useMutation({
    mutationFn: (sourceId: string) => api.delete<undefined>(sourceOf(id, sourceId)),
    onSuccess: changed,
  });
}
