import { ErrorBodySchema, NoQuerySchema } from '@omnibot/contracts';
import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { WidgetAccess } from './widget-access';

/**
 * The CORS preflights (`OPTIONS`) of public widget routes: answered only for this server and the origins a servable
 * bot allows (the route itself then checks its own bot's list).
 */
export function widgetPreflights(
  scope: FastifyInstance,
  access: WidgetAccess,
  urls: readonly string[],
  config: FastifyContextConfig = {},
) {
  const r = scope.withTypeProvider<ZodTypeProvider>();
  for (const url of urls) {
    r.options(
      url,
      {
        config,
        schema: {
          tags: ['widget'],
          summary: 'CORS preflight: answered only for this server and the origins a bot allows',
          querystring: NoQuerySchema,
          response: { 204: z.null(), 400: ErrorBodySchema, 403: ErrorBodySchema, 429: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        await access.answerPreflight(request, reply);
        return reply;
      },
    );
  }
}
