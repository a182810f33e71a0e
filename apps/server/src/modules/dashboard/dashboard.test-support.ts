import type { FeedbackRating } from '@omnibot/contracts';
import {
  conversationMessages,
  conversations,
  messageFeedback,
  type StoredMessageSource,
  type StoredMessageTrace,
} from '../../db/schema';
import type { TestApp } from '../../test/app';

/** Test helpers of the dashboard suites (not used by the server): conversations written straight to the tables. */

export interface FixtureMessage {
  role: 'visitor' | 'bot';
  text: string;
  /** Defaults to the conversation's start plus the message's position in seconds. */
  at?: Date;
  fallback?: boolean;
  sources?: StoredMessageSource[];
  trace?: StoredMessageTrace | null;
  feedback?: { rating: FeedbackRating; comment?: string | null; at?: Date };
}

export interface FixtureConversation {
  tenantId: string;
  botId: string;
  startedAt: Date;
  origin?: string | null;
  language?: string;
  messages: FixtureMessage[];
}

/** Writes a conversation with its messages and feedback as the widget routes store them; returns the ids. */
export async function insertConversation(t: TestApp, fixture: FixtureConversation) {
  const db = t.database.db;
  const times = fixture.messages.map(
    (message, index) => message.at ?? new Date(fixture.startedAt.getTime() + index * 1000),
  );
  const last = times.reduce((latest, time) => (time > latest ? time : latest), fixture.startedAt);
  const [conversation] = await db
    .insert(conversations)
    .values({
      tenantId: fixture.tenantId,
      botId: fixture.botId,
      origin: fixture.origin === undefined ? 'https://shop.example.com' : fixture.origin,
      language: fixture.language ?? 'en',
      messageCount: fixture.messages.length,
      startedAt: fixture.startedAt,
      lastMessageAt: last,
    })
    .returning({ id: conversations.id });
  if (!conversation) throw new Error('the conversation was not stored');
  const messageIds: string[] = [];
  for (const [index, message] of fixture.messages.entries()) {
    const at = times[index] ?? fixture.startedAt;
    const [row] = await db
      .insert(conversationMessages)
      .values({
        tenantId: fixture.tenantId,
        conversationId: conversation.id,
        botId: fixture.botId,
        role: message.role,
        text: message.text,
        language: fixture.language ?? 'en',
        fallback: message.fallback ?? false,
        sources: message.sources ?? [],
        trace:
          message.trace ??
          (message.role === 'bot' ? { engine: 'builtin', error: null, answer_id: null, ms: 12 } : null),
        createdAt: at,
      })
      .returning({ id: conversationMessages.id });
    if (!row) throw new Error('the message was not stored');
    messageIds.push(row.id);
    if (message.feedback) {
      const feedbackAt = message.feedback.at ?? at;
      await db.insert(messageFeedback).values({
        messageId: row.id,
        tenantId: fixture.tenantId,
        botId: fixture.botId,
        conversationId: conversation.id,
        rating: message.feedback.rating,
        comment: message.feedback.comment ?? null,
        createdAt: feedbackAt,
        updatedAt: feedbackAt,
      });
    }
  }
  return { id: conversation.id, messageIds };
}

/** Midnight UTC of today plus `days` days (negative: in the past) and `seconds` seconds. */
export function utcDayStart(days: number, seconds = 0, now = new Date()): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(midnight + days * 86_400_000 + seconds * 1000);
}

/** YYYY-MM-DD of today plus `days` days, in UTC. */
export const utcDayText = (days: number, now = new Date()) =>
  utcDayStart(days, 0, now).toISOString().slice(0, 10);
