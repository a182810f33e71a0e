import type { InboxConversation, InboxSummary, InboxTranscript, MessageRole } from '@omnibot/contracts';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  type ConversationRow,
  conversationMessages,
  conversations,
  liveProviderSessions,
} from '../../db/schema';
import { notFound } from '../../lib/errors';
import { botNameSql, tenantHandsOverToInbox } from '../bots/bots.service';
import { latestSummaryOf } from '../case-summaries/case-summaries.service';
import { liveMessage } from './handover.service';

/** The most conversations the inbox lists at once (the longest waiting first). */
const INBOX_LIMIT = 200;
/** The most messages a transcript holds. */
const TRANSCRIPT_LIMIT = 1000;
export const CONVERSATION_NOT_FOUND = 'Conversation not found';

const lastMessageSql = sql<{ role: string; text: string; at: string } | null>`(
  select json_build_object('role', m.role, 'text', m.text, 'at', m.created_at)
  from ${conversationMessages} m
  where m.conversation_id = ${conversations.id} and m.tenant_id = ${conversations.tenantId}
  order by m.created_at desc, m.id desc limit 1
)`;

/** Conversations a contact centre holds are its agents' to answer: the inbox neither lists nor counts them. */
export const notWithContactCentre = sql`not exists (
  select 1 from ${liveProviderSessions} p where p.conversation_id = ${conversations.id}
)`;

const botNameOfConversation = botNameSql(conversations.botId, conversations.tenantId);

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function present(
  row: ConversationRow,
  botName: string,
  last: { role: string; text: string; at: string } | null,
): InboxConversation {
  return {
    id: row.id,
    bot: { id: row.botId, name: botName },
    state: row.state,
    reason: row.handoverReason,
    language: row.language,
    origin: row.origin,
    country: row.country,
    queued_at: iso(row.queuedAt),
    agent:
      row.agentId !== null && row.state === 'agent' ? { id: row.agentId, name: row.agentName ?? '' } : null,
    last_message: last ? { role: last.role as MessageRole, text: last.text, at: iso(last.at) ?? '' } : null,
    message_count: row.messageCount,
  };
}

/** The tenant's conversations that wait for a person (longest waiting first), then those a person answers. */
export async function listInbox(db: Db, tenantId: string): Promise<InboxConversation[]> {
  const rows = await db
    .select({ row: conversations, botName: botNameOfConversation, last: lastMessageSql })
    .from(conversations)
    .where(
      and(
        eq(conversations.tenantId, tenantId),
        inArray(conversations.state, ['queued', 'agent']),
        notWithContactCentre,
      ),
    )
    .orderBy(sql`case ${conversations.state} when 'queued' then 0 else 1 end`, asc(conversations.queuedAt))
    .limit(INBOX_LIMIT);
  return rows.map(({ row, botName, last }) => present(row, botName, last));
}

/** One conversation of the tenant as the inbox lists it; 404 for another tenant's or an unknown one. */
export async function inboxConversation(db: Db, tenantId: string, id: string): Promise<InboxConversation> {
  const [found] = await db
    .select({ row: conversations, botName: botNameOfConversation, last: lastMessageSql })
    .from(conversations)
    .where(and(eq(conversations.tenantId, tenantId), eq(conversations.id, id)))
    .limit(1);
  if (!found) throw notFound(CONVERSATION_NOT_FOUND);
  return present(found.row, found.botName, found.last);
}

/** A conversation of the tenant with its whole transcript, oldest first. */
export async function inboxTranscript(db: Db, tenantId: string, id: string): Promise<InboxTranscript> {
  const conversation = await inboxConversation(db, tenantId, id);
  const rows = await db
    .select()
    .from(conversationMessages)
    .where(and(eq(conversationMessages.tenantId, tenantId), eq(conversationMessages.conversationId, id)))
    .orderBy(asc(conversationMessages.createdAt), asc(conversationMessages.id))
    .limit(TRANSCRIPT_LIMIT);
  return {
    conversation,
    messages: rows.map(liveMessage),
    summary: await latestSummaryOf(db, { tenantId, id }),
  };
}

/** Whether any bot of the tenant hands over to the inbox, how many wait, and how many `userId` answers. */
export async function inboxSummary(db: Db, tenantId: string, userId: string | null): Promise<InboxSummary> {
  const [counts] = await db
    .select({
      queued: sql<number>`count(*) filter (where ${conversations.state} = 'queued')::int`,
      mine: sql<number>`count(*) filter (where ${conversations.state} = 'agent' and ${conversations.agentId} = ${userId})::int`,
    })
    .from(conversations)
    .where(
      and(
        eq(conversations.tenantId, tenantId),
        inArray(conversations.state, ['queued', 'agent']),
        notWithContactCentre,
      ),
    );
  const liveAgents = await tenantHandsOverToInbox(db, tenantId);
  return { live_agents: liveAgents, queued: counts?.queued ?? 0, mine: counts?.mine ?? 0 };
}
