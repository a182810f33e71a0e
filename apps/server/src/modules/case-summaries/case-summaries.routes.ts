import {
  CaseSummaryConfigIdParamsSchema,
  CaseSummaryConfigListSchema,
  CaseSummaryConfigSchema,
  CreateCaseSummaryConfigBodySchema,
  ErrorBodySchema,
  NoQuerySchema,
  UpdateCaseSummaryConfigBodySchema,
} from '@omnibot/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/audit';
import { requireFeatureCaller } from '../auth/feature-guard';
import type { Identity } from '../auth/principal';
import { presentCaseSummaryConfig } from './case-summaries.presenter';
import {
  createCaseSummaryConfig,
  deleteCaseSummaryConfig,
  getCaseSummaryConfig,
  listCaseSummaryConfigs,
  updateCaseSummaryConfig,
} from './case-summary-configs.service';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
};
const tags = ['case-summaries'];

/**
 * Case-summary configurations under /v1/case-summary-configs, for tenants holding `casesummary`: each tenant sees
 * only its own; agents read them.
 */
export async function caseSummaryRoutes(app: FastifyInstance, deps: { identity: Identity }) {
  const { db } = deps.identity;
  const signedIn = requireFeatureCaller(deps.identity, 'casesummary');

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/v1/case-summary-configs',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: "The organisation's case-summary configurations, by name",
          querystring: NoQuerySchema,
          response: { 200: CaseSummaryConfigListSchema, ...errors },
        },
      },
      async (request) => ({
        items: (await listCaseSummaryConfigs(db, actorOf(request).principal)).map(presentCaseSummaryConfig),
      }),
    );

    r.post(
      '/v1/case-summary-configs',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'Create a case-summary configuration for some of the organisation’s bots',
          querystring: NoQuerySchema,
          body: CreateCaseSummaryConfigBodySchema,
          response: { 201: CaseSummaryConfigSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(presentCaseSummaryConfig(await createCaseSummaryConfig(db, actorOf(request), request.body))),
    );

    r.get(
      '/v1/case-summary-configs/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'One case-summary configuration',
          params: CaseSummaryConfigIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: CaseSummaryConfigSchema, ...errors },
        },
      },
      async (request) =>
        presentCaseSummaryConfig(
          await getCaseSummaryConfig(db, actorOf(request).principal, request.params.id),
        ),
    );

    r.patch(
      '/v1/case-summary-configs/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary:
            'Change a case-summary configuration; `bot_ids` replaces its bots, `model_id: null` makes it extractive',
          params: CaseSummaryConfigIdParamsSchema,
          querystring: NoQuerySchema,
          body: UpdateCaseSummaryConfigBodySchema,
          response: { 200: CaseSummaryConfigSchema, ...errors },
        },
      },
      async (request) =>
        presentCaseSummaryConfig(
          await updateCaseSummaryConfig(db, actorOf(request), request.params.id, request.body),
        ),
    );

    r.delete(
      '/v1/case-summary-configs/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary:
            'Delete a case-summary configuration (summaries already written stay with their conversations)',
          params: CaseSummaryConfigIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await deleteCaseSummaryConfig(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  });
}
