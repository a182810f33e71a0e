import {
  type CreateIndexBody,
  type Index,
  IndexListSchema,
  IndexSchema,
  type SearchIndexBody,
  SearchResultSchema,
  type UpdateIndexBody,
} from '@omnibot/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Every index query key, so a change invalidates exactly what it touched. */
const indexKeys = {
  all: ['indexes'] as const,
  lists: () => [...indexKeys.all, 'list'] as const,
  detail: (id: string) => [...indexKeys.all, 'detail', id] as const,
};

/** How often an index is asked for again while its chunks are still being embedded. */
const EMBEDDING_POLL_MS = 2000;
/** The most indexes one page of the API holds; the console lists them in one go. */
const ALL = { page: 1, page_size: 100 };

const base = '/v1/indexes';
const of = (id: string) => `${base}/${encodeURIComponent(id)}`;

const indexesApi = {
  list: (signal?: AbortSignal) => api.get(base, { query: ALL, schema: IndexListSchema, signal }),
  get: (id: string, signal?: AbortSignal) => api.get(of(id), { schema: IndexSchema, signal }),
  create: (body: CreateIndexBody) => api.post(base, body, { schema: IndexSchema }),
  update: (id: string, body: UpdateIndexBody) => api.patch(of(id), body, { schema: IndexSchema }),
  search: (id: string, body: SearchIndexBody) =>
    api.post(`${of(id)}/search`, body, { schema: SearchResultSchema }),
};

/** Embedding is under way while the state is pending or embedding; the server changes it on its own. */
const isEmbedding = (index: Pick<Index, 'embedding'>) =>
  index.embedding.state === 'pending' || index.embedding.state === 'embedding';

/** The organisation's indexes, asked for again every 2 s while any of them is still embedding. */
export const useIndexes = () =>
  useQuery({
    queryKey: indexKeys.lists(),
    queryFn: ({ signal }) => indexesApi.list(signal),
    refetchInterval: (query) => (query.state.data?.items.some(isEmbedding) ? EMBEDDING_POLL_MS : false),
  });

/** One index, asked for again every 2 s while it is still embedding. */
export const useIndex = (id: string) =>
  useQuery({
    queryKey: indexKeys.detail(id),
    queryFn: ({ signal }) => indexesApi.get(id, signal),
    refetchInterval: (query) =>
      query.state.data && isEmbedding(query.state.data) ? EMBEDDING_POLL_MS : false,
  });

export function useCreateIndex() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: indexesApi.create,
    onSuccess: async (index: Index) => {
      queryClient.setQueryData(indexKeys.detail(index.id), index);
      await queryClient.invalidateQueries({ queryKey: indexKeys.lists() });
    },
  });
}

export function useUpdateIndex(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateIndexBody) => indexesApi.update(id, body),
    onSuccess: async (index: Index) => {
      queryClient.setQueryData(indexKeys.detail(index.id), index);
      await queryClient.invalidateQueries({ queryKey: indexKeys.lists() });
    },
  });
}

export function useDeleteIndex() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<undefined>(of(id)),
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ queryKey: indexKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: indexKeys.lists() });
    },
  });
}

/** A retrieval test: the hits the index returns for a query, ranked as a bot would get them. */
export const useSearchIndex = (id: string) =>
  useMutation({ mutationFn: (body: SearchIndexBody) => indexesApi.search(id, body) });

/** How this installation runs vector retrieval (hnsw or exact), from the list the index pages share. */
export const useVectorSearch = () =>
  useQuery({
    queryKey: indexKeys.lists(),
    queryFn: ({ signal }) => indexesApi.list(signal),
    select: (list) => list.vector_search,
  });
