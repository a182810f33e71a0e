import {
  ErrorBodySchema,
  NoQuerySchema,
  PublicWidgetConfigSchema,
  publicWidgetConfig,
  WidgetBotParamsSchema,
} from '@omnibot/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import { tenantObjectKey } from '../../storage/path';
import { widgetImagePath } from '../../storage/url-signer';
import { contentDisposition } from '../../storage/driver';
import { botEtag, servableBot } from '../bots/bots.service';
import type { FilesHandle } from '../files/files.module';
import { fileSecurityHeaders, isInlineType } from '../files/files.presenter';
import { isWidgetImageType } from '../files/files.routes';
import { getFile } from '../files/files.service';
import { widgetServices } from '../speech/speech.service';
import { handoverHours } from './handover-hours';
import type { WidgetAccess } from './widget-access';

/** Browsers and shared caches may keep the public configuration briefly, and must revalidate it after that. */
export const WIDGET_CONFIG_CACHE_CONTROL = 'public, max-age=60, must-revalidate';

const CONFIG_MAX_AGE_SECONDS = 60;

/** The cache lifetime of a public configuration: a minute at most, and never past the next change of hours. */
export function configCacheControl(nextChange: string | null, now: Date): string {
  if (nextChange === null) return WIDGET_CONFIG_CACHE_CONTROL;
  const seconds = Math.floor((new Date(nextChange).getTime() - now.getTime()) / 1000);
  if (seconds >= CONFIG_MAX_AGE_SECONDS) return WIDGET_CONFIG_CACHE_CONTROL;
  return `public, max-age=${String(Math.max(0, seconds))}, must-revalidate`;
}

/** Whether an If-None-Match header names `etag` (or is `*`). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header
    .split(',')
    .map((part) => part.trim().replace(/^W\//, ''))
    .some((part) => part === '*' || part === etag);
}

const WidgetImageQuerySchema = z.strictObject({
  path: z.string().min(1).max(1024),
  signature: z.string().min(1).max(128),
});

/** What a widget reads before its first message: the bot's public configuration and the images it shows. */
export async function widgetConfigRoutes(
  app: FastifyInstance,
  deps: { db: Db; access: WidgetAccess; files: FilesHandle },
) {
  const { db, access, files } = deps;

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/v1/widget/:botId/config',
      {
        schema: {
          tags: ['widget'],
          summary:
            "A bot's public widget configuration (no auth); ETag and If-None-Match, CORS only for the bot's allowed origins",
          params: WidgetBotParamsSchema,
          querystring: NoQuerySchema,
          response: {
            200: PublicWidgetConfigSchema,
            304: z.null(),
            404: ErrorBodySchema,
            400: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const bot = await access.resolveWidgetBot(request.params.botId);
        const { row, config } = bot;
        access.applyWidgetCors(request, reply, config);
        const now = new Date();
        const hours = await handoverHours(db, bot, now);
        // Whether a person is offered changes with the business hours: it is part of the ETag, and no cache keeps
        // the configuration past the next opening or closing.
        const etag = hours.inHours ? botEtag(row) : botEtag(row).replace(/"$/u, '-offline"');
        reply.header('etag', etag).header('cache-control', configCacheControl(hours.nextChange, now));
        if (matchesEtag(request.headers['if-none-match'], etag)) {
          return (reply as unknown as FastifyReply).status(304).send();
        }
        return publicWidgetConfig(config, widgetServices(config), hours.inHours);
      },
    );

    r.get(
      widgetImagePath(':botId'),
      {
        schema: {
          tags: ['widget'],
          summary: "An image or sound a bot's widget shows, through a permanent signed link (no session)",
          params: z.object({ botId: z.string() }),
          querystring: WidgetImageQuerySchema,
          response: {
            200: z.unknown(),
            304: z.null(),
            400: ErrorBodySchema,
            403: ErrorBodySchema,
            404: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const { botId } = request.params;
        const { path, signature } = request.query;
        if (!files.widgetImages.verify(botId, path, signature)) {
          throw new AppError(403, 'storage/unauthorized', 'This image link is not valid.');
        }
        // Served only while the bot is: a disabled bot or organisation shows nothing.
        const bot = await servableBot(db, botId);
        if (!bot) throw new AppError(404, 'storage/object-not-found', 'This image is not available.');
        const file = await getFile({ db }, bot.tenantId, path);
        if (!isWidgetImageType(file.contentType)) {
          throw new AppError(404, 'storage/object-not-found', 'This image is not available.');
        }
        const inline = isInlineType(file.contentType);
        const etag = `"${file.sha256}"`;
        fileSecurityHeaders(reply, file.contentType, inline);
        // Host pages on other sites show these (the launcher icon); an SVG in an img element runs nothing.
        reply.header('cross-origin-resource-policy', 'cross-origin');
        reply.header('etag', etag).header('cache-control', 'public, max-age=300, must-revalidate');
        if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
        const object = await files.storage.driver.get(tenantObjectKey(file.tenantId, file.path));
        return reply
          .header('content-type', file.contentType)
          .header('content-length', file.size)
          .header('content-disposition', contentDisposition(inline, file.name))
          .send(object.stream);
      },
    );
  });
}
