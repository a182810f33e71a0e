import {
  AgentMessageBodySchema,
  AgentPreferencesSchema,
  ErrorBodySchema,
  InboxConversationSchema,
  type InboxEvent,
  InboxIdParamsSchema,
  InboxListSchema,
  InboxSummarySchema,
  InboxTranscriptSchema,
  LiveMessageSchema,
  NoQuerySchema,
  UpdateAgentPreferencesBodySchema,
} from '@omnibot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors';
import { openEventStream } from '../../lib/event-stream';
import { sessionUser } from '../../lib/principal';
import { type Identity, requirePrincipal } from '../auth/principal';
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
import type { LiveBus } from './live-bus';
import { eventsAfter, notifyTyping } from './live-events';

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
  deps: { identity: Identity; bus: LiveBus; translation: LiveTranslationDeps },
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
          summary: 'Server-Sent Events of the inbox: `changed`, `message` and `typing`, as they happen',
          querystring: NoQuerySchema,
          response: { 200: z.unknown(), ...errors },
        },
      },
      async (request, reply) => {
        const agent = agentOf(request);
        const events = openEventStream<InboxEvent | 'ready'>(reply);
        // Each notice names the newest stored event of a conversation; what came since the last one seen is read.
        const seen = new Map<string, number>();
        let queue = Promise.resolve();
        const forward = (conversationId: string, lastId: number | undefined, state: string | undefined) => {
          if (state !== undefined) events.write('changed', { conversationId, state });
          if (lastId === undefined) return;
          queue = queue.then(async () => {
            const after = seen.get(conversationId) ?? lastId - 1;
            const rows = await eventsAfter(db, { tenantId: agent.tenantId, id: conversationId }, after);
            for (const row of rows) {
              seen.set(conversationId, row.id);
              if (row.type === 'message') events.write('message', { conversationId, message: row.data });
            }
          });
        };
        const stop = bus.onTenant(agent.tenantId, (notice) => {
          if (notice.queue) return;
          if (notice.conversationId === '') {
            // The listener came back after a loss: the client reads the whole inbox again.
            events.write('changed', { conversationId: null, state: null });
            return;
          }
          if (notice.typing?.role === 'visitor') {
            events.write('typing', { conversationId: notice.conversationId });
            return;
          }
          forward(notice.conversationId, notice.lastId, notice.state);
        });
        const ping = setInterval(() => events.comment('ping'), KEEP_ALIVE_MS);
        events.signal.addEventListener('abort', () => {
          clearInterval(ping);
          stop();
        });
        events.write('ready', {});
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
          return inboxConversation(db, agent.tenantId, request.params.id);
        },
      );
    }
  });
}
