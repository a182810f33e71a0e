import {
  BotIdParamsSchema,
  BotImageBodySchema,
  BotImageSchema,
  BotListQuerySchema,
  BotListSchema,
  BotOriginListSchema,
  BotSchema,
  CreateBotBodySchema,
  DuplicateBotBodySchema,
  ErrorBodySchema,
  NoQuerySchema,
  UpdateBotBodySchema,
} from '@omnibot/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/audit';
import { badRequest } from '../../lib/errors';
import { type Identity, requirePrincipal } from '../auth/principal';
import type { FilesHandle } from '../files/files.module';
import { isWidgetImageType } from '../files/files.routes';
import { getFile } from '../files/files.service';
import { listBotOrigins } from './bot-origins';
import { presentBot } from './bots.presenter';
import {
  type BotSecrets,
  type BotsDeps,
  createBot,
  deleteBot,
  duplicateBot,
  getBot,
  listBots,
  updateBot,
} from './bots.service';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
};
const tags = ['bots'];

/** Bots under /v1/bots, each tenant seeing only its own. */
export async function botRoutes(
  app: FastifyInstance,
  deps: { identity: Identity; botSecrets: BotSecrets; files: FilesHandle },
) {
  const { db } = deps.identity;
  const ctx: BotsDeps = { db, secrets: deps.botSecrets };
  const signedIn = [requirePrincipal(deps.identity, { credentials: true })];

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/v1/bots',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: "The organisation's bots, by name (secrets masked)",
          querystring: BotListQuerySchema,
          response: { 200: BotListSchema, ...errors },
        },
      },
      async (request) => {
        const { items, total } = await listBots(ctx, actorOf(request).principal, request.query);
        return {
          items: items.map(presentBot),
          total,
          page: request.query.page,
          page_size: request.query.page_size,
        };
      },
    );

    r.post(
      '/v1/bots',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: 'Create a bot; configuration groups left out take their defaults',
          querystring: NoQuerySchema,
          body: CreateBotBodySchema,
          response: { 201: BotSchema, ...errors },
        },
      },
      async (request, reply) => {
        const created = await createBot(ctx, actorOf(request), request.body);
        return reply.status(201).send(presentBot(created));
      },
    );

    r.get(
      '/v1/bots/:id',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: 'One bot (secrets masked)',
          params: BotIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: BotSchema, ...errors },
        },
      },
      async (request) => presentBot(await getBot(ctx, actorOf(request).principal, request.params.id)),
    );

    r.patch(
      '/v1/bots/:id',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary:
            'Change a bot; configuration groups are merged field by field, a secret sent back masked is kept',
          params: BotIdParamsSchema,
          querystring: NoQuerySchema,
          body: UpdateBotBodySchema,
          response: { 200: BotSchema, ...errors },
        },
      },
      async (request) => presentBot(await updateBot(ctx, actorOf(request), request.params.id, request.body)),
    );

    r.delete(
      '/v1/bots/:id',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: 'Delete a bot',
          params: BotIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await deleteBot(ctx, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    r.post(
      '/v1/bots/:id/duplicate',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: 'Copy a bot (its secrets included) under a new name; the copy starts disabled',
          params: BotIdParamsSchema,
          querystring: NoQuerySchema,
          body: DuplicateBotBodySchema,
          response: { 201: BotSchema, ...errors },
        },
      },
      async (request, reply) => {
        const copy = await duplicateBot(ctx, actorOf(request), request.params.id, request.body.name);
        return reply.status(201).send(presentBot(copy));
      },
    );

    r.get(
      '/v1/bots/:id/origins',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary:
            'The host-page origins that used a bot in the last 30 days, most recent first (at most 100)',
          params: BotIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: BotOriginListSchema, ...errors },
        },
      },
      async (request) => ({
        items: await listBotOrigins(db, actorOf(request).principal, request.params.id),
      }),
    );

    r.post(
      '/v1/bots/:id/images',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary:
            "A permanent link for the bot's widget to an image or sound of the organisation's storage (avatar, icons, tone)",
          params: BotIdParamsSchema,
          querystring: NoQuerySchema,
          body: BotImageBodySchema,
          response: { 200: BotImageSchema, ...errors },
        },
      },
      async (request) => {
        const { principal } = actorOf(request);
        const bot = await getBot(ctx, principal, request.params.id);
        const file = await getFile({ db }, principal.tenantId, request.body.path);
        if (!isWidgetImageType(file.contentType)) {
          throw badRequest('Only an image or a sound can be shown in the widget.', 'bot/not-an-image');
        }
        return { url: deps.files.widgetImages.link(bot.row.id, file.path) };
      },
    );
  });
}
