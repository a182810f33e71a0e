import {
  ConversationEventsBodySchema,
  ConversationStatusSchema,
  ErrorBodySchema,
  HandoverBodySchema,
  LIVE_AGENT_ERRORS,
  type LiveEvent,
  NoQuerySchema,
  offersHandover,
  VisitorTypingBodySchema,
} from '@omnibot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { type ConversationRow, conversations } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { openEventStream } from '../../lib/event-stream';
import type { CaseSummaryWriter } from '../case-summaries/case-summaries.service';
import { requestHandover, statusOf } from '../live-agents/handover.service';
import { followConversation, type LiveBus } from '../live-agents/live-bus';
import { notifyTyping } from '../live-agents/live-events';
import type { ProviderRelay } from '../live-agents/provider-relay';
import { providerTargetOf } from '../live-agents/provider-sessions';
import { handoverHours } from './handover-hours';
import { conversationOf } from './visitor.service';
import type { WidgetAccess } from './widget-access';
import { widgetPreflights } from './widget-preflight';

const errors = {
  400: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  429: ErrorBodySchema,
};
const tags = ['widget'];
/** A comment line this often keeps proxies from closing an idle stream. */
const KEEP_ALIVE_MS = 15_000;
/** A stream ends after this long; the client opens the next one from its last event id. */
const STREAM_MAX_MS = 5 * 60_000;

/** The event id a client resumes from: the body's `after`, else its Last-Event-ID header, else the beginning. */
function resumeFrom(request: FastifyRequest, after: string | undefined): number {
  const header = request.headers['last-event-id'];
  const value = after ?? (typeof header === 'string' && /^\d{1,20}$/.test(header) ? header : '0');
  return Number(value);
}

/**
 * The visitor's side of a conversation handed to a person: asking for one (`/v1/handover`), the live stream of the
 * conversation (`/v1/conversation/events`) and saying that the visitor types (`/v1/conversation/typing`).
 */
export async function liveRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    access: WidgetAccess;
    bus: LiveBus;
    summaries: CaseSummaryWriter;
    relay: Pick<ProviderRelay, 'wake'> | null;
  },
) {
  const { db, access, bus, summaries } = deps;
  const { tokens } = access;

  /** The servable bot and the conversation a token names for it, after the origin rule and both budgets. */
  async function visitorConversation(
    request: FastifyRequest,
    reply: Parameters<WidgetAccess['applyWidgetCors']>[1],
    body: { botId: string; conversationToken: string },
    scope: string,
  ) {
    const bot = await access.resolveWidgetBot(body.botId);
    access.applyWidgetCors(request, reply, bot.config, { refuse: true });
    const conversation = await conversationOf(db, tokens, bot, body.conversationToken);
    await access.limitVisitor(request, scope, conversation.id);
    return { bot, conversation };
  }

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    widgetPreflights(scope, access, ['/v1/handover', '/v1/conversation/events', '/v1/conversation/typing']);

    r.post(
      '/v1/handover',
      {
        onRequest: [(request) => access.limitAddress(request, 'handover')],
        schema: {
          tags,
          summary:
            'The visitor asks for a person: the conversation waits in the queue of the bot’s live agents',
          querystring: NoQuerySchema,
          body: HandoverBodySchema,
          response: { 200: ConversationStatusSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { bot, conversation } = await visitorConversation(request, reply, request.body, 'handover');
        if (!offersHandover(bot.config)) {
          throw new AppError(409, 'handover/not-offered', LIVE_AGENT_ERRORS['handover/not-offered']);
        }
        // Out of business hours nobody is there to answer: the visitor reads the bot's offline text, nothing changes.
        if (!(await handoverHours(db, bot)).inHours) {
          throw new AppError(409, 'handover/out-of-hours', bot.config.engines.offlineText);
        }
        const status = await requestHandover(
          db,
          conversation,
          'visitor',
          undefined,
          providerTargetOf(bot.config),
        );
        // Committed: a relay starts the contact centre's session now (never inside the hand-over's transaction),
        // and the case summary is written.
        if (status.state === 'queued') {
          summaries.handedOver(conversation);
          deps.relay?.wake();
        }
        return status;
      },
    );

    r.post(
      '/v1/conversation/typing',
      {
        onRequest: [(request) => access.limitAddress(request, 'typing')],
        schema: {
          tags,
          summary: 'The visitor is typing: the person answering sees it (nothing is stored)',
          querystring: NoQuerySchema,
          body: VisitorTypingBodySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const { conversation } = await visitorConversation(request, reply, request.body, 'typing');
        if (conversation.state === 'agent') {
          await notifyTyping(db, conversation, { role: 'visitor', name: null });
        }
        return reply.status(204).send(null);
      },
    );

    r.post(
      '/v1/conversation/events',
      {
        onRequest: [(request) => access.limitAddress(request, 'live')],
        schema: {
          tags,
          summary:
            'The live conversation as Server-Sent Events: `status` first, then `message`, `status`, `typing` and `ended` as they happen, each stored one with an id to resume from (`after` or Last-Event-ID)',
          querystring: NoQuerySchema,
          body: ConversationEventsBodySchema,
          response: { 200: z.unknown(), ...errors },
        },
      },
      async (request, reply) => {
        const { conversation } = await visitorConversation(request, reply, request.body, 'live');
        await streamConversation(db, bus, conversation, resumeFrom(request, request.body.after), reply);
        return reply;
      },
    );
  });
}

/**
 * Writes a conversation's live events to a visitor: its status now, then every stored event after `after` in order,
 * each once, then new ones as the notices bring them (`followConversation`). Ends with the conversation, when a read
 * fails, or after STREAM_MAX_MS (the client resumes from its last id).
 */
async function streamConversation(
  db: Db,
  bus: LiveBus,
  conversation: ConversationRow,
  after: number,
  reply: Parameters<typeof openEventStream>[0],
) {
  const status = await statusOf(db, conversation);
  const events = openEventStream<LiveEvent>(reply);
  events.write('status', status);
  let state = status.state;
  let place = status.position;
  let finished = false;
  const timers: NodeJS.Timeout[] = [];
  let stop = () => undefined as void;
  const finish = () => {
    if (finished) return;
    finished = true;
    for (const timer of timers) clearTimeout(timer);
    stop();
    events.end();
  };
  const follower = followConversation(db, bus, conversation, after, {
    onEvent: (event) => {
      events.write(event.type, event.data, event.id);
      if (event.type === 'status') {
        const data = event.data as { state: typeof state; position: number | null };
        state = data.state;
        place = data.position;
      }
      if (event.type === 'ended') finish();
    },
    onNotice: (notice) => {
      if (notice.typing?.role === 'agent') events.write('typing', notice.typing);
    },
    onError: finish,
  });
  // A waiting visitor's place changes when others leave the queue: computed again then (once for any number of
  // moves meanwhile, in its place among the events), sent when it moved. Nothing is read unless it waits.
  let placeDue = false;
  const stopQueue = bus.onTenant(conversation.tenantId, (notice) => {
    if (!notice.queue || state !== 'queued' || placeDue) return;
    placeDue = true;
    follower.queue(async () => {
      placeDue = false;
      if (state !== 'queued') return;
      const [row] = await db.select().from(conversations).where(eq(conversations.id, conversation.id));
      if (row?.state !== 'queued') return;
      const now = await statusOf(db, row);
      if (now.position !== place) {
        place = now.position;
        events.write('status', now);
      }
    });
  });
  stop = () => {
    follower.stop();
    stopQueue();
  };
  events.signal.addEventListener('abort', finish);
  const ping = setInterval(() => events.comment('ping'), KEEP_ALIVE_MS);
  const limit = setTimeout(finish, STREAM_MAX_MS);
  limit.unref();
  timers.push(ping, limit);
}
