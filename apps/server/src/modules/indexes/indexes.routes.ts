import {
  CreateIndexBodySchema,
  ErrorBodySchema,
  IndexIdParamsSchema,
  IndexListQuerySchema,
  IndexListSchema,
  IndexSchema,
  NoQuerySchema,
  SearchIndexBodySchema,
  SearchResultSchema,
  UpdateIndexBodySchema,
} from '@omnibot/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/audit';
import { notFound } from '../../lib/errors';
import { requireFeatureCaller } from '../auth/feature-guard';
import type { Identity } from '../auth/principal';
import type { SourceLinks } from '../../storage/source-links';
import { presentIndex, presentSearch } from './indexes.presenter';
import {
  createIndex,
  deleteIndex,
  getIndex,
  INDEX_NOT_FOUND,
  type IndexesDeps,
  listIndexes,
  updateIndex,
} from './indexes.service';
import { searchIndex, type VectorSearchDeps } from './search';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
};
const tags = ['indexes'];

// The mode/model rule is checked by the service, so that it answers with its own code (index/embedding-model-required).
const CreateBodySchema = z.strictObject(CreateIndexBodySchema.shape);

/** Retrieval indexes under /v1/indexes, each tenant seeing only its own. */
export async function indexRoutes(
  app: FastifyInstance,
  deps: {
    identity: Identity;
    jobs: IndexesDeps['jobs'];
    /** What vector and hybrid search need (the database's pgvector included). */
    vectorSearch: VectorSearchDeps;
    sourceLinks: SourceLinks;
  },
) {
  const { db } = deps.identity;
  const ctx: IndexesDeps = { db, jobs: deps.jobs };
  const signedIn = requireFeatureCaller(deps.identity, 'omnirag');

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/v1/indexes',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: "The organisation's indexes, by name, with their embedding progress",
          querystring: IndexListQuerySchema,
          response: { 200: IndexListSchema, ...errors },
        },
      },
      async (request) => {
        const { items, total } = await listIndexes(db, actorOf(request).principal, request.query);
        return {
          items: items.map(presentIndex),
          total,
          page: request.query.page,
          page_size: request.query.page_size,
          vector_search: deps.vectorSearch.pgvector ? ('hnsw' as const) : ('exact' as const),
        };
      },
    );

    r.post(
      '/v1/indexes',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary:
            'Create an index over some knowledge bases; vector and hybrid ones embed in the background',
          querystring: NoQuerySchema,
          body: CreateBodySchema,
          response: { 201: IndexSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(presentIndex(await createIndex(ctx, actorOf(request), request.body))),
    );

    r.get(
      '/v1/indexes/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'One index with its embedding progress',
          params: IndexIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: IndexSchema, ...errors },
        },
      },
      async (request) => presentIndex(await getIndex(db, actorOf(request).principal, request.params.id)),
    );

    r.patch(
      '/v1/indexes/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'Change an index; a new model or new knowledge bases re-embed it in the background',
          params: IndexIdParamsSchema,
          querystring: NoQuerySchema,
          body: UpdateIndexBodySchema,
          response: { 200: IndexSchema, ...errors },
        },
      },
      async (request) =>
        presentIndex(await updateIndex(ctx, actorOf(request), request.params.id, request.body)),
    );

    r.delete(
      '/v1/indexes/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'Delete an index (its knowledge bases and their embeddings stay)',
          params: IndexIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await deleteIndex(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    r.post(
      '/v1/indexes/:id/search',
      {
        onRequest: signedIn,
        // A search only reads: agents look up answers for visitors.
        config: { allowAgent: true },
        schema: {
          tags,
          summary: "Search an index with its mode (keyword until a vector index's embeddings are ready)",
          params: IndexIdParamsSchema,
          querystring: NoQuerySchema,
          body: SearchIndexBodySchema,
          response: { 200: SearchResultSchema, ...errors },
        },
      },
      async (request) => {
        const { tenantId } = actorOf(request).principal;
        const result = await searchIndex(db, {
          tenantId,
          indexId: request.params.id,
          query: request.body.query,
          vector: deps.vectorSearch,
          ...(request.body.top_k === undefined ? {} : { topK: request.body.top_k }),
        });
        if (!result) throw notFound(INDEX_NOT_FOUND);
        return presentSearch(result, (raw) => deps.sourceLinks.present(tenantId, raw));
      },
    );
  });
}
