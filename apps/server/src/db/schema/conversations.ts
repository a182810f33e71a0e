import type { ConversationState, FeedbackRating, HandoverReason, MessageRole } from '@omnibot/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bots } from './bots';
import { tenants } from './tenants';
import { users } from './users';

/** A source a bot message cited, as stored with the message. */
export interface StoredMessageSource {
  n: number;
  title: string;
  url: string | null;
  chunk_id: string | null;
  source_id: string | null;
  score: number | null;
}

/** How a bot message was made: the engine, its error in plain words, the stored RAG answer and the time it took. */
export interface StoredMessageTrace {
  engine: string;
  error: { code: string; reason: string } | null;
  answer_id: string | null;
  ms: number;
  /** What a cloud engine keeps for the conversation (Lex's session state), sent back on its next turn. */
  session?: unknown;
}

/**
 * A visitor's conversation with a bot. The id is only ever handed out inside a signed token, so a visitor can
 * neither choose one nor name another's. `origin` is the host page the widget ran on.
 */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    origin: text('origin'),
    language: text('language').notNull(),
    messageCount: integer('message_count').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    /** Who holds it: the bot, the queue, a person, or nobody any more; every move checks the state it expects. */
    state: text('state').$type<ConversationState>().notNull().default('bot'),
    /** Why it went to a person; null while it never did. */
    handoverReason: text('handover_reason').$type<HandoverReason>(),
    queuedAt: timestamp('queued_at', { withTimezone: true }),
    /** The person answering (state agent); null when their account goes. */
    agentId: text('agent_id').references(() => users.id, { onDelete: 'set null' }),
    agentName: text('agent_name'),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** Fallback answers in a row: a bot may hand over after a number of them. */
    fallbackStreak: integer('fallback_streak').notNull().default(0),
    /**
     * The id of its newest stored event (0 before any), written with each event under the row lock: a statement that
     * locks the row reads it from the newest row version, so a notice names the event before it exactly even when
     * the statement waited for the lock (its snapshot would not see the events committed meanwhile).
     */
    lastEventId: bigint('last_event_id', { mode: 'number' }).notNull().default(0),
    /** The visitor's country (ISO 3166-1 alpha-2) from the bot's geolocation service; null when off or unknown. */
    country: text('country'),
  },
  (t) => [
    index('conversations_tenant_bot_started_idx').on(t.tenantId, t.botId, t.startedAt),
    index('conversations_last_message_idx').on(t.lastMessageAt),
    index('conversations_tenant_state_queued_idx').on(t.tenantId, t.state, t.queuedAt),
    check('conversations_state_check', sql`${t.state} in ('bot', 'queued', 'agent', 'closed')`),
  ],
);

/**
 * One message of a conversation. Visitor text is stored after the bot's masking patterns were applied; bot
 * messages keep the sources they cited, whether they were the fallback, and the trace of how they were made.
 */
export const conversationMessages = pgTable(
  'conversation_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    role: text('role').$type<MessageRole>().notNull(),
    text: text('text').notNull(),
    /** The person who wrote an agent message, as they were named when they wrote it. */
    authorId: text('author_id'),
    authorName: text('author_name'),
    /** The language `text` is in: the conversation's, or the one its author wrote in when it was translated. */
    language: text('language'),
    /** With automatic agent translation: the text in the other side's language (the agent's, or the visitor's). */
    translatedText: text('translated_text'),
    translatedLanguage: text('translated_language'),
    /** The translator failed: the original went to the other side as it was. */
    translationFailed: boolean('translation_failed').notNull().default(false),
    fallback: boolean('fallback').notNull().default(false),
    sources: jsonb('sources').$type<StoredMessageSource[]>().notNull().default([]),
    trace: jsonb('trace').$type<StoredMessageTrace | null>(),
    /**
     * A visitor message for a contact centre that holds the conversation: `pending` until the provider confirmed it,
     * then `sent` (`failed` when the hand-over ended first). Null for every other message.
     */
    delivery: text('delivery').$type<MessageDelivery>(),
    /** The contact centre's id of an agent message, so a back-filled copy is never stored twice. */
    providerMessageId: text('provider_message_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('conversation_messages_conversation_idx').on(t.conversationId, t.createdAt),
    index('conversation_messages_tenant_bot_created_idx').on(t.tenantId, t.botId, t.createdAt),
    uniqueIndex('conversation_messages_provider_message_key').on(t.conversationId, t.providerMessageId),
    index('conversation_messages_pending_idx')
      .on(t.conversationId, t.createdAt)
      .where(sql`${t.delivery} = 'pending'`),
    check('conversation_messages_role_check', sql`${t.role} in ('visitor', 'bot', 'agent', 'system')`),
    check('conversation_messages_delivery_check', sql`${t.delivery} in ('pending', 'sent', 'failed')`),
  ],
);

export type MessageDelivery = 'pending' | 'sent' | 'failed';

/**
 * A conversation handed to a contact centre (Genesys Cloud, Amazon Connect): the provider session's state, sealed by
 * the secret box (its tokens are credentials), and which server process holds its socket until when. A process
 * renews its lease while it holds the session; one whose lease lapsed (the process died) is taken over by another,
 * which resumes the session from the state and back-fills from the last message the provider sent.
 */
export const liveProviderSessions = pgTable(
  'live_provider_sessions',
  {
    conversationId: uuid('conversation_id')
      .primaryKey()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id').notNull(),
    provider: text('provider').$type<'genesys' | 'connect'>().notNull(),
    /** `starting` until the provider accepted the conversation, then `active`. */
    status: text('status').$type<'starting' | 'active'>().notNull().default('starting'),
    /** The provider's session state as JSON, sealed; null until it started. */
    sealedState: text('sealed_state'),
    holder: text('holder'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }).notNull().defaultNow(),
    /** The time of the newest message the provider sent: a resume back-fills from there. */
    lastInboundAt: timestamp('last_inbound_at', { withTimezone: true }),
    /** Resumes that failed in a row. */
    failures: integer('failures').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('live_provider_sessions_lease_idx').on(t.leaseUntil),
    check('live_provider_sessions_provider_check', sql`${t.provider} in ('genesys', 'connect')`),
    check('live_provider_sessions_status_check', sql`${t.status} in ('starting', 'active')`),
  ],
);

export type LiveProviderSessionRow = typeof liveProviderSessions.$inferSelect;

/** A visitor's rating of one bot message (one per message; a later rating replaces it). */
export const messageFeedback = pgTable(
  'message_feedback',
  {
    messageId: uuid('message_id')
      .primaryKey()
      .references(() => conversationMessages.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    rating: text('rating').$type<FeedbackRating>().notNull(),
    /** Masked with the bot's patterns like visitor messages. */
    comment: text('comment'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('message_feedback_tenant_bot_created_idx').on(t.tenantId, t.botId, t.createdAt),
    check('message_feedback_rating_check', sql`${t.rating} in ('button1', 'button2', 'button3')`),
  ],
);

/** The host-page origins a bot's widget was loaded from: first and last sighting and how often. */
export const botOrigins = pgTable(
  'bot_origins',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    botId: uuid('bot_id')
      .notNull()
      .references(() => bots.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    hits: integer('hits').notNull().default(1),
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull().defaultNow(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.botId, t.origin] }),
    index('bot_origins_tenant_bot_last_seen_idx').on(t.tenantId, t.botId, t.lastSeen),
  ],
);

/**
 * What happened in a conversation once a person could be involved, in order: the live stream of both sides reads
 * from here after the last id a client saw, so a reload, a dropped connection or a missed notification loses and
 * repeats nothing. `data` is the event as clients receive it.
 */
export const conversationEvents = pgTable(
  'conversation_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    type: text('type').$type<'message' | 'status' | 'ended'>().notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('conversation_events_conversation_idx').on(t.conversationId, t.id)],
);

export type ConversationRow = typeof conversations.$inferSelect;
export type ConversationEventRow = typeof conversationEvents.$inferSelect;
export type ConversationMessageRow = typeof conversationMessages.$inferSelect;
export type MessageFeedbackRow = typeof messageFeedback.$inferSelect;
