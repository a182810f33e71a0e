import {
  BulkCreateSourcesBodySchema,
  BulkSourcesResultSchema,
  bulkSourcesProblem,
  ChunkListQuerySchema,
  CreateKnowledgeBodySchema,
  CreateSourceBodySchema,
  ErrorBodySchema,
  KnowledgeBaseListSchema,
  KnowledgeBaseSchema,
  KnowledgeChunkListSchema,
  KnowledgeIdParamsSchema,
  KnowledgeListQuerySchema,
  KnowledgeSourceListSchema,
  KnowledgeSourceSchema,
  NoQuerySchema,
  SourceParamsSchema,
  SourceSyncScheduleSchema,
  UpdateKnowledgeBodySchema,
} from '@omnibot/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/audit';
import { badRequest } from '../../lib/errors';
import { requireFeatureCaller } from '../auth/feature-guard';
import type { Identity } from '../auth/principal';
import { presentKnowledge, presentSource } from './knowledge.presenter';
import {
  createKnowledge,
  createSource,
  createSources,
  deleteKnowledge,
  deleteSource,
  getKnowledge,
  getSource,
  type KnowledgeDeps,
  listChunks,
  listKnowledge,
  listSources,
  resyncSource,
  setSourceSync,
  updateKnowledge,
} from './knowledge.service';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
};
const tags = ['knowledge'];
const BULK_BODY_LIMIT = 16 * 1024 * 1024;

/** Knowledge bases and their sources under /v1/knowledge, each tenant seeing only its own. */
export async function knowledgeRoutes(
  app: FastifyInstance,
  { identity, ...rest }: Omit<KnowledgeDeps, 'db'> & { identity: Identity },
) {
  const { db } = identity;
  const deps: KnowledgeDeps = { db, ...rest };
  const signedIn = requireFeatureCaller(identity, 'omnirag');

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/v1/knowledge',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: "The organisation's knowledge bases, by name",
          querystring: KnowledgeListQuerySchema,
          response: { 200: KnowledgeBaseListSchema, ...errors },
        },
      },
      async (request) => {
        const { rows, total } = await listKnowledge(db, actorOf(request).principal, request.query);
        return {
          items: rows.map(presentKnowledge),
          total,
          page: request.query.page,
          page_size: request.query.page_size,
        };
      },
    );

    r.post(
      '/v1/knowledge',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'Create a knowledge base; chunking defaults to 350 words with 0.15 overlap',
          querystring: NoQuerySchema,
          body: CreateKnowledgeBodySchema,
          response: { 201: KnowledgeBaseSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(presentKnowledge(await createKnowledge(db, actorOf(request), request.body))),
    );

    r.get(
      '/v1/knowledge/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'One knowledge base',
          params: KnowledgeIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: KnowledgeBaseSchema, ...errors },
        },
      },
      async (request) =>
        presentKnowledge(await getKnowledge(db, actorOf(request).principal, request.params.id)),
    );

    r.patch(
      '/v1/knowledge/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'Rename a knowledge base or change its language or chunking (applied at the next sync)',
          params: KnowledgeIdParamsSchema,
          querystring: NoQuerySchema,
          body: UpdateKnowledgeBodySchema,
          response: { 200: KnowledgeBaseSchema, ...errors },
        },
      },
      async (request) =>
        presentKnowledge(await updateKnowledge(db, actorOf(request), request.params.id, request.body)),
    );

    r.delete(
      '/v1/knowledge/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'Delete a knowledge base with all its sources and chunks',
          params: KnowledgeIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await deleteKnowledge(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    r.post(
      '/v1/knowledge/:id/sources',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'Add a source (text, Q&A pair, stored file or web page); it is read in the background',
          params: KnowledgeIdParamsSchema,
          querystring: NoQuerySchema,
          body: CreateSourceBodySchema,
          response: { 201: KnowledgeSourceSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            presentSource(
              await createSource(deps, actorOf(request), request.params.id, request.body),
              request.principal,
            ),
          ),
    );

    r.post(
      '/v1/knowledge/:id/sources/bulk',
      {
        onRequest: signedIn,
        // Up to 500 Q&A pairs of full length; the usual limit is 1 MiB.
        bodyLimit: BULK_BODY_LIMIT,
        // Checked before the schema so that a refusal names the item ("Item 3: ...") instead of a JSON path.
        preValidation: async (request) => {
          const problem = bulkSourcesProblem(request.body);
          if (problem) throw badRequest(problem);
        },
        schema: {
          tags,
          summary: 'Add up to 500 sources at once, all or none; each is read in the background',
          params: KnowledgeIdParamsSchema,
          querystring: NoQuerySchema,
          body: BulkCreateSourcesBodySchema,
          response: { 201: BulkSourcesResultSchema, ...errors },
        },
      },
      async (request, reply) => {
        const rows = await createSources(deps, actorOf(request), request.params.id, request.body.sources);
        return reply.status(201).send({ items: rows.map((row) => presentSource(row, request.principal)) });
      },
    );

    r.get(
      '/v1/knowledge/:id/sources',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: "A knowledge base's sources with their states, newest first",
          params: KnowledgeIdParamsSchema,
          querystring: KnowledgeListQuerySchema,
          response: { 200: KnowledgeSourceListSchema, ...errors },
        },
      },
      async (request) => {
        const { rows, total } = await listSources(
          db,
          actorOf(request).principal,
          request.params.id,
          request.query,
        );
        return {
          items: rows.map((row) => presentSource(row, request.principal)),
          total,
          page: request.query.page,
          page_size: request.query.page_size,
        };
      },
    );

    r.get(
      '/v1/knowledge/:id/sources/:sourceId',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'One source with its ingestion state',
          params: SourceParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: KnowledgeSourceSchema, ...errors },
        },
      },
      async (request) =>
        presentSource(
          await getSource(db, actorOf(request).principal, request.params.id, request.params.sourceId),
          request.principal,
        ),
    );

    r.delete(
      '/v1/knowledge/:id/sources/:sourceId',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'Delete a source with its chunks',
          params: SourceParamsSchema,
          querystring: NoQuerySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await deleteSource(db, actorOf(request), request.params.id, request.params.sourceId);
        return reply.status(204).send(null);
      },
    );

    r.post(
      '/v1/knowledge/:id/sources/:sourceId/resync',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary:
            'Sync a source now, as its schedule would: a web page is asked for conditionally (ETag, Last-Modified), and unchanged content is recognised by its hash and not re-indexed',
          params: SourceParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: KnowledgeSourceSchema, ...errors },
        },
      },
      async (request) =>
        presentSource(
          await resyncSource(deps, actorOf(request), request.params.id, request.params.sourceId),
          request.principal,
        ),
    );

    r.put(
      '/v1/knowledge/:id/sources/:sourceId/sync',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary:
            'Set when a web page or sitemap source is read again on its own: off, daily or weekly at a local time in an IANA time zone',
          params: SourceParamsSchema,
          querystring: NoQuerySchema,
          body: SourceSyncScheduleSchema,
          response: { 200: KnowledgeSourceSchema, ...errors },
        },
      },
      async (request) =>
        presentSource(
          await setSourceSync(db, actorOf(request), request.params.id, request.params.sourceId, request.body),
          request.principal,
        ),
    );

    r.get(
      '/v1/knowledge/:id/sources/:sourceId/chunks',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: "A source's chunks in reading order, with their heading path and page",
          params: SourceParamsSchema,
          querystring: ChunkListQuerySchema,
          response: { 200: KnowledgeChunkListSchema, ...errors },
        },
      },
      async (request) => {
        const { rows, total } = await listChunks(
          db,
          actorOf(request).principal,
          request.params.id,
          request.params.sourceId,
          request.query,
        );
        return {
          items: rows.map((row) => ({
            id: row.id,
            ordinal: row.ordinal,
            text: row.text,
            heading_path: row.headingPath,
            page: row.page,
          })),
          total,
          page: request.query.page,
          page_size: request.query.page_size,
        };
      },
    );
  });
}
