import {
  ErrorBodySchema,
  LanguageBodySchema,
  LanguageReplySchema,
  NoQuerySchema,
  TtsBodySchema,
  WidgetBotParamsSchema,
  WidgetTextsQuerySchema,
  WidgetTextsReplySchema,
} from '@omnibot/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Env } from '../../env';
import { refuseLongText } from '../../lib/visitor-text';
import { type SpeechDeps, speakText, translateText } from '../speech/speech.service';
import { type WidgetAccess, widgetRateLimited } from './widget-access';
import { widgetPreflights } from './widget-preflight';
import { createWidgetTexts } from './widget-texts';

const tags = ['widget'];
const errors = {
  400: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  413: ErrorBodySchema,
  424: ErrorBodySchema,
  429: ErrorBodySchema,
  501: ErrorBodySchema,
};

/** Translation (`POST /v1/language`) and the server voice (`POST /v1/tts`) of the widget: public, per bot. */
export async function visitorSpeechRoutes(
  app: FastifyInstance,
  deps: { env: Env; access: WidgetAccess; speech: SpeechDeps },
) {
  const { env, access, speech: ctx } = deps;
  const widgetTextsFor = createWidgetTexts({ ...ctx, log: app.log });
  // Counted per client address in the database, so every server process shares one budget.
  const rateLimit = {
    max: env.WIDGET_SPEECH_RATE_LIMIT,
    timeWindow: 60_000,
    groupId: 'widget-speech',
    errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) =>
      widgetRateLimited(context.ttl),
  };

  /**
   * The servable bot of a request, its configuration opened, after the origin rule; a conversation token, when
   * sent, must be one of this bot's.
   */
  async function botOf(
    request: FastifyRequest,
    reply: FastifyReply,
    body: { botId: string; conversationToken?: string },
  ) {
    const bot = await access.resolveWidgetBot(body.botId);
    access.applyWidgetCors(request, reply, bot.config, { refuse: true });
    if (body.conversationToken !== undefined) await access.visitorConversation(bot, body.conversationToken);
    return bot;
  }

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    widgetPreflights(scope, access, ['/v1/language', '/v1/tts'], { rateLimit });

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
        const { row, config } = await botOf(request, reply, request.body);
        const target = request.body.target ?? null;
        const result = await translateText(ctx, row.tenantId, config, { text: request.body.text, target });
        return { detected: result.detected, text: result.text, target };
      },
    );

    r.get(
      '/v1/widget/:botId/texts',
      {
        config: { rateLimit },
        schema: {
          tags,
          summary:
            "The widget's own texts (welcome text, titles, buttons, menus) in a visitor's language, translated by the bot's translator while automatic translation is on (no auth)",
          params: WidgetBotParamsSchema,
          querystring: WidgetTextsQuerySchema,
          response: { 200: WidgetTextsReplySchema, ...errors },
        },
      },
      async (request, reply) => {
        const bot = await access.resolveWidgetBot(request.params.botId);
        access.applyWidgetCors(request, reply, bot.config, { refuse: true });
        const texts = await widgetTextsFor(bot, request.query.language);
        // The texts change with the configuration, which the widget reads at most a minute late too.
        void reply.header('cache-control', 'private, max-age=60');
        return texts;
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
        const { row, config } = await botOf(request, reply, request.body);
        const { audio, cached } = await speakText(ctx, row.tenantId, config, { text: request.body.text });
        return reply
          .type('audio/mpeg')
          .header('cache-control', 'no-store')
          .header('x-speech-cache', cached ? 'hit' : 'miss')
          .send(audio);
      },
    );
  });
}
