import {
  BotIdParamsSchema,
  type CaseSummary,
  BotStatsQuerySchema,
  BotStatsSchema,
  ConversationIdParamsSchema,
  ConversationListQuerySchema,
  ConversationListSchema,
  ConversationSchema,
  ErrorBodySchema,
  NoQuerySchema,
} from '@omnibot/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/audit';
import { type Identity, requirePrincipal } from '../auth/principal';
import type { SourceLinks } from '../../storage/source-links';
import { presentConversation, presentConversationSummary } from './dashboard.presenter';
import { botStats, conversationTranscript, listConversations } from './dashboard.service';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const tags = ['dashboard'];

/** The case summaries of a conversation of a tenant, oldest first (written by the case-summaries module). */
export type ConversationSummaries = (conversation: {
  tenantId: string;
  id: string;
}) => Promise<CaseSummary[]>;

/** What a tenant's bots did: daily figures, the conversation log and transcripts (reads only, own tenant only). */
export async function dashboardRoutes(
  app: FastifyInstance,
  deps: { identity: Identity; sourceLinks: SourceLinks; summaries: ConversationSummaries },
) {
  const { db } = deps.identity;
  const signedIn = [requirePrincipal(deps.identity, { credentials: true })];

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/v1/bots/:id/stats',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary:
            "A bot's conversations, messages (answered and fallback) and feedback per UTC day over the last `days` days",
          params: BotIdParamsSchema,
          querystring: BotStatsQuerySchema,
          response: { 200: BotStatsSchema, ...errors },
        },
      },
      async (request) => botStats(db, actorOf(request).principal, request.params.id, request.query),
    );

    r.get(
      '/v1/bots/:id/conversations',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: "A bot's conversation log, newest first; `q` searches the messages' text",
          params: BotIdParamsSchema,
          querystring: ConversationListQuerySchema,
          response: { 200: ConversationListSchema, ...errors },
        },
      },
      async (request) => {
        const { items, total } = await listConversations(
          db,
          actorOf(request).principal,
          request.params.id,
          request.query,
        );
        return {
          items: items.map(presentConversationSummary),
          total,
          page: request.query.page,
          page_size: request.query.page_size,
        };
      },
    );

    r.get(
      '/v1/conversations/:id',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary:
            'One conversation with its messages in order, their sources and feedback (text as stored, masked)',
          params: ConversationIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: ConversationSchema, ...errors },
        },
      },
      async (request) => {
        const transcript = await conversationTranscript(db, actorOf(request).principal, request.params.id);
        return presentConversation(
          transcript,
          (tenantId, stored) => deps.sourceLinks.refresh(tenantId, stored),
          await deps.summaries({
            tenantId: transcript.conversation.tenantId,
            id: transcript.conversation.id,
          }),
        );
      },
    );
  });
}
