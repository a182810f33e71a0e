import {
  CreateSubscriptionBodySchema,
  SubscriptionListSchema,
  SubscriptionLookupSchema,
  SubscriptionResultSchema,
  UpdateSubscriptionBodySchema,
  NoQuerySchema,
} from '@omnibot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/audit';
import { principalOf } from '../../lib/principal';
import { presentSubscription } from './accounts.presenter';
import { type AccountRouteOptions, TAGS, TenantParamsSchema } from './route-kit';
import {
  createSubscription,
  findSubscription,
  listSubscriptions,
  updateSubscription,
} from './subscriptions.service';

const SubscriptionParamsSchema = TenantParamsSchema.extend({ id: z.uuid() });

export const subscriptionRoutes: FastifyPluginAsyncZod<AccountRouteOptions> = async (app, { ctx, guard }) => {
  const { db } = ctx;

  app.get(
    '/v1/Account/:tenant_id/Subscription',
    {
      onRequest: guard,
      schema: {
        tags: TAGS,
        summary: "The tenant's subscriptions ({ code: 404 } when none)",
        params: TenantParamsSchema,
        querystring: NoQuerySchema,
        response: { 200: SubscriptionListSchema },
      },
    },
    async (request) => {
      const rows = await listSubscriptions(db, principalOf(request), request.params.tenant_id);
      if (rows.length === 0) return { code: 404 as const, message: 'No subscription' };
      return { code: 200 as const, items: rows.map(presentSubscription) };
    },
  );

  app.get(
    '/v1/Account/:tenant_id/Subscription/:id',
    {
      onRequest: guard,
      schema: {
        tags: TAGS,
        summary: 'One subscription',
        params: SubscriptionParamsSchema,
        querystring: NoQuerySchema,
        response: { 200: SubscriptionLookupSchema },
      },
    },
    async (request) => {
      const { tenant_id, id } = request.params;
      const row = await findSubscription(db, principalOf(request), tenant_id, id);
      if (!row) return { code: 404 as const, message: 'Subscription not found' };
      return { code: 200 as const, subscription: presentSubscription(row) };
    },
  );

  app.post(
    '/v1/Account/:tenant_id/Subscription',
    {
      onRequest: guard,
      schema: {
        tags: TAGS,
        summary: "Give a descendant tenant a code its parent holds (never the caller's own tenant)",
        params: TenantParamsSchema,
        querystring: NoQuerySchema,
        body: CreateSubscriptionBodySchema,
        response: { 201: SubscriptionResultSchema },
      },
    },
    async (request, reply) => {
      const row = await createSubscription(ctx, actorOf(request), request.params.tenant_id, request.body);
      return reply.status(201).send({ code: 201 as const, subscription: presentSubscription(row) });
    },
  );

  app.put(
    '/v1/Account/:tenant_id/Subscription/:id',
    {
      onRequest: guard,
      schema: {
        tags: TAGS,
        summary: 'Activate or revoke a subscription and set its period (revoking cascades to descendants)',
        params: SubscriptionParamsSchema,
        querystring: NoQuerySchema,
        body: UpdateSubscriptionBodySchema,
        response: { 200: SubscriptionResultSchema },
      },
    },
    async (request) => {
      const { tenant_id, id } = request.params;
      const row = await updateSubscription(ctx, actorOf(request), tenant_id, id, request.body);
      return { code: 200 as const, subscription: presentSubscription(row) };
    },
  );
};
