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
import { requestHandover, statusOf } from '../live-agents/handover.service';
import type { LiveBus } from '../live-agents/live-bus';
import { eventsAfter, notifyTyping } from '../live-agents/live-events';
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
/** Stored events are read again this often even without a notification, so a missed one is repaired. */
const REPAIR_MS = 5_000;
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
export async function liveRoutes(app: FastifyInstance, deps: { db: Db; access: WidgetAccess; bus: LiveBus }) {
  const { db, access, bus } = deps;
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
        return requestHandover(db, conversation, 'visitor');
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
        streamConversation(db, bus, conversation, resumeFrom(request, request.body.after), reply);
        return reply;
      },
    );
  });
}

/**
 * Writes a conversation's live events to a visitor: its status now, then every stored event after `after` in order,
 * then new ones as the notifications name them (read again every few seconds in case one was missed). Ends with the
 * conversation, or after STREAM_MAX_MS (the client resumes from its last id).
 */
function streamConversation(
  db: Db,
  bus: LiveBus,
  conversation: ConversationRow,
  after: number,
  reply: Parameters<typeof openEventStream>[0],
) {
  const events = openEventStream<LiveEvent>(reply);
  let lastId = after;
  let ended = false;
  let reading: Promise<void> = Promise.resolve();
  const timers: NodeJS.Timeout[] = [];
  let stop = () => undefined as void;
  const finish = () => {
    for (const timer of timers) clearInterval(timer);
    stop();
    events.end();
  };
  const readNew = () => {
    reading = reading.then(async () => {
      if (ended || events.signal.aborted) return;
      const rows = await eventsAfter(db, conversation, lastId);
      for (const row of rows) {
        lastId = row.id;
        events.write(row.type, row.data, row.id);
        if (row.type === 'ended') ended = true;
      }
      if (ended) finish();
    });
    reading.catch(() => finish());
  };
  // A waiting visitor's place changes when others leave the queue: computed again then, sent when it moved.
  let place: number | null = null;
  const replace = () => {
    reading = reading.then(async () => {
      if (ended || events.signal.aborted) return;
      const [row] = await db.select().from(conversations).where(eq(conversations.id, conversation.id));
      if (row?.state !== 'queued') return;
      const status = await statusOf(db, row);
      if (status.position !== place) {
        place = status.position;
        events.write('status', status);
      }
    });
  };
  const stopConversation = bus.onConversation(conversation.id, (notice) => {
    if (notice.typing?.role === 'agent') {
      events.write('typing', notice.typing);
      return;
    }
    if (notice.lastId === undefined || notice.lastId > lastId) readNew();
  });
  const stopQueue = bus.onTenant(conversation.tenantId, (notice) => {
    if (notice.queue) replace();
  });
  stop = () => {
    stopConversation();
    stopQueue();
  };
  events.signal.addEventListener('abort', finish);
  timers.push(setInterval(() => events.comment('ping'), KEEP_ALIVE_MS));
  timers.push(setInterval(readNew, REPAIR_MS));
  const limit = setTimeout(finish, STREAM_MAX_MS);
  limit.unref();
  timers.push(limit);
  reading = statusOf(db, conversation).then((status) => {
    place = status.position;
    events.write('status', status);
  });
  readNew();
}
