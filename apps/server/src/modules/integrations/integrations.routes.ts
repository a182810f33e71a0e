import {
  CreateIntegrationBodySchema,
  ErrorBodySchema,
  IntegrationIdParamsSchema,
  IntegrationListQuerySchema,
  IntegrationListSchema,
  IntegrationSchema,
  IntegrationTestResultSchema,
  NoQuerySchema,
  TestIntegrationBodySchema,
  UpdateIntegrationBodySchema,
} from '@omnibot/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/audit';
import { requirePrincipal } from '../auth/principal';
import type { Identity } from '../auth/principal';
import type { ContactCentreDeps } from './contact-centre.service';
import { presentIntegration } from './integrations.presenter';
import {
  createIntegration,
  deleteIntegration,
  getIntegration,
  type IntegrationsDeps,
  listIntegrations,
  testIntegration,
  testUnsavedIntegration,
  updateIntegration,
} from './integrations.service';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
};
const tags = ['integrations'];

/**
 * Integrations under /v1/integrations, each tenant seeing only its own: chatbot engines (builtin, openai) and
 * contact centres (genesys, connect).
 */
export async function integrationRoutes(
  app: FastifyInstance,
  deps: {
    identity: Identity;
    models: Omit<IntegrationsDeps, 'contactCentre'>;
    contactCentre: ContactCentreDeps;
    testTimeoutMs?: number;
  },
) {
  const ctx: IntegrationsDeps = { ...deps.models, contactCentre: deps.contactCentre };
  const signedIn = [requirePrincipal(deps.identity, { credentials: true })];
  const boxes = { models: ctx.secretBox, contactCentre: ctx.contactCentre.secretBox };
  const present = (stored: Parameters<typeof presentIntegration>[1]) => presentIntegration(boxes, stored);

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/v1/integrations',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary:
            "The organisation's integrations by name, optionally of one kind (chatbot, ccaas) or engine (secrets masked)",
          querystring: IntegrationListQuerySchema,
          response: { 200: IntegrationListSchema, ...errors },
        },
      },
      async (request) => ({
        items: (await listIntegrations(ctx, actorOf(request).principal, request.query)).map(present),
      }),
    );

    r.post(
      '/v1/integrations',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary:
            'Create an integration: a chatbot engine (builtin over a RAG, an OpenAI-compatible endpoint) or a contact centre (Genesys Cloud, Amazon Connect)',
          querystring: NoQuerySchema,
          body: CreateIntegrationBodySchema,
          response: { 201: IntegrationSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(present(await createIntegration(ctx, actorOf(request), request.body))),
    );

    r.post(
      '/v1/integrations/test',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: 'Try settings before saving them; the provider refusal in plain words',
          querystring: NoQuerySchema,
          body: TestIntegrationBodySchema,
          response: { 200: IntegrationTestResultSchema, ...errors },
        },
      },
      async (request) =>
        testUnsavedIntegration(ctx, actorOf(request).principal, request.body, deps.testTimeoutMs),
    );

    r.get(
      '/v1/integrations/:id',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: 'One integration with the bots that use it (secrets masked)',
          params: IntegrationIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: IntegrationSchema, ...errors },
        },
      },
      async (request) => present(await getIntegration(ctx, actorOf(request).principal, request.params.id)),
    );

    r.patch(
      '/v1/integrations/:id',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: 'Rename an integration or change its settings; a secret sent back masked is kept',
          params: IntegrationIdParamsSchema,
          querystring: NoQuerySchema,
          body: UpdateIntegrationBodySchema,
          response: { 200: IntegrationSchema, ...errors },
        },
      },
      async (request) =>
        present(await updateIntegration(ctx, actorOf(request), request.params.id, request.body)),
    );

    r.delete(
      '/v1/integrations/:id',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: 'Delete an integration no bot uses',
          params: IntegrationIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await deleteIntegration(ctx, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    r.post(
      '/v1/integrations/:id/test',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary:
            'Try a saved integration: a tiny chat call, the RAG and its index, or the contact centre; failures in plain words',
          params: IntegrationIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: IntegrationTestResultSchema, ...errors },
        },
      },
      async (request) =>
        testIntegration(ctx, actorOf(request).principal, request.params.id, deps.testTimeoutMs),
    );
  });
}
