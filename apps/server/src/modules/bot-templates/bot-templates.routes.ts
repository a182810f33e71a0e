import {
  BotSchema,
  BotTemplateIdParamsSchema,
  BotTemplateListSchema,
  BotTemplateSchema,
  CreateBotFromTemplateBodySchema,
  CreateBotTemplateBodySchema,
  ErrorBodySchema,
  NoQuerySchema,
  UpdateBotTemplateBodySchema,
} from '@omnibot/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/audit';
import { type Identity, requirePrincipal } from '../auth/principal';
import type { BotSecrets } from '../bots/bots.service';
import { presentBot } from '../bots/bots.presenter';
import type { BotsDeps } from '../bots/bots.service';
import { presentBotTemplate } from './bot-templates.presenter';
import {
  createBotFromTemplate,
  createBotTemplate,
  deleteBotTemplate,
  getBotTemplate,
  listBotTemplates,
  updateBotTemplate,
} from './bot-templates.service';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
};
const tags = ['bot-templates'];

/** Bot templates under /v1/bot-templates (each tenant seeing only its own), and bots made from them. */
export async function botTemplateRoutes(
  app: FastifyInstance,
  deps: { identity: Identity; botSecrets: BotSecrets },
) {
  const { db } = deps.identity;
  const ctx: BotsDeps = { db, secrets: deps.botSecrets };
  const signedIn = [requirePrincipal(deps.identity, { credentials: true })];

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/v1/bot-templates',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: "The organisation's bot templates, by name",
          querystring: NoQuerySchema,
          response: { 200: BotTemplateListSchema, ...errors },
        },
      },
      async (request) => ({
        items: (await listBotTemplates(ctx, actorOf(request).principal)).map(presentBotTemplate),
      }),
    );

    r.post(
      '/v1/bot-templates',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: "Save a bot's appearance and texts as a template",
          querystring: NoQuerySchema,
          body: CreateBotTemplateBodySchema,
          response: { 201: BotTemplateSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(presentBotTemplate(await createBotTemplate(ctx, actorOf(request), request.body))),
    );

    r.get(
      '/v1/bot-templates/:id',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: 'One bot template',
          params: BotTemplateIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: BotTemplateSchema, ...errors },
        },
      },
      async (request) =>
        presentBotTemplate(await getBotTemplate(ctx, actorOf(request).principal, request.params.id)),
    );

    r.patch(
      '/v1/bot-templates/:id',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: 'Rename a template or change its description',
          params: BotTemplateIdParamsSchema,
          querystring: NoQuerySchema,
          body: UpdateBotTemplateBodySchema,
          response: { 200: BotTemplateSchema, ...errors },
        },
      },
      async (request) =>
        presentBotTemplate(await updateBotTemplate(ctx, actorOf(request), request.params.id, request.body)),
    );

    r.delete(
      '/v1/bot-templates/:id',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: 'Delete a template (bots made from it stay as they are)',
          params: BotTemplateIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await deleteBotTemplate(ctx, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    r.post(
      '/v1/bot-templates/:id/bots',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: "Create a bot with the template's appearance and texts (default engines)",
          params: BotTemplateIdParamsSchema,
          querystring: NoQuerySchema,
          body: CreateBotFromTemplateBodySchema,
          response: { 201: BotSchema, ...errors },
        },
      },
      async (request, reply) => {
        const bot = await createBotFromTemplate(ctx, actorOf(request), request.params.id, request.body.name);
        return reply.status(201).send(presentBot(bot));
      },
    );
  });
}
