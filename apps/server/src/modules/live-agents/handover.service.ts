import { randomUUID } from 'node:crypto';
import {
  type ConversationState,
  type ConversationStatus,
  type HandoverReason,
  LIVE_AGENT_ERRORS,
  type LiveMessage,
} from '@omnibot/contracts';
import { and, eq, lte, sql } from 'drizzle-orm';
import { type Db, executePrepared } from '../../db/client';
import { type ConversationRow, conversations, liveProviderSessions } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { BotEngine } from '../bots/bot-engine';
import { appendEvents, notifyAddedSql, notifyQueueMoved, type StoredEvent } from './live-events';
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

/** A message of a person or the system for a conversation, as `storeMessage` stores it. */
interface NewMessage {
  role: 'agent' | 'system' | 'visitor';
  text: string;
  /** Chosen by the caller when it already named the message (a visitor's turn); else made here. */
  id?: string;
  at?: Date;
  authorId?: string;
  authorName?: string;
  translation?: MessageTranslation | null;
}

/** Who may write the message, checked on the conversation's newest row under its lock. */
interface StoreRule {
  /**
   * `{ agentId }`: only while that person answers it; `held`: while a person holds it (queued or answered);
   * `checked`: the caller holds the lock in its transaction and checked the state itself.
   */
  may: { agentId: string } | 'held' | 'checked';
  /**
   * Only while the hand-over the caller read before is still the conversation's (its `queued_at`): a visitor's
   * message reads whether a contact centre holds the conversation in the statement's snapshot, which may predate a
   * hand-over committed while the statement waited for the lock. Each hand-over sets `queued_at` anew.
   */
  queuedAt?: Date | null;
  /** Nothing is stored when the conversation's bot translates for its agents: the caller translates first. */
  untranslatedOnly?: boolean;
}

/** The conversation as the statement that stored (or refused) a message found it under the lock. */
export interface StoredIn {
  state: ConversationState;
  agentId: string | null;
  agentName: string | null;
  /** The visitor's place in the queue while it waits (computed for visitors' messages only). */
  position: number | null;
  /** The bot has automatic agent translation switched on (read for agents' messages only). */
  translates: boolean;
}

interface StoreResult {
  row: StoredIn;
  /** Null when the rule refused it. */
  message: LiveMessage | null;
}

/**
 * Stores a message in one statement, its own transaction unless `db` is one: locks the conversation (`no key update`;
 * a statement that waited for the lock reads the newest row), checks the rule, inserts the message, counts it on the
 * conversation, appends its event and notifies every process at commit with the event in the notice, naming the
 * conversation's `last_event_id` before it, read from the locked row (so it is exact). Events commit in the order of
 * their ids: their ids are taken under the lock, which is held until commit. Null when it is not a conversation of the
 * tenant; a message the rule refused is not stored (`message` null) and the row says why.
 */
async function storeMessage(
  db: Executor,
  conversation: { tenantId: string; id: string },
  message: NewMessage,
  rule: StoreRule,
): Promise<StoreResult | null> {
  const id = message.id ?? randomUUID();
  const at = message.at ?? new Date();
  const { translation } = message;
  const fields = {
    id,
    role: message.role,
    text: message.text,
    authorName: message.authorName ?? null,
    createdAt: at,
    translatedText: translation?.translation?.text ?? null,
    translatedLanguage: translation?.translation?.language ?? null,
    translationFailed: translation?.failed ?? false,
  };
  // The event as both sides receive it, but for its language: the author's when detected, else the conversation's,
  // which the statement reads under the lock and adds.
  const base = liveMessage({ ...fields, language: null });
  const visitor = message.role === 'visitor';
  const { may } = rule;
  const translates =
    typeof may === 'object'
      ? sql`coalesce((select (b.config -> 'language' ->> 'autoAgentTranslate')::boolean from bots b
          where b.id = c.bot_id), false)`
      : sql`false`;
  const allowed =
    typeof may === 'object'
      ? sql`l.state = 'agent' and l.agent_id = ${may.agentId}::text
          and not (${rule.untranslatedOnly === true}::boolean and l.translates)`
      : may === 'held'
        ? sql`l.state in ('queued', 'agent')`
        : sql`true`;
  const sameHandover =
    rule.queuedAt === undefined
      ? sql``
      : sql` and l.queued_at is not distinct from ${rule.queuedAt?.toISOString() ?? null}::timestamptz`;
  const delivery = visitor
    ? sql`case when exists (select 1 from live_provider_sessions s where s.conversation_id = a.id)
        then 'pending' end`
    : sql`null`;
  const position = visitor
    ? sql`case when l.state = 'queued' and l.queued_at is not null then (select count(*)::int from conversations q
        where q.tenant_id = l.tenant_id and q.state = 'queued' and q.queued_at <= l.queued_at) end`
    : sql`null::int`;
  const rows = await executePrepared<{
    state: ConversationState;
    agent_id: string | null;
    agent_name: string | null;
    translates: boolean;
    position: number | null;
    language: string | null;
    event_id: string | number | null;
  }>(
    db,
    'live_message',
    sql`
    with locked as (
      select c.id, c.tenant_id, c.bot_id, c.language, c.state, c.agent_id, c.agent_name, c.queued_at,
        c.last_event_id, ${translates} as translates
      from conversations c
      where c.tenant_id = ${conversation.tenantId} and c.id = ${conversation.id}::uuid
      for no key update
    ), allowed as (
      select l.* from locked l where ${allowed}${sameHandover}
    ), message as (
      insert into conversation_messages (id, tenant_id, conversation_id, bot_id, role, text, author_id, author_name,
        language, translated_text, translated_language, translation_failed, delivery, created_at)
      select ${id}::uuid, a.tenant_id, a.id, a.bot_id, ${message.role}::text, ${message.text}::text,
        ${message.authorId ?? null}::text, ${message.authorName ?? null}::text,
        coalesce(${translation?.language ?? null}::text, a.language), ${translation?.translation?.text ?? null}::text,
        ${translation?.translation?.language ?? null}::text, ${translation?.failed ?? false}::boolean, ${delivery},
        ${at.toISOString()}::timestamptz
      from allowed a
      returning language
    ), added as (
      insert into conversation_events (tenant_id, conversation_id, type, data)
      select ${conversation.tenantId}::text, ${conversation.id}::uuid, 'message',
        ${JSON.stringify(base)}::jsonb || case when m.language is null or m.language = '' then '{}'::jsonb
          else jsonb_build_object('language', m.language) end
      from message m
      returning id, type, data
    ), counted as (
      update conversations c
      set message_count = c.message_count + 1, last_message_at = ${at.toISOString()}::timestamptz,
        last_event_id = added.id
      from added
      where c.tenant_id = ${conversation.tenantId} and c.id = ${conversation.id}::uuid
    ), ${notifyAddedSql(conversation, sql`(select last_event_id from allowed)`, null)}
    select l.state, l.agent_id, l.agent_name, l.translates, ${position} as position,
      (select language from message) as language, (select max(id) from added) as event_id,
      (select count(*) from notified) as notified
    from locked l`,
  );
  const [found] = rows;
  if (!found) return null;
  const row: StoredIn = {
    state: found.state,
    agentId: found.agent_id,
    agentName: found.agent_name,
    position: found.position,
    translates: found.translates,
  };
  if (found.event_id === null) return { row, message: null };
  return { row, message: liveMessage({ ...fields, language: found.language }) };
}

/**
 * A message written in a conversation by a person or the system, stored with its event in the caller's
 * transaction, and counted on the conversation. The caller holds the row lock and checked the state.
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
  const stored = await storeMessage(tx, row, message, { may: 'checked' });
  if (!stored?.message) throw new Error(`conversation ${row.id} was not locked by its caller`);
  return stored.message;
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
 * The agent's message made ready before it is stored: a translator may take seconds, and the conversation is not
 * kept locked meanwhile. Nothing is prepared unless the agent answers the conversation now; storing checks that again.
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
 * A message of the agent to the visitor, stored in one statement while the agent answers the conversation (409
 * inbox/not-yours otherwise); null when it is not a conversation of the agent's tenant. When its bot translates for
 * its agents, that statement stores nothing: the message is made ready by `prepare` first (outside any lock) and
 * stored by a second one, which checks the state again.
 */
export async function agentSays(
  db: Db,
  agent: InboxAgent,
  id: string,
  text: string,
  prepare?: PrepareMessage,
): Promise<LiveMessage | null> {
  const conversation = { tenantId: agent.tenantId, id };
  const message = { role: 'agent' as const, text, authorId: agent.userId, authorName: agent.name };
  const may = { agentId: agent.userId };
  let stored = await storeMessage(db, conversation, message, {
    may,
    untranslatedOnly: prepare !== undefined,
  });
  if (stored?.message === null && prepare && stored.row.translates) {
    const translation = await preparedBeforeStoring(db, agent, id, prepare);
    stored = await storeMessage(db, conversation, { ...message, translation }, { may });
  }
  if (!stored) return null;
  if (!stored.message) throw liveAgentError('inbox/not-yours');
  return stored.message;
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

/** What a visitor's message to the person holding the conversation is. */
export interface VisitorMessage {
  id: string;
  text: string;
  at: Date;
  translation?: MessageTranslation | null;
}

/**
 * A visitor's message while a person holds the conversation (queued or answering): stored and relayed, never given
 * to the bot, with its translation when one was made before. For a contact centre the message waits as `pending`
 * until the relay holding its session sent it (the stored event wakes that relay).
 *
 * Alone (`db` the database): one statement of its own, stored only while a person holds the conversation and the
 * hand-over of `row` (the conversation as read before) is still its own; null when it was not stored (the
 * conversation moved meanwhile: the caller stores the turn in a transaction instead). In a transaction (`db` the
 * transaction, `lockHeld`): it locked the row and checked that a person holds it.
 */
export async function visitorSaysToAgent(
  db: Executor,
  row: ConversationRow,
  message: VisitorMessage,
  { lockHeld }: { lockHeld: boolean },
): Promise<StoredIn | null> {
  const stored = await storeMessage(
    db,
    row,
    { role: 'visitor', ...message },
    lockHeld ? { may: 'checked' } : { may: 'held', queuedAt: row.queuedAt },
  );
  return stored?.message ? stored.row : null;
}

/** Where a conversation stands for its visitor, from the row a message was stored under. */
export const statusOfStored = (row: StoredIn): ConversationStatus => ({
  state: row.state,
  position: row.position,
  agent: row.state === 'agent' && row.agentName !== null ? { name: row.agentName } : null,
});

export { locked as lockedConversation };
export type { Tx };
