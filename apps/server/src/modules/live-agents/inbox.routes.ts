import {
  AgentMessageBodySchema,
  AgentPreferencesSchema,
  ErrorBodySchema,
  InboxConversationSchema,
  type InboxEvent,
  InboxEventsQuerySchema,
  InboxIdParamsSchema,
  InboxListSchema,
  InboxSummarySchema,
  InboxTranscriptSchema,
  LiveMessageSchema,
  NoQuerySchema,
  UpdateAgentPreferencesBodySchema,
} from '@omnibot/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors';
import { openEventStream } from '../../lib/event-stream';
import { sessionUser } from '../../lib/principal';
import { type Identity, requirePrincipal } from '../auth/principal';
import type { CaseSummaryWriter } from '../case-summaries/case-summaries.service';
import {
  agentLanguageOf,
  agentTextForVisitor,
  type LiveTranslationDeps,
  saveAgentLanguage,
} from './agent-translation';
import {
  agentSays,
  claimConversation,
  closeConversation,
  type InboxAgent,
  releaseToBot,
} from './handover.service';
import {
  CONVERSATION_NOT_FOUND,
  inboxConversation,
  inboxSummary,
  inboxTranscript,
  listInbox,
} from './inbox.service';
import { followConversation, type LiveBus } from './live-bus';
import { eventsAfter, type NoticeEvent, notifyTyping } from './live-events';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
};
const tags = ['inbox'];
/** A comment line this often keeps proxies from closing an idle stream. */
const KEEP_ALIVE_MS = 15_000;

/** A closed conversation gets its closing case summary, written after the close has committed. */
function summariseClosed(summaries: CaseSummaryWriter, agent: InboxAgent, id: string) {
  summaries.closed({ tenantId: agent.tenantId, id });
}

/** The signed-in person acting in the inbox, in their organisation. */
function agentOf(request: FastifyRequest): InboxAgent {
  const user = sessionUser(request);
  return { tenantId: user.tenantId, userId: user.userId, name: user.name };
}

/**
 * The built-in agent inbox under /v1/inbox: the organisation's conversations waiting for a person or answered by one,
 * claimed, answered, handed back and closed by people of that organisation (agents included), with a live stream.
 */
export async function inboxRoutes(
  app: FastifyInstance,
  deps: { identity: Identity; bus: LiveBus; summaries: CaseSummaryWriter; translation: LiveTranslationDeps },
) {
  const { identity, bus, translation } = deps;
  const { db } = identity;
  // People answer visitors; an API credential is nobody who could.
  const signedIn = [requirePrincipal(identity, { allowAgent: true })];
  const found = <T>(value: T | null): T => {
    if (value === null) throw notFound(CONVERSATION_NOT_FOUND);
    return value;
  };

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/v1/inbox/summary',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary:
            'Whether the organisation hands over to the inbox, how many wait, how many the caller answers',
          querystring: NoQuerySchema,
          response: { 200: InboxSummarySchema, ...errors },
        },
      },
      async (request) => {
        const agent = agentOf(request);
        return inboxSummary(db, agent.tenantId, agent.userId);
      },
    );

    r.get(
      '/v1/inbox/preferences',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: "The caller's inbox preferences: the language visitors' messages are translated into",
          querystring: NoQuerySchema,
          response: { 200: AgentPreferencesSchema, ...errors },
        },
      },
      async (request) => {
        const agent = agentOf(request);
        return { language: await agentLanguageOf(db, agent.tenantId, agent.userId) };
      },
    );

    r.put(
      '/v1/inbox/preferences',
      {
        onRequest: signedIn,
        config: { allowAgent: true },
        schema: {
          tags,
          summary:
            "Sets the caller's language: visitors' messages are translated into it and the caller's replies from it, for bots that translate for their agents",
          querystring: NoQuerySchema,
          body: UpdateAgentPreferencesBodySchema,
          response: { 200: AgentPreferencesSchema, ...errors },
        },
      },
      async (request) => ({
        language: await saveAgentLanguage(db, agentOf(request), request.body.language),
      }),
    );

    r.get(
      '/v1/inbox',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'Conversations waiting for a person (longest waiting first), then those a person answers',
          querystring: NoQuerySchema,
          response: { 200: InboxListSchema, ...errors },
        },
      },
      async (request) => ({ items: await listInbox(db, agentOf(request).tenantId) }),
    );

    r.get(
      '/v1/inbox/events',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary:
            'Server-Sent Events of the inbox: `changed`, `message` and `typing`, as they happen; with `conversation`, those of one conversation with ids to resume from (`after` or Last-Event-ID)',
          querystring: InboxEventsQuerySchema,
          response: { 200: z.unknown(), ...errors },
        },
      },
      async (request, reply) => {
        const agent = agentOf(request);
        const { conversation } = request.query;
        if (conversation !== undefined) {
          // Another organisation's conversation is answered as an unknown one, before the stream starts.
          await inboxConversation(db, agent.tenantId, conversation);
          const after = resumeFrom(request, request.query.after);
          streamInboxConversation(db, bus, { tenantId: agent.tenantId, id: conversation }, after, reply);
          return reply;
        }
        streamInbox(db, bus, agent.tenantId, reply);
        return reply;
      },
    );

    r.get(
      '/v1/inbox/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'A conversation with its whole transcript, the bot part first',
          params: InboxIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: InboxTranscriptSchema, ...errors },
        },
      },
      async (request) => inboxTranscript(db, agentOf(request).tenantId, request.params.id),
    );

    r.post(
      '/v1/inbox/:id/claim',
      {
        onRequest: signedIn,
        config: { allowAgent: true },
        schema: {
          tags,
          summary:
            'Take a waiting conversation (one of two agents claiming at once wins; the other gets 409)',
          params: InboxIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: InboxConversationSchema, ...errors },
        },
      },
      async (request) => {
        const agent = agentOf(request);
        found(await claimConversation(db, agent, request.params.id));
        return inboxConversation(db, agent.tenantId, request.params.id);
      },
    );

    r.post(
      '/v1/inbox/:id/messages',
      {
        onRequest: signedIn,
        config: { allowAgent: true },
        schema: {
          tags,
          summary: 'A message of the agent to the visitor of a conversation they answer',
          params: InboxIdParamsSchema,
          querystring: NoQuerySchema,
          body: AgentMessageBodySchema,
          response: { 201: LiveMessageSchema, ...errors },
        },
      },
      async (request, reply) => {
        const agent = agentOf(request);
        const { text } = request.body;
        const message = found(
          await agentSays(db, agent, request.params.id, text, (row) =>
            agentTextForVisitor(translation, agent, row, text),
          ),
        );
        return reply.status(201).send(message);
      },
    );

    r.post(
      '/v1/inbox/:id/typing',
      {
        onRequest: signedIn,
        config: { allowAgent: true },
        schema: {
          tags,
          summary: 'The agent is typing (the visitor sees it)',
          params: InboxIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const agent = agentOf(request);
        const conversation = await inboxConversation(db, agent.tenantId, request.params.id);
        if (conversation.state === 'agent' && conversation.agent?.id === agent.userId) {
          await notifyTyping(
            db,
            { tenantId: agent.tenantId, id: conversation.id },
            { role: 'agent', name: agent.name },
          );
        }
        return reply.status(204).send(null);
      },
    );

    for (const [action, summary, act] of [
      ['release', 'Hand the conversation back to the bot', releaseToBot],
      ['close', 'End a waiting conversation or one the agent answers', closeConversation],
    ] as const) {
      r.post(
        `/v1/inbox/:id/${action}`,
        {
          onRequest: signedIn,
          config: { allowAgent: true },
          schema: {
            tags,
            summary,
            params: InboxIdParamsSchema,
            querystring: NoQuerySchema,
            response: { 200: InboxConversationSchema, ...errors },
          },
        },
        async (request) => {
          const agent = agentOf(request);
          found(await act(db, agent, request.params.id));
          if (action === 'close') summariseClosed(deps.summaries, agent, request.params.id);
          return inboxConversation(db, agent.tenantId, request.params.id);
        },
      );
    }
  });
}

/** The event id a client resumes from: the query's `after`, else its Last-Event-ID header, else the beginning. */
function resumeFrom(request: FastifyRequest, after: string | undefined): number {
  const header = request.headers['last-event-id'];
  const value = after ?? (typeof header === 'string' && /^\d{1,20}$/.test(header) ? header : '0');
  return Number(value);
}

/**
 * The organisation's inbox stream: `changed` for each state change, `message` for each message, `typing` when a
 * visitor types, in the order the notices came. A notice carries its events, so nothing is read; one whose events
 * were too big to carry is read (exactly its ids) before anything after it is written. After the listener was lost,
 * `changed` without a conversation tells the client to read the whole inbox again.
 */
function streamInbox(db: Db, bus: LiveBus, tenantId: string, reply: FastifyReply) {
  const events = openEventStream<InboxEvent | 'ready'>(reply);
  const due: (() => void | Promise<void>)[] = [];
  let running = false;
  let stop = () => undefined as void;
  const finish = () => {
    clearInterval(ping);
    stop();
    events.end();
  };
  // Written at once while nothing waits for a read, else after it.
  const drain = async () => {
    running = true;
    try {
      for (let step = due.shift(); step; step = due.shift()) {
        const waiting = step();
        if (waiting) await waiting;
      }
    } catch {
      // The client reconnects and reads the inbox again.
      finish();
    } finally {
      running = false;
    }
  };
  const inOrder = (step: () => void | Promise<void>) => {
    due.push(step);
    if (!running) void drain();
  };
  const messages = (conversationId: string, list: readonly NoticeEvent[]) => {
    for (const event of list) {
      if (event.type === 'message') events.write('message', { conversationId, message: event.data });
    }
  };
  stop = bus.onTenant(tenantId, (notice) => {
    if (notice.queue) return;
    const { conversationId, lastId, previousId, state } = notice;
    if (conversationId === '') {
      inOrder(() => events.write('changed', { conversationId: null, state: null }));
      return;
    }
    if (notice.typing?.role === 'visitor') {
      inOrder(() => events.write('typing', { conversationId }));
      return;
    }
    if (notice.summary) {
      inOrder(() => events.write('summary', { conversationId }));
      return;
    }
    if (state !== undefined) inOrder(() => events.write('changed', { conversationId, state }));
    if (lastId === undefined) return;
    const carried = notice.events;
    if (carried) {
      inOrder(() => messages(conversationId, carried));
      return;
    }
    inOrder(async () => {
      const rows = await eventsAfter(db, { tenantId, id: conversationId }, previousId ?? lastId - 1);
      messages(
        conversationId,
        rows.filter((row) => row.id <= lastId),
      );
    });
  });
  const ping = setInterval(() => events.comment('ping'), KEEP_ALIVE_MS);
  events.signal.addEventListener('abort', finish);
  events.write('ready', {});
}

/**
 * One conversation's inbox stream: its stored events after `after` with their ids (`message` for messages, `changed`
 * for state changes), each once and in order, and `typing` when its visitor types (`followConversation`). It stays
 * open after the conversation ended, so a client that reconnects on its own is not sent the end again and again.
 */
function streamInboxConversation(
  db: Db,
  bus: LiveBus,
  conversation: { tenantId: string; id: string },
  after: number,
  reply: FastifyReply,
) {
  const events = openEventStream<InboxEvent | 'ready'>(reply);
  const conversationId = conversation.id;
  const finish = () => {
    clearInterval(ping);
    follower.stop();
    events.end();
  };
  const follower = followConversation(db, bus, conversation, after, {
    onEvent: (event) => {
      if (event.type === 'message')
        events.write('message', { conversationId, message: event.data }, event.id);
      if (event.type === 'status') {
        events.write('changed', { conversationId, state: (event.data as { state: string }).state }, event.id);
      }
    },
    onNotice: (notice) => {
      if (notice.typing?.role === 'visitor') events.write('typing', { conversationId });
    },
    onError: () => finish(),
  });
  const ping = setInterval(() => events.comment('ping'), KEEP_ALIVE_MS);
  events.signal.addEventListener('abort', finish);
  events.write('ready', {});
}
