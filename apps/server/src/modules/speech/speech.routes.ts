import {
  ErrorBodySchema,
  LanguageBodySchema,
  LanguageReplySchema,
  NoQuerySchema,
  TtsBodySchema,
  VISITOR_TEXT_MAX,
} from '@omnibot/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loadAuthSecret } from '../../bootstrap';
import { rowsOf, type Db } from '../../db/client';
import { bots } from '../../db/schema';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import { createGuardedFetch } from '../../lib/guarded-http/guarded-fetch';
import { createSecretBox } from '../../lib/secret-box';
import { WIDGET_BOT_NOT_FOUND } from '../bots/bots.routes';
import { createBotSecrets, servableBot } from '../bots/bots.service';
import { tenantUsableSql } from '../tenancy/tenant-usable';
import { type SpeechDeps, speakText, translateText } from './speech.service';

const tags = ['widget'];
const errors = {
  400: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  413: ErrorBodySchema,
  429: ErrorBodySchema,
  501: ErrorBodySchema,
  502: ErrorBodySchema,
};

const botNotFound = () => new AppError(404, 'widget/bot-not-found', WIDGET_BOT_NOT_FOUND);
const originNotAllowed = () =>
  new AppError(403, 'widget/origin-not-allowed', 'This bot may not be used from this site.');

/**
 * The origin rule of the public widget routes, in one place so the shared widget access rule can replace it:
 * always `Vary: Origin`; a request without an Origin (not a browser page) or from this server's own origin passes;
 * one from an origin the bot lists in `install.allowedOrigins` passes with `Access-Control-Allow-Origin`; any
 * other is refused with 403 widget/origin-not-allowed before anything happens.
 */
export function assertWidgetOrigin(
  request: FastifyRequest,
  reply: FastifyReply,
  ownOrigin: string,
  allowedOrigins: readonly string[],
): void {
  reply.header('vary', 'Origin');
  const origin = request.headers.origin;
  if (origin === undefined || origin === ownOrigin) return;
  if (!allowedOrigins.includes(origin)) throw originNotAllowed();
  reply.header('access-control-allow-origin', origin);
}

/** Whether some servable bot lists `origin`: a preflight carries no body, so no bot id, to check it against. */
async function anyBotAllows(db: Db, origin: string): Promise<boolean> {
  const rows = rowsOf<{ found: number }>(
    await db.execute(sql`
      select 1 as found from ${bots}
      where ${bots.enabled}
        and ${bots.config}->'install'->'allowedOrigins' @> jsonb_build_array(${origin}::text)
        and ${tenantUsableSql(bots.tenantId)}
      limit 1`),
  );
  return rows.length > 0;
}

/** A text over the visitor limit is refused with 413 before the body's schema is checked. */
async function refuseLongText(request: FastifyRequest) {
  const body = request.body as { text?: unknown } | null | undefined;
  if (typeof body?.text === 'string' && body.text.length > VISITOR_TEXT_MAX) {
    throw new AppError(
      413,
      'widget/text-too-long',
      `The text is longer than ${VISITOR_TEXT_MAX} characters.`,
    );
  }
}

/** Translation (`POST /v1/language`) and the server voice (`POST /v1/tts`) of the widget: public, per bot. */
export async function speechRoutes(app: FastifyInstance, deps: { db: Db; env: Env }) {
  const { db, env } = deps;
  const installationSecret = await loadAuthSecret(db, env);
  const botSecrets = createBotSecrets(installationSecret);
  const ctx: SpeechDeps = {
    db,
    secretBox: createSecretBox(installationSecret, 'model-api-key'),
    fetch: createGuardedFetch({ allowAddresses: env.FETCH_ALLOW_ADDRESSES }),
    timeoutMs: env.RAG_MODEL_TIMEOUT_MS,
  };
  const ownOrigin = new URL(env.PUBLIC_URL).origin;
  // Counted per client address in the database, so every server process shares one budget.
  const rateLimit = {
    max: env.WIDGET_SPEECH_RATE_LIMIT,
    timeWindow: 60_000,
    groupId: 'widget-speech',
    errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) =>
      new AppError(429, 'widget/rate-limited', 'Too many requests; wait a moment and try again.', {
        'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))),
      }),
  };

  /** The servable bot of a request, its configuration opened, after the origin rule. */
  async function botOf(request: FastifyRequest, reply: FastifyReply, botId: string) {
    const row = await servableBot(db, botId);
    if (!row) throw botNotFound();
    const config = botSecrets.open(row.config);
    assertWidgetOrigin(request, reply, ownOrigin, config.install.allowedOrigins);
    return { row, config };
  }

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    for (const url of ['/v1/language', '/v1/tts']) {
      r.options(
        url,
        {
          config: { rateLimit },
          schema: {
            tags,
            summary: 'CORS preflight: answered for this server and origins a bot allows',
            querystring: NoQuerySchema,
            response: { 204: z.null(), 403: ErrorBodySchema, 429: ErrorBodySchema },
          },
        },
        async (request, reply) => {
          reply.header('vary', 'Origin');
          const origin = request.headers.origin;
          if (origin !== undefined && origin !== ownOrigin && !(await anyBotAllows(db, origin))) {
            throw originNotAllowed();
          }
          if (origin !== undefined) reply.header('access-control-allow-origin', origin);
          return reply
            .header('access-control-allow-methods', 'POST')
            .header('access-control-allow-headers', 'content-type')
            .header('access-control-max-age', '600')
            .status(204)
            .send(null);
        },
      );
    }

    r.post(
      '/v1/language',
      {
        config: { rateLimit },
        preValidation: refuseLongText,
        schema: {
          tags,
          summary:
            "Detect a visitor's language and, with a target, translate the text with the bot's translator (no auth)",
          querystring: NoQuerySchema,
          body: LanguageBodySchema,
          response: { 200: LanguageReplySchema, ...errors },
        },
      },
      async (request, reply) => {
        const { row, config } = await botOf(request, reply, request.body.botId);
        const target = request.body.target ?? null;
        const result = await translateText(ctx, row.tenantId, config, { text: request.body.text, target });
        return { detected: result.detected, text: result.text, target };
      },
    );

    r.post(
      '/v1/tts',
      {
        config: { rateLimit },
        preValidation: refuseLongText,
        schema: {
          tags,
          summary: "A text read aloud by the bot's server voice: audio/mpeg bytes (no auth)",
          querystring: NoQuerySchema,
          body: TtsBodySchema,
          response: { 200: z.any().describe('audio/mpeg'), ...errors },
        },
      },
      async (request, reply) => {
        const { row, config } = await botOf(request, reply, request.body.botId);
        const audio = await speakText(ctx, row.tenantId, config, { text: request.body.text });
        return reply.type('audio/mpeg').header('cache-control', 'no-store').send(audio);
      },
    );
  });
}
