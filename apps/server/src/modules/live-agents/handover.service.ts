import { randomUUID } from 'node:crypto';
import {
  type ConversationStatus,
  type HandoverReason,
  LIVE_AGENT_ERRORS,
  type LiveMessage,
} from '@omnibot/contracts';
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  type ConversationRow,
  conversationMessages,
  conversations,
  liveProviderSessions,
} from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { BotEngine } from '../bots/bot-engine';
import { appendEvents, notifyQueueMoved, type StoredEvent } from './live-events';
import { openProviderSession, type ProviderTarget } from './provider-sessions';

/** A database or a transaction. */
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Executor = Db | Tx;

export const handoverClosed = () =>
  new AppError(409, 'handover/closed', LIVE_AGENT_ERRORS['handover/closed']);
const liveAgentError = (code: keyof typeof LIVE_AGENT_ERRORS) =>
  new AppError(409, code, LIVE_AGENT_ERRORS[code]);

/** A stored message as both sides receive it: what its author wrote, with its translation when it has one. */
export function liveMessage(row: {
  id: string;
  role: LiveMessage['role'];
  text: string;
  authorName: string | null;
  createdAt: Date;
  language?: string | null;
  translatedText?: string | null;
  translatedLanguage?: string | null;
  translationFailed?: boolean;
}): LiveMessage {
  return {
    id: row.id,
    role: row.role,
    text: row.text,
    author: row.role === 'agent' ? row.authorName : null,
    at: row.createdAt.toISOString(),
    ...(row.language ? { language: row.language } : {}),
    ...(typeof row.translatedText === 'string' && typeof row.translatedLanguage === 'string'
      ? { translation: { text: row.translatedText, language: row.translatedLanguage } }
      : {}),
    ...(row.translationFailed ? { untranslated: true } : {}),
  };
}

/**
 * A message of a visitor or an agent made ready for the other side before it is stored: the language it was
 * written in, its translation, or that the translator failed (the original is sent as it is).
 */
export interface MessageTranslation {
  language: string | null;
  translation: { text: string; language: string } | null;
  failed: boolean;
}

/** The columns a message's translation is stored in. */
const translationColumns = (row: ConversationRow, translation: MessageTranslation | null | undefined) => ({
  language: translation?.language ?? row.language,
  translatedText: translation?.translation?.text ?? null,
  translatedLanguage: translation?.translation?.language ?? null,
  translationFailed: translation?.failed ?? false,
});

/** 1 for the next to be answered: the queued conversations of the tenant that waited at least as long. */
async function queuePosition(db: Executor, row: ConversationRow): Promise<number | null> {
  if (row.state !== 'queued' || row.queuedAt === null) return null;
  const [found] = await db
    .select({ ahead: sql<number>`count(*)::int` })
    .from(conversations)
    .where(
      and(
        eq(conversations.tenantId, row.tenantId),
        eq(conversations.state, 'queued'),
        lte(conversations.queuedAt, row.queuedAt),
      ),
    );
  return found?.ahead ?? 1;
}

/** Where a conversation stands, as its visitor sees it. */
export async function statusOf(db: Executor, row: ConversationRow): Promise<ConversationStatus> {
  return {
    state: row.state,
    position: await queuePosition(db, row),
    agent: row.state === 'agent' && row.agentName !== null ? { name: row.agentName } : null,
  };
}

/**
 * A message written in a conversation by a person or the system, stored with its event in the caller's
 * transaction, and counted on the conversation.
 */
export async function addMessage(
  tx: Tx,
  row: ConversationRow,
  message: {
    role: 'agent' | 'system' | 'visitor';
    text: string;
    authorId?: string;
    authorName?: string;
    translation?: MessageTranslation | null;
  },
): Promise<LiveMessage> {
  const createdAt = new Date();
  const [stored] = await tx
    .insert(conversationMessages)
    .values({
      id: randomUUID(),
      tenantId: row.tenantId,
      conversationId: row.id,
      botId: row.botId,
      role: message.role,
      text: message.text,
      authorId: message.authorId ?? null,
      authorName: message.authorName ?? null,
      ...translationColumns(row, message.translation),
      createdAt,
    })
    .returning();
  await tx
    .update(conversations)
    .set({ messageCount: sql`${conversations.messageCount} + 1`, lastMessageAt: createdAt })
    .where(eq(conversations.id, row.id));
  const live = liveMessage(stored as NonNullable<typeof stored>);
  await appendEvents(tx, row, [{ type: 'message', data: live }]);
  return live;
}

/**
 * The conversation locked for a change of state, so that two changes cannot both act on what they read. `no key
 * update`: rows that refer to it (its events and messages) may still be written by others meanwhile, so two agents
 * changing two conversations never wait on each other.
 */
async function locked(tx: Tx, tenantId: string, id: string): Promise<ConversationRow | null> {
  const [row] = await tx
    .select()
    .from(conversations)
    .where(and(eq(conversations.tenantId, tenantId), eq(conversations.id, id)))
    .for('no key update');
  return row ?? null;
}

/**
 * Puts a conversation in the queue for a person (from `bot` only; asking again while queued or answered changes
 * nothing). 409 handover/closed once it ended. Runs in the caller's transaction when given one. With a contact centre
 * (`provider`), a provider session waiting to be started is written in the same transaction: a server process's relay
 * starts it once the transaction committed, never inside it.
 */
export async function requestHandover(
  db: Db,
  conversation: { tenantId: string; id: string },
  reason: HandoverReason,
  tx?: Tx,
  provider?: ProviderTarget | null,
): Promise<ConversationStatus> {
  const run = async (t: Tx) => {
    const row = await locked(t, conversation.tenantId, conversation.id);
    if (!row) throw handoverClosed();
    if (row.state === 'closed') throw handoverClosed();
    if (row.state !== 'bot') return statusOf(t, row);
    const [queued] = await t
      .update(conversations)
      .set({ state: 'queued', handoverReason: reason, queuedAt: new Date(), fallbackStreak: 0 })
      .where(eq(conversations.id, row.id))
      .returning();
    if (provider) await openProviderSession(t, row, provider);
    const status = await statusOf(t, queued as ConversationRow);
    await appendEvents(t, row, [{ type: 'status', data: status }]);
    return status;
  };
  return tx ? run(tx) : db.transaction(run);
}

/**
 * The engine of a conversation a person holds (queued or answered): it asks no engine and says nothing, so the
 * visitor's message is only stored and relayed to the person (its trace is never stored: there is no bot message).
 */
export const personHoldsEngine: BotEngine = {
  respond: () =>
    Promise.resolve({
      messages: [],
      sources: [],
      fallback: false,
      handoverOffered: false,
      trace: { engine: 'fallback', error: null, answerId: null, ms: 0 },
    }),
};

/** Who acts in the inbox: a signed-in person of the conversation's tenant. */
export interface InboxAgent {
  tenantId: string;
  userId: string;
  name: string;
}

/**
 * The agent takes a waiting conversation. Exactly one of two agents claiming at once wins; the other is told
 * 409 inbox/already-claimed. Null when it is not a conversation of the agent's tenant.
 */
export async function claimConversation(
  db: Db,
  agent: InboxAgent,
  id: string,
): Promise<ConversationRow | null> {
  return db.transaction(async (tx) => {
    const row = await locked(tx, agent.tenantId, id);
    if (!row) return null;
    if (row.state === 'agent') throw liveAgentError('inbox/already-claimed');
    if (row.state !== 'queued') throw liveAgentError('inbox/not-waiting');
    // A conversation a contact centre holds waits for that centre's agents, not for the inbox.
    const [withProvider] = await tx
      .select({ id: liveProviderSessions.conversationId })
      .from(liveProviderSessions)
      .where(eq(liveProviderSessions.conversationId, row.id));
    if (withProvider) throw liveAgentError('inbox/not-waiting');
    const [claimed] = await tx
      .update(conversations)
      .set({ state: 'agent', agentId: agent.userId, agentName: agent.name, assignedAt: new Date() })
      .where(eq(conversations.id, row.id))
      .returning();
    const current = claimed as ConversationRow;
    await addMessage(tx, current, { role: 'system', text: `${agent.name} joined the conversation.` });
    await appendEvents(tx, current, [
      { type: 'status', data: { state: 'agent', position: null, agent: { name: agent.name } } },
    ]);
    await notifyQueueMoved(tx, agent.tenantId);
    return current;
  });
}

/** The conversation the agent answers, locked; 409 inbox/not-yours when it is not theirs (any more). */
async function answeredBy(tx: Tx, agent: InboxAgent, id: string): Promise<ConversationRow | null> {
  const row = await locked(tx, agent.tenantId, id);
  if (!row) return null;
  if (row.state !== 'agent' || row.agentId !== agent.userId) throw liveAgentError('inbox/not-yours');
  return row;
}

/** Makes a message ready for the other side (translates it), given the conversation it goes to. */
export type PrepareMessage = (row: ConversationRow) => Promise<MessageTranslation | null>;

/**
 * The agent's message made ready before its transaction: a translator may take seconds, and the conversation is not
 * kept locked meanwhile. Nothing is prepared unless the agent answers the conversation now; the transaction checks
 * that again.
 */
async function preparedBeforeStoring(
  db: Db,
  agent: InboxAgent,
  id: string,
  prepare: PrepareMessage,
): Promise<MessageTranslation | null> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.tenantId, agent.tenantId), eq(conversations.id, id)))
    .limit(1);
  if (row?.state !== 'agent' || row.agentId !== agent.userId) return null;
  return prepare(row);
}

/**
 * A message of the agent to the visitor, made ready by `prepare` first (outside the transaction); null when it is not
 * a conversation of the agent's tenant.
 */
export async function agentSays(
  db: Db,
  agent: InboxAgent,
  id: string,
  text: string,
  prepare?: PrepareMessage,
): Promise<LiveMessage | null> {
  const translation = prepare ? await preparedBeforeStoring(db, agent, id, prepare) : null;
  return db.transaction(async (tx) => {
    const row = await answeredBy(tx, agent, id);
    if (!row) return null;
    return addMessage(tx, row, {
      role: 'agent',
      text,
      authorId: agent.userId,
      authorName: agent.name,
      translation,
    });
  });
}

/** The agent hands the conversation back to the bot, which answers the visitor's next message again. */
export async function releaseToBot(db: Db, agent: InboxAgent, id: string): Promise<ConversationRow | null> {
  return db.transaction(async (tx) => {
    const row = await answeredBy(tx, agent, id);
    if (!row) return null;
    const [released] = await tx
      .update(conversations)
      .set({
        state: 'bot',
        agentId: null,
        agentName: null,
        assignedAt: null,
        queuedAt: null,
        fallbackStreak: 0,
      })
      .where(eq(conversations.id, row.id))
      .returning();
    const current = released as ConversationRow;
    await addMessage(tx, current, {
      role: 'system',
      text: `${agent.name} handed the conversation back to the bot.`,
    });
    await appendEvents(tx, current, [
      { type: 'status', data: { state: 'bot', position: null, agent: null } },
    ]);
    return current;
  });
}

/** Ends a waiting conversation, or one the agent answers; its visitor's next message starts a new one. */
export async function closeConversation(
  db: Db,
  agent: InboxAgent,
  id: string,
): Promise<ConversationRow | null> {
  return db.transaction(async (tx) => {
    const row = await locked(tx, agent.tenantId, id);
    if (!row) return null;
    const mayClose = row.state === 'queued' || (row.state === 'agent' && row.agentId === agent.userId);
    if (!mayClose) throw liveAgentError(row.state === 'agent' ? 'inbox/not-yours' : 'inbox/not-waiting');
    const wasQueued = row.state === 'queued';
    const [closed] = await tx
      .update(conversations)
      .set({ state: 'closed', closedAt: new Date() })
      .where(eq(conversations.id, row.id))
      .returning();
    const current = closed as ConversationRow;
    await addMessage(tx, current, { role: 'system', text: 'The conversation has ended.' });
    const ended: StoredEvent[] = [
      { type: 'status', data: { state: 'closed', position: null, agent: null } },
      { type: 'ended', data: { reason: 'agent' } },
    ];
    await appendEvents(tx, current, ended);
    if (wasQueued) await notifyQueueMoved(tx, agent.tenantId);
    return current;
  });
}

/**
 * A visitor's message while a person holds the conversation (queued or answering): stored and relayed, never given
 * to the bot, with its translation when one was made before the transaction. Runs in the caller's transaction; the
 * row must be locked by it. For a contact centre the message waits as `pending` until the relay holding its session
 * sent it (the stored event wakes that relay).
 */
export async function visitorSaysToAgent(
  tx: Tx,
  row: ConversationRow,
  message: { id: string; text: string; at: Date; translation?: MessageTranslation | null },
): Promise<void> {
  const [provider] = await tx
    .select({ id: liveProviderSessions.conversationId })
    .from(liveProviderSessions)
    .where(eq(liveProviderSessions.conversationId, row.id));
  const [stored] = await tx
    .insert(conversationMessages)
    .values({
      ...(provider ? { delivery: 'pending' as const } : {}),
      id: message.id,
      tenantId: row.tenantId,
      conversationId: row.id,
      botId: row.botId,
      role: 'visitor',
      text: message.text,
      ...translationColumns(row, message.translation),
      createdAt: message.at,
    })
    .returning();
  await tx
    .update(conversations)
    .set({ messageCount: sql`${conversations.messageCount} + 1`, lastMessageAt: message.at })
    .where(eq(conversations.id, row.id));
  await appendEvents(tx, row, [{ type: 'message', data: liveMessage(stored as NonNullable<typeof stored>) }]);
}

export { locked as lockedConversation };
export type { Tx };
