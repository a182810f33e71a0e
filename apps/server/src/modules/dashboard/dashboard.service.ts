import {
  type BotStatsQuery,
  CONVERSATION_EXCERPT_MAX,
  type ConversationListQuerySchema,
  type FeedbackCounts,
  type FeedbackLabels,
  TRANSCRIPT_MESSAGES_MAX,
  type WidgetConfig,
} from '@omnibot/contracts';
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import {
  bots,
  type ConversationMessageRow,
  type ConversationRow,
  conversationMessages,
  conversations,
  type MessageFeedbackRow,
  messageFeedback,
} from '../../db/schema';
import { notFound } from '../../lib/errors';
import type { Principal } from '../../lib/principal';

const DASHBOARD_BOT_NOT_FOUND = 'Bot not found';
const CONVERSATION_NOT_FOUND = 'Conversation not found';

type ConversationListInput = z.output<typeof ConversationListQuerySchema>;

const DAY_MS = 86_400_000;

/** The caller's own bot (another tenant's answers like an unknown one): its name and feedback button texts. */
async function ownedBot(db: Db, principal: Principal, id: string) {
  const [row] = await db
    .select({ id: bots.id, name: bots.name, config: bots.config })
    .from(bots)
    .where(and(eq(bots.tenantId, principal.tenantId), eq(bots.id, id)))
    .limit(1);
  if (!row) throw notFound(DASHBOARD_BOT_NOT_FOUND);
  return row;
}

/** The texts of a bot's feedback buttons (configuration texts, never secrets). */
const labelsOf = (config: WidgetConfig): FeedbackLabels => ({
  button1: config.feedback.button1Text,
  button2: config.feedback.button2Text,
  button3: config.feedback.button3Text,
});

/** Midnight UTC of the day `date` falls on. */
const utcMidnight = (date: Date) => Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `timestamp` as its UTC day, YYYY-MM-DD, the same on PGlite and PostgreSQL whatever the session time zone. */
const utcDay = (column: AnyPgColumn) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

const int = (value: unknown) => Number(value ?? 0);
const zeroFeedback = (): FeedbackCounts => ({ button1: 0, button2: 0, button3: 0 });

export interface DayCounts {
  day: string;
  conversations: number;
  visitor_messages: number;
  bot_messages: number;
  answered: number;
  fallback: number;
  feedback: FeedbackCounts;
}

/**
 * A bot's activity per UTC day over the last `days` days, today included: three grouped queries (conversations,
 * messages, feedback) over the (tenant, bot, time) indexes, then every day of the period filled in, zero or not.
 */
export async function botStats(
  db: Db,
  principal: Principal,
  botId: string,
  query: BotStatsQuery,
  now = new Date(),
) {
  const bot = await ownedBot(db, principal, botId);
  const tomorrow = utcMidnight(now) + DAY_MS;
  const start = tomorrow - query.days * DAY_MS;
  const from = new Date(start);
  const until = new Date(tomorrow);
  const tenant = principal.tenantId;

  const conversationDay = utcDay(conversations.startedAt);
  const started = await db
    .select({ day: conversationDay, n: count() })
    .from(conversations)
    .where(
      and(
        eq(conversations.tenantId, tenant),
        eq(conversations.botId, botId),
        gte(conversations.startedAt, from),
        lt(conversations.startedAt, until),
      ),
    )
    .groupBy(conversationDay);

  const messageDay = utcDay(conversationMessages.createdAt);
  const messages = await db
    .select({
      day: messageDay,
      visitor: sql<number>`count(*) filter (where ${conversationMessages.role} = 'visitor')`,
      answered: sql<number>`count(*) filter (where ${conversationMessages.role} = 'bot' and not ${conversationMessages.fallback})`,
      fallback: sql<number>`count(*) filter (where ${conversationMessages.role} = 'bot' and ${conversationMessages.fallback})`,
    })
    .from(conversationMessages)
    .where(
      and(
        eq(conversationMessages.tenantId, tenant),
        eq(conversationMessages.botId, botId),
        gte(conversationMessages.createdAt, from),
        lt(conversationMessages.createdAt, until),
      ),
    )
    .groupBy(messageDay);

  const feedbackDay = utcDay(messageFeedback.createdAt);
  const feedback = await db
    .select({ day: feedbackDay, rating: messageFeedback.rating, n: count() })
    .from(messageFeedback)
    .where(
      and(
        eq(messageFeedback.tenantId, tenant),
        eq(messageFeedback.botId, botId),
        gte(messageFeedback.createdAt, from),
        lt(messageFeedback.createdAt, until),
      ),
    )
    .groupBy(feedbackDay, messageFeedback.rating);

  const byDay = new Map<string, DayCounts>();
  for (let ms = start; ms < tomorrow; ms += DAY_MS) {
    const day = dayText(ms);
    byDay.set(day, {
      day,
      conversations: 0,
      visitor_messages: 0,
      bot_messages: 0,
      answered: 0,
      fallback: 0,
      feedback: zeroFeedback(),
    });
  }
  for (const row of started) {
    const entry = byDay.get(row.day);
    if (entry) entry.conversations = int(row.n);
  }
  for (const row of messages) {
    const entry = byDay.get(row.day);
    if (!entry) continue;
    entry.visitor_messages = int(row.visitor);
    entry.answered = int(row.answered);
    entry.fallback = int(row.fallback);
    entry.bot_messages = entry.answered + entry.fallback;
  }
  for (const row of feedback) {
    const entry = byDay.get(row.day);
    if (entry) entry.feedback[row.rating] += int(row.n);
  }

  const items = [...byDay.values()];
  const totals = items.reduce(
    (sum, day) => ({
      conversations: sum.conversations + day.conversations,
      visitor_messages: sum.visitor_messages + day.visitor_messages,
      bot_messages: sum.bot_messages + day.bot_messages,
      answered: sum.answered + day.answered,
      fallback: sum.fallback + day.fallback,
      feedback: {
        button1: sum.feedback.button1 + day.feedback.button1,
        button2: sum.feedback.button2 + day.feedback.button2,
        button3: sum.feedback.button3 + day.feedback.button3,
      },
    }),
    {
      conversations: 0,
      visitor_messages: 0,
      bot_messages: 0,
      answered: 0,
      fallback: 0,
      feedback: zeroFeedback(),
    },
  );
  return {
    bot_id: bot.id,
    days: query.days,
    from: dayText(start),
    to: dayText(tomorrow - DAY_MS),
    items,
    totals,
    feedback_labels: labelsOf(bot.config),
  };
}

/** `%`, `_` and `\` are matched literally in a search. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/gu, (char) => `\\${char}`)}%`;

export interface ConversationSummaryRow {
  row: ConversationRow;
  messageCount: number;
  fallbackCount: number;
  firstVisitorText: string | null;
  feedback: FeedbackCounts;
}

/**
 * A page of a bot's conversations, newest first, with the counts of each: one query for the page, then one
 * grouped query each for the message counts, the first visitor messages and the feedback of the page's rows.
 */
export async function listConversations(
  db: Db,
  principal: Principal,
  botId: string,
  query: ConversationListInput,
): Promise<{ items: ConversationSummaryRow[]; total: number }> {
  await ownedBot(db, principal, botId);
  const tenant = principal.tenantId;
  const filters: SQL[] = [eq(conversations.tenantId, tenant), eq(conversations.botId, botId)];
  if (query.from) filters.push(gte(conversations.startedAt, new Date(`${query.from}T00:00:00Z`)));
  if (query.to) {
    filters.push(lt(conversations.startedAt, new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS)));
  }
  if (query.q) {
    filters.push(
      sql`exists (select 1 from ${conversationMessages} where ${conversationMessages.conversationId} = ${conversations.id} and ${conversationMessages.tenantId} = ${tenant} and ${ilike(conversationMessages.text, likePattern(query.q))})`,
    );
  }
  const where = and(...filters);
  const [total] = await db.select({ n: count() }).from(conversations).where(where);
  const rows = await db
    .select()
    .from(conversations)
    .where(where)
    .orderBy(desc(conversations.startedAt), desc(conversations.id))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  if (rows.length === 0) return { items: [], total: total?.n ?? 0 };

  const ids = rows.map((row) => row.id);
  const ofPage = and(
    eq(conversationMessages.tenantId, tenant),
    inArray(conversationMessages.conversationId, ids),
  );
  const counts = await db
    .select({
      id: conversationMessages.conversationId,
      n: count(),
      fallback: sql<number>`count(*) filter (where ${conversationMessages.role} = 'bot' and ${conversationMessages.fallback})`,
    })
    .from(conversationMessages)
    .where(ofPage)
    .groupBy(conversationMessages.conversationId);
  const firsts = await db
    .selectDistinctOn([conversationMessages.conversationId], {
      id: conversationMessages.conversationId,
      text: sql<string>`left(${conversationMessages.text}, ${CONVERSATION_EXCERPT_MAX + 1})`,
    })
    .from(conversationMessages)
    .where(and(ofPage, eq(conversationMessages.role, 'visitor')))
    .orderBy(
      conversationMessages.conversationId,
      asc(conversationMessages.createdAt),
      asc(conversationMessages.id),
    );
  const ratings = await db
    .select({ id: messageFeedback.conversationId, rating: messageFeedback.rating, n: count() })
    .from(messageFeedback)
    .where(and(eq(messageFeedback.tenantId, tenant), inArray(messageFeedback.conversationId, ids)))
    .groupBy(messageFeedback.conversationId, messageFeedback.rating);

  const countOf = new Map(counts.map((row) => [row.id, row]));
  const firstOf = new Map(firsts.map((row) => [row.id, row.text]));
  const feedbackOf = new Map<string, FeedbackCounts>();
  for (const row of ratings) {
    const entry = feedbackOf.get(row.id) ?? zeroFeedback();
    entry[row.rating] += int(row.n);
    feedbackOf.set(row.id, entry);
  }
  return {
    total: total?.n ?? 0,
    items: rows.map((row) => {
      const first = firstOf.get(row.id);
      return {
        row,
        messageCount: int(countOf.get(row.id)?.n),
        fallbackCount: int(countOf.get(row.id)?.fallback),
        firstVisitorText:
          first === undefined
            ? null
            : first.length > CONVERSATION_EXCERPT_MAX
              ? `${first.slice(0, CONVERSATION_EXCERPT_MAX - 1)}…`
              : first,
        feedback: feedbackOf.get(row.id) ?? zeroFeedback(),
      };
    }),
  };
}

export interface TranscriptRows {
  conversation: ConversationRow;
  botName: string;
  labels: FeedbackLabels;
  messageTotal: number;
  messages: Array<{ message: ConversationMessageRow; feedback: MessageFeedbackRow | null }>;
}

/**
 * One conversation of the caller's tenant with its messages in order. Messages stored in one transaction share
 * their time, so the visitor's message comes before the bot's at the same instant.
 */
export async function conversationTranscript(
  db: Db,
  principal: Principal,
  id: string,
): Promise<TranscriptRows> {
  const tenant = principal.tenantId;
  const [found] = await db
    .select({ conversation: conversations, botName: bots.name, config: bots.config })
    .from(conversations)
    .innerJoin(bots, and(eq(bots.id, conversations.botId), eq(bots.tenantId, tenant)))
    .where(and(eq(conversations.tenantId, tenant), eq(conversations.id, id)))
    .limit(1);
  if (!found) throw notFound(CONVERSATION_NOT_FOUND);
  const ofConversation = and(
    eq(conversationMessages.tenantId, tenant),
    eq(conversationMessages.conversationId, id),
  );
  const [total] = await db.select({ n: count() }).from(conversationMessages).where(ofConversation);
  const rows = await db
    .select({ message: conversationMessages, feedback: messageFeedback })
    .from(conversationMessages)
    .leftJoin(
      messageFeedback,
      and(eq(messageFeedback.messageId, conversationMessages.id), eq(messageFeedback.tenantId, tenant)),
    )
    .where(ofConversation)
    .orderBy(
      asc(conversationMessages.createdAt),
      sql`case when ${conversationMessages.role} = 'visitor' then 0 else 1 end`,
      asc(conversationMessages.id),
    )
    .limit(TRANSCRIPT_MESSAGES_MAX);
  return {
    conversation: found.conversation,
    botName: found.botName,
    labels: labelsOf(found.config),
    messageTotal: total?.n ?? 0,
    messages: rows,
  };
}
