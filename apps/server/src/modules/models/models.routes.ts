import {
  AvailableModelListSchema,
  AvailableModelsQuerySchema,
  CreateModelBodySchema,
  ErrorBodySchema,
  ModelIdParamsSchema,
  ModelListSchema,
  ModelSchema,
  ModelTestResultSchema,
  NoQuerySchema,
  UpdateModelBodySchema,
} from '@omnibot/contracts';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/audit';
import { requireFeatureCaller } from '../auth/feature-guard';
import type { Identity } from '../auth/principal';
import { presentAvailableModel, presentModel } from './models.presenter';
import {
  assertCanManageModels,
  availableModels,
  createModel,
  deleteModel,
  getModel,
  listModels,
  type ModelsDeps,
  testModel,
  updateModel,
} from './models.service';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
};
const tags = ['models'];

/** Model connections under /v1/models: managed by masters of level 1 or 2, offered to the tenants they share with. */
export async function modelRoutes(app: FastifyInstance, deps: { identity: Identity; models: ModelsDeps }) {
  const ctx = deps.models;
  const signedIn = requireFeatureCaller(deps.identity, 'omnirag');
  const manager: onRequestHookHandler[] = [
    ...signedIn,
    async (request) => assertCanManageModels(actorOf(request).principal),
  ];

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/v1/models',
      {
        onRequest: manager,
        schema: {
          tags,
          summary: "The organisation's model connections (API keys masked)",
          querystring: NoQuerySchema,
          response: { 200: ModelListSchema, ...errors },
        },
      },
      async (request) => ({ items: (await listModels(ctx, actorOf(request).principal)).map(presentModel) }),
    );

    r.get(
      '/v1/models/available',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary:
            "The models offered to the caller's organisation, to pick one in an index or a RAG (no keys)",
          querystring: AvailableModelsQuerySchema,
          response: { 200: AvailableModelListSchema, ...errors },
        },
      },
      async (request) => ({
        items: (await availableModels(ctx, actorOf(request).principal, request.query.kind)).map(
          presentAvailableModel,
        ),
      }),
    );

    r.post(
      '/v1/models',
      {
        onRequest: manager,
        schema: {
          tags,
          summary: 'Connect a chat or embedding model on an OpenAI-compatible endpoint',
          querystring: NoQuerySchema,
          body: CreateModelBodySchema,
          response: { 201: ModelSchema, ...errors },
        },
      },
      async (request, reply) => {
        const created = await createModel(ctx, actorOf(request), request.body);
        return reply.status(201).send(presentModel(created));
      },
    );

    r.get(
      '/v1/models/:id',
      {
        onRequest: manager,
        schema: {
          tags,
          summary: 'One model connection (API key masked)',
          params: ModelIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: ModelSchema, ...errors },
        },
      },
      async (request) => presentModel(await getModel(ctx, actorOf(request).principal, request.params.id)),
    );

    r.patch(
      '/v1/models/:id',
      {
        onRequest: manager,
        schema: {
          tags,
          summary: 'Change a model connection; `api_key: null` removes the key, no `api_key` keeps it',
          params: ModelIdParamsSchema,
          querystring: NoQuerySchema,
          body: UpdateModelBodySchema,
          response: { 200: ModelSchema, ...errors },
        },
      },
      async (request) =>
        presentModel(await updateModel(ctx, actorOf(request), request.params.id, request.body)),
    );

    r.delete(
      '/v1/models/:id',
      {
        onRequest: manager,
        schema: {
          tags,
          summary: 'Delete a model connection',
          params: ModelIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await deleteModel(ctx, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    r.post(
      '/v1/models/:id/test',
      {
        onRequest: manager,
        schema: {
          tags,
          summary: "Test the connection with a tiny real call; the provider's failure in plain words",
          params: ModelIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: ModelTestResultSchema, ...errors },
        },
      },
      async (request) => testModel(ctx, actorOf(request).principal, request.params.id),
    );
  });
}
