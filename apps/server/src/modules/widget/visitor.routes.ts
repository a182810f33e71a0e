import {
  AUTH_MESSAGES,
  ErrorBodySchema,
  FeedbackBodySchema,
  IntentBodySchema,
  type IntentReply,
  IntentReplySchema,
  type IntentStreamEvent,
  NoQuerySchema,
  WidgetBotParamsSchema,
} from '@omnibot/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { openEventStream, wantsEventStream } from '../../lib/event-stream';
import { refuseLongText } from '../../lib/visitor-text';
import { recordBotOrigin } from '../bots/bot-origins';
import { engineFor } from '../bots/bot-engine';
import { type LiveTranslationDeps, visitorTextForAgent } from '../live-agents/agent-translation';
import { handoverClosed, personHoldsEngine } from '../live-agents/handover.service';
import type { ProviderRelay } from '../live-agents/provider-relay';
import type { AnswerDeps } from '../rag/rag-answer';
import type { SpeechDeps } from '../speech/speech.service';
import { autoTranslating } from './auto-translate';
import {
  answerLanguageFor,
  conversationOf,
  conversationOrigin,
  historyOf,
  recordFeedback,
  startTurn,
  storeTurn,
  type Turn,
} from './visitor.service';
import type { CaseSummaryWriter } from '../case-summaries/case-summaries.service';
import type { WidgetAccess } from './widget-access';
import { widgetPreflights } from './widget-preflight';

const errors = {
  400: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  413: ErrorBodySchema,
  429: ErrorBodySchema,
};
const tags = ['widget'];
const NO_ORIGIN_MESSAGE = 'Only a web page can report where the widget was loaded (it names its Origin).';

export interface VisitorRoutesDeps {
  access: WidgetAccess;
  /** How the builtin engine answers from a RAG, as the RAG answer route does (the recorder included). */
  answering: AnswerDeps;
  /** The bot's translator, for automatic translation of a turn. */
  speech: SpeechDeps;
  /** Writes a case summary once a turn that handed the conversation over has committed. */
  summaries: CaseSummaryWriter;
  /** Told when a turn handed the conversation to a contact centre, so its session starts at once. */
  relay: Pick<ProviderRelay, 'wake'> | null;
  /** Translation of a message for the person holding the conversation. */
  liveTranslation: LiveTranslationDeps;
}

/** The public routes a visitor's widget talks to: messages to a bot (`/v1/intent`), feedback, sightings. */
export async function visitorRoutes(app: FastifyInstance, deps: VisitorRoutesDeps) {
  const { access, answering } = deps;
  const { db } = answering;
  const { tokens } = access;
  const speech = { ...deps.speech, log: app.log };
  /**
   * A stored turn that left the conversation waiting for a person gets its hand-over summary (written once), and a
   * contact centre's session starts now that the hand-over committed.
   */
  const handedOver = (turn: Turn, reply: IntentReply) => {
    if (reply.handover?.state === 'queued') {
      deps.summaries.handedOver({ tenantId: turn.bot.row.tenantId, id: turn.conversationId });
      deps.relay?.wake();
    }
    return reply;
  };

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    widgetPreflights(scope, access, ['/v1/intent', '/v1/feedback']);

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
        const started = startTurn(tokens, {
          bot,
          conversation,
          text: body.text,
          language: answerLanguageFor(bot.config, body.language),
          origin: conversationOrigin(seen, body.hostOrigin, bot.config),
        });
        if (conversation?.state === 'closed') throw handoverClosed();
        // While a person holds the conversation the message goes to them: no engine is asked (storeTurn relays it).
        const heldByPerson = conversation !== null && conversation.state !== 'bot';
        // Translated for the person before the turn is stored, so the conversation is never locked while it waits.
        const turn =
          heldByPerson && conversation !== null
            ? {
                ...started,
                translation: await visitorTextForAgent(deps.liveTranslation, bot, conversation, started.text),
              }
            : started;
        const history = conversation === null || heldByPerson ? [] : await historyOf(db, conversation);
        const engine = heldByPerson ? personHoldsEngine : autoTranslating(speech, engineFor(answering, bot));
        const question = {
          tenantId: bot.row.tenantId,
          bot,
          text: turn.text,
          history,
          language: turn.language,
          conversationId: turn.conversationId,
        };
        const store = async (answer: Awaited<ReturnType<typeof engine.respond>>) =>
          handedOver(turn, await storeTurn(db, turn, answer));
        if (!wantsEventStream(request)) return store(await engine.respond(question));

        const events = openEventStream<IntentStreamEvent>(reply);
        events.write('conversation', {
          conversationToken: turn.conversationToken,
          visitorMessage: { id: turn.visitorMessageId, text: turn.text },
        });
        try {
          // The visitor going away stops the engine, and nothing is stored.
          const answer = await engine.respond({
            ...question,
            signal: events.signal,
            stream: {
              delta: (text) => events.write('delta', { text }),
              reset: () => events.write('reset', {}),
            },
          });
          if (!events.signal.aborted) events.write('reply', await store(answer));
        } catch (error) {
          request.log.error({ err: error }, 'streamed intent failed');
          events.write(
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
