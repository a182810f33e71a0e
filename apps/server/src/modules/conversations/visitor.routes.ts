import { PassThrough } from 'node:stream';
import {
  AUTH_MESSAGES,
  ErrorBodySchema,
  FeedbackBodySchema,
  IntentBodySchema,
  IntentReplySchema,
  type IntentStreamEvent,
  NoQuerySchema,
  VISITOR_TEXT_MAX,
  WIDGET_ERRORS,
  WidgetBotParamsSchema,
} from '@omnibot/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loadAuthSecret } from '../../bootstrap';
import type { Db } from '../../db/client';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import { createSecretBox } from '../../lib/secret-box';
import { engineFor } from '../bots/bot-engine';
import { autoTranslating } from '../speech/auto-translate';
import { createSpeechDeps } from '../speech/speech.service';
import type { AnswerDeps } from '../rag/rag-answer';
import {
  answerLanguageFor,
  conversationOf,
  conversationOrigin,
  historyOf,
  recordBotOrigin,
  recordFeedback,
  startTurn,
  storeTurn,
} from './visitor.service';
import { createGuardedWebFetch } from '../../lib/guarded-http/guarded-fetch';

const errors = {
  400: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  413: ErrorBodySchema,
  429: ErrorBodySchema,
};
const tags = ['widget'];
const NO_ORIGIN_MESSAGE = 'Only a web page can report where the widget was loaded (it names its Origin).';

/** One Server-Sent Event. */
const sse = (event: IntentStreamEvent, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

const wantsStream = (request: FastifyRequest) =>
  (request.headers.accept ?? '').toLowerCase().includes('text/event-stream');

/** A visitor text over the limit is 413 before the body schema answers a generic 400. */
export async function refuseLongText(request: FastifyRequest) {
  const body: unknown = request.body;
  if (body === null || typeof body !== 'object' || !('text' in body)) return;
  const { text } = body;
  if (typeof text === 'string' && text.length > VISITOR_TEXT_MAX) {
    throw new AppError(
      413,
      'widget/text-too-long',
      `${WIDGET_ERRORS['widget/text-too-long']} At most ${VISITOR_TEXT_MAX} characters.`,
    );
  }
}

/** The public routes a visitor's widget talks to: messages to a bot (`/v1/intent`) and feedback on its answers. */
export async function visitorRoutes(app: FastifyInstance, deps: { db: Db; env: Env }) {
  const { db, env } = deps;
  const secret = await loadAuthSecret(db, env);
  const access = app.widgetAccess;
  const { tokens } = access;
  const answerDeps: AnswerDeps = {
    db,
    secretBox: createSecretBox(secret, 'model-api-key'),
    modelFetch: createGuardedWebFetch({ allowAddresses: env.FETCH_ALLOW_ADDRESSES }),
    log: app.log,
    modelTimeoutMs: env.RAG_MODEL_TIMEOUT_MS,
    recorder: app.ragAnswers,
    sourceLinks: app.files.sourceLinks,
  };
  const speech = { ...createSpeechDeps(db, env, secret), log: app.log };

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    for (const url of ['/v1/intent', '/v1/feedback']) {
      r.options(
        url,
        {
          schema: {
            tags,
            summary: 'CORS preflight: answered only for this server and the origins a bot allows',
            querystring: NoQuerySchema,
            response: { 204: z.null(), 400: ErrorBodySchema, 403: ErrorBodySchema },
          },
        },
        async (request, reply) => {
          await access.answerPreflight(request, reply);
          return reply;
        },
      );
    }

    r.post(
      '/v1/intent',
      {
        // Counted before anything else, so malformed requests use up an address's budget too.
        onRequest: [(request) => access.limitAddress(request, 'intent')],
        preValidation: [refuseLongText],
        schema: {
          tags,
          summary:
            "A visitor's message to a bot and its answer: JSON, or with `Accept: text/event-stream` Server-Sent Events (`conversation`, `delta`…, `reset`, then `reply` or `error`)",
          querystring: NoQuerySchema,
          body: IntentBodySchema,
          response: { 200: IntentReplySchema, ...errors },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const bot = await access.resolveWidgetBot(body.botId);
        const seen = access.applyWidgetCors(request, reply, bot.config, { refuse: true });
        const conversation =
          body.conversationToken === undefined
            ? null
            : await conversationOf(db, tokens, bot, body.conversationToken);
        await access.limitVisitor(request, 'intent', conversation?.id ?? null);
        const turn = startTurn(tokens, {
          bot,
          conversation,
          text: body.text,
          language: answerLanguageFor(bot.config, body.language),
          origin: conversationOrigin(seen, body.hostOrigin, bot.config),
        });
        const history = conversation === null ? [] : await historyOf(db, conversation);
        const engine = autoTranslating(speech, engineFor(answerDeps, bot));
        const question = {
          tenantId: bot.row.tenantId,
          bot,
          text: turn.text,
          history,
          language: turn.language,
        };
        if (!wantsStream(request)) return storeTurn(db, turn, await engine.respond(question));

        const abort = new AbortController();
        // The response closing before it finished means the visitor went away: the engine stops, nothing is stored.
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) abort.abort();
        });
        const events = new PassThrough();
        // The response schema types the JSON answer; the event stream is a plain Node stream.
        void (reply as unknown as FastifyReply)
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('x-accel-buffering', 'no')
          .send(events);
        const write = (event: IntentStreamEvent, data: unknown) => {
          if (!abort.signal.aborted) events.write(sse(event, data));
        };
        write('conversation', {
          conversationToken: turn.conversationToken,
          visitorMessage: { id: turn.visitorMessageId, text: turn.text },
        });
        try {
          const answer = await engine.respond({
            ...question,
            signal: abort.signal,
            stream: { delta: (text) => write('delta', { text }), reset: () => write('reset', {}) },
          });
          if (!abort.signal.aborted) write('reply', await storeTurn(db, turn, answer));
        } catch (error) {
          request.log.error({ err: error }, 'streamed intent failed');
          write(
            'error',
            error instanceof AppError && error.statusCode < 500
              ? { code: error.code, message: error.message }
              : { code: 'internal', message: AUTH_MESSAGES.internal },
          );
        }
        events.end();
        return reply;
      },
    );

    r.post(
      '/v1/widget/:botId/sightings',
      {
        onRequest: [(request) => access.limitSightings(request)],
        schema: {
          tags,
          summary:
            'The loader names a site the bot is not allowed on (its Origin), so the install screen offers to allow it',
          params: WidgetBotParamsSchema,
          querystring: NoQuerySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const bot = await access.resolveWidgetBot(request.params.botId);
        // Only the browser names the page here: the loader posts without CORS, so the Origin header is its own.
        const { origin, own } = access.namedOrigin(request);
        if (origin === null) throw new AppError(400, 'widget/no-origin', NO_ORIGIN_MESSAGE);
        if (!own) await recordBotOrigin(db, { tenantId: bot.row.tenantId, botId: bot.row.id, origin });
        // The report comes from another site without CORS: its empty answer is not an error in that page's console.
        return reply.status(204).header('cross-origin-resource-policy', 'cross-origin').send(null);
      },
    );

    r.post(
      '/v1/feedback',
      {
        onRequest: [(request) => access.limitAddress(request, 'feedback')],
        schema: {
          tags,
          summary:
            "A visitor's rating of a bot message of their own conversation (a later rating replaces it)",
          querystring: NoQuerySchema,
          body: FeedbackBodySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const bot = await access.resolveWidgetBot(body.botId);
        access.applyWidgetCors(request, reply, bot.config, { refuse: true });
        const conversation = await conversationOf(db, tokens, bot, body.conversationToken);
        await access.limitVisitor(request, 'feedback', conversation.id);
        await recordFeedback(db, bot, conversation, body);
        return reply.status(204).send(null);
      },
    );
  });
}
