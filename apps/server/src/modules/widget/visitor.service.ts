import { randomUUID } from 'node:crypto';
import {
  type FeedbackRating,
  type HistoryTurn,
  HISTORY_TEXT_MAX,
  type ConversationStatus,
  type IntentReply,
  maskText,
  WIDGET_ERRORS,
  offersHandover,
  type WidgetConfig,
} from '@omnibot/contracts';
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  type ConversationRow,
  conversationMessages,
  conversations,
  messageFeedback,
  type StoredMessageSource,
} from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { BotReply } from '../bots/bot-engine';
import type { StoredBot } from '../bots/bots.service';
import { recordBotOrigin } from '../bots/bot-origins';
import { handoverHours } from './handover-hours';
import {
  handoverClosed,
  lockedConversation,
  type MessageTranslation,
  requestHandover,
  statusOfStored,
  visitorSaysToAgent,
} from '../live-agents/handover.service';
import { providerTargetOf } from '../live-agents/provider-sessions';
import type { ConversationTokens } from './conversation-token';

/** Earlier messages of a conversation given to the engine with a new one. */
const HISTORY_MESSAGES = 10;

const invalidConversation = () =>
  new AppError(403, 'widget/invalid-conversation', WIDGET_ERRORS['widget/invalid-conversation']);
const unknownMessage = () =>
  new AppError(404, 'widget/unknown-message', WIDGET_ERRORS['widget/unknown-message']);

/** Text as the bot's masking patterns leave it (unchanged while masking is off). */
function maskForBot(config: WidgetConfig, text: string): string {
  const { enableMasking, patterns, maskCharacter } = config.masking;
  return enableMasking ? maskText(text, patterns, maskCharacter) : text;
}

/**
 * The language a bot answers a message in: the visitor's when given, else the bot's default (automatic translation
 * may still answer in the language it detects).
 */
export function answerLanguageFor(config: WidgetConfig, requested: string | undefined): string {
  return requested ?? config.language.default_language;
}

/**
 * The host page a conversation is recorded under. The widget's frame calls from our own origin and names the page
 * that embeds it (as its loader saw it): that page is taken only when the bot allows it (or it is ours, /demo),
 * else nothing is recorded. A page calling directly is named by its browser (the Origin header).
 */
export function conversationOrigin(
  seen: { origin: string | null; own: boolean },
  hostOrigin: string | undefined,
  config: WidgetConfig,
): string | null {
  if (!seen.own || hostOrigin === undefined) return seen.origin;
  return hostOrigin === seen.origin || config.install.allowedOrigins.includes(hostOrigin) ? hostOrigin : null;
}

/** The conversation a token names for this bot; 403 for a forged token, another bot's, or one that is gone. */
export async function conversationOf(
  db: Db,
  tokens: ConversationTokens,
  bot: StoredBot,
  token: string,
): Promise<ConversationRow> {
  const id = tokens.verify(token, bot.row.id);
  if (id === null) throw invalidConversation();
  const [row] = await db
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.tenantId, bot.row.tenantId),
        eq(conversations.botId, bot.row.id),
        eq(conversations.id, id),
      ),
    )
    .limit(1);
  if (!row) throw invalidConversation();
  return row;
}

/** The last HISTORY_MESSAGES messages of a conversation as engine history, oldest first. */
export async function historyOf(db: Db, conversation: ConversationRow): Promise<HistoryTurn[]> {
  const rows = await db
    .select({ role: conversationMessages.role, text: conversationMessages.text })
    .from(conversationMessages)
    .where(
      and(
        eq(conversationMessages.tenantId, conversation.tenantId),
        eq(conversationMessages.conversationId, conversation.id),
        // What the system said (joined, left) is no part of the dialogue the engine continues.
        ne(conversationMessages.role, 'system'),
      ),
    )
    .orderBy(desc(conversationMessages.createdAt), desc(conversationMessages.id))
    .limit(HISTORY_MESSAGES);
  return rows.reverse().map((row) => ({
    role: row.role === 'visitor' ? 'user' : 'assistant',
    content: row.text.slice(0, HISTORY_TEXT_MAX),
  }));
}

/** One visitor message and what it needs before the engine answers: ids are chosen now so a stream can name them. */
export interface Turn {
  bot: StoredBot;
  /** The existing conversation, or null when this message starts one. */
  conversation: ConversationRow | null;
  conversationId: string;
  conversationToken: string;
  /** The visitor's text after masking: what is stored and what the engine sees. */
  text: string;
  visitorMessageId: string;
  receivedAt: Date;
  language: string;
  /** The allowed page origin the message came from, or null. */
  origin: string | null;
  /** For the person holding the conversation: the message in their language, made before the turn is stored. */
  translation?: MessageTranslation | null;
  /** The visitor's country, stored when this turn starts the conversation. */
  country?: string | null;
}

export function startTurn(
  tokens: ConversationTokens,
  input: {
    bot: StoredBot;
    conversation: ConversationRow | null;
    text: string;
    language: string;
    origin: string | null;
  },
): Turn {
  const conversationId = input.conversation?.id ?? randomUUID();
  return {
    ...input,
    text: maskForBot(input.bot.config, input.text),
    conversationId,
    conversationToken: tokens.sign(conversationId, input.bot.row.id),
    visitorMessageId: randomUUID(),
    receivedAt: new Date(),
  };
}

const storedSource = (source: BotReply['sources'][number]): StoredMessageSource => ({
  n: source.n,
  title: source.title,
  url: source.url,
  chunk_id: source.chunk_id,
  source_id: source.source_id,
  score: source.score,
});

/**
 * Stores a whole turn in one transaction: the conversation when new, the visitor message, the bot messages (the
 * last one with the sources and trace), the counters and the origin seen. Either all of it is stored or none.
 */
export async function storeTurn(db: Db, turn: Turn, answer: BotReply): Promise<IntentReply> {
  const { bot } = turn;
  const tenantId = bot.row.tenantId;
  const botId = bot.row.id;
  // A translated answer names the visitor's language; the conversation and both messages are in it.
  const language = answer.language ?? turn.language;
  // Strictly after the visitor's message, so the order survives a reply made within the same millisecond.
  const answeredAt = new Date(Math.max(Date.now(), turn.receivedAt.getTime() + 1));
  const botMessages = answer.messages.map((message, index) => ({
    id: randomUUID(),
    text: message.text,
    last: index === answer.messages.length - 1,
  }));
  const conversationRef = { tenantId, id: turn.conversationId };
  const relayedReply = (status: ConversationStatus): IntentReply => ({
    conversationToken: turn.conversationToken,
    visitorMessage: { id: turn.visitorMessageId, text: turn.text },
    messages: [],
    sources: [],
    fallback: false,
    handoverOffered: false,
    language,
    handover: status,
  });
  const visitorMessage = {
    id: turn.visitorMessageId,
    text: turn.text,
    at: turn.receivedAt,
    translation: turn.translation ?? null,
  };
  // A person held the conversation when it was read: the message goes to them in one statement, which checks that
  // under the lock. Only if the conversation moved meanwhile is the turn stored the long way below.
  const held = turn.conversation?.state === 'queued' || turn.conversation?.state === 'agent';
  if (turn.conversation !== null && held) {
    const stored = await visitorSaysToAgent(db, turn.conversation, visitorMessage, { lockHeld: false });
    if (stored) return relayedReply(statusOfStored(stored));
  }
  // Out of business hours the bot neither offers a person nor hands the conversation to one.
  const { inHours } = await handoverHours(db, bot);
  // Set when a person holds the conversation: the bot's answer is dropped, the visitor's message goes to them.
  let handover: ConversationStatus | undefined;
  let relayed = false;
  await db.transaction(async (tx) => {
    let streak = answer.fallback ? 1 : 0;
    if (turn.conversation === null) {
      await tx.insert(conversations).values({
        id: turn.conversationId,
        tenantId,
        botId,
        origin: turn.origin,
        country: turn.country ?? null,
        language,
        messageCount: 1 + botMessages.length,
        startedAt: turn.receivedAt,
        lastMessageAt: answeredAt,
        fallbackStreak: streak,
      });
    } else {
      // Locked before anything is written: a claim by a person and this answer cannot both act on the old state.
      const row = await lockedConversation(tx, tenantId, turn.conversationId);
      if (!row || row.state === 'closed') throw handoverClosed();
      if (row.state !== 'bot') {
        const stored = await visitorSaysToAgent(tx, row, visitorMessage, { lockHeld: true });
        if (stored) handover = statusOfStored(stored);
        relayed = true;
        return;
      }
      streak = answer.fallback ? row.fallbackStreak + 1 : 0;
    }
    await tx.insert(conversationMessages).values([
      {
        id: turn.visitorMessageId,
        tenantId,
        conversationId: turn.conversationId,
        botId,
        role: 'visitor' as const,
        text: turn.text,
        language,
        createdAt: turn.receivedAt,
      },
      ...botMessages.map((message) => ({
        id: message.id,
        tenantId,
        conversationId: turn.conversationId,
        botId,
        role: 'bot' as const,
        text: message.text,
        language,
        fallback: answer.fallback,
        sources: message.last ? answer.sources.map(storedSource) : [],
        trace: message.last
          ? {
              engine: answer.trace.engine,
              error: answer.trace.error,
              answer_id: answer.trace.answerId,
              ms: answer.trace.ms,
              ...(answer.trace.session === undefined ? {} : { session: answer.trace.session }),
            }
          : null,
        createdAt: answeredAt,
      })),
    ]);
    if (turn.conversation !== null) {
      await tx
        .update(conversations)
        .set({
          messageCount: sql`${conversations.messageCount} + ${1 + botMessages.length}`,
          lastMessageAt: answeredAt,
          fallbackStreak: streak,
        })
        .where(and(eq(conversations.tenantId, tenantId), eq(conversations.id, turn.conversationId)));
    }
    // A site is counted once per conversation it starts, from the first real request of the widget's frame.
    if (turn.conversation === null && turn.origin !== null)
      await recordBotOrigin(tx, { tenantId, botId, origin: turn.origin });
    // The engine asked for a person, or the bot fell back as often in a row as its configuration allows.
    const after = bot.config.engines.handoverAfterFallbacks;
    const reason = answer.handoverRequested ? 'engine' : after > 0 && streak >= after ? 'fallbacks' : null;
    if (reason !== null && offersHandover(bot.config, inHours)) {
      handover = await requestHandover(db, conversationRef, reason, tx, providerTargetOf(bot.config));
    }
  });
  return {
    conversationToken: turn.conversationToken,
    visitorMessage: { id: turn.visitorMessageId, text: turn.text },
    messages: relayed ? [] : botMessages.map(({ id, text }) => ({ id, text })),
    sources: relayed
      ? []
      : answer.sources.map((source) => ({ n: source.n, title: source.title, url: source.url })),
    fallback: relayed ? false : answer.fallback,
    handoverOffered: relayed || handover !== undefined || !inHours ? false : answer.handoverOffered,
    language,
    ...(handover === undefined ? {} : { handover }),
  };
}

/** Records (or replaces) a visitor's rating of a bot message of their own conversation; the comment is masked. */
export async function recordFeedback(
  db: Db,
  bot: StoredBot,
  conversation: ConversationRow,
  input: { messageId: string; rating: FeedbackRating; comment?: string | undefined },
): Promise<void> {
  const [message] = await db
    .select({ id: conversationMessages.id })
    .from(conversationMessages)
    .where(
      and(
        eq(conversationMessages.tenantId, conversation.tenantId),
        eq(conversationMessages.conversationId, conversation.id),
        eq(conversationMessages.id, input.messageId),
        eq(conversationMessages.role, 'bot'),
      ),
    )
    .limit(1);
  if (!message) throw unknownMessage();
  const comment =
    input.comment === undefined || input.comment.trim() === '' ? null : maskForBot(bot.config, input.comment);
  await db
    .insert(messageFeedback)
    .values({
      messageId: message.id,
      tenantId: conversation.tenantId,
      botId: conversation.botId,
      conversationId: conversation.id,
      rating: input.rating,
      comment,
    })
    .onConflictDoUpdate({
      target: messageFeedback.messageId,
      set: { rating: input.rating, comment, updatedAt: sql`now()` },
    });
}
