import { z } from 'zod';
import { CaseSummarySchema } from './case-summaries';
import { MESSAGE_ROLES } from './live-agents';
import { safeString } from './text';
import { FEEDBACK_RATINGS } from './widget-api';

/** The periods the dashboard offers; the API accepts any whole number of days from 1 to BOT_STATS_DAYS_MAX. */
export const BOT_STATS_PERIODS = [7, 30, 90] as const;
const BOT_STATS_DAYS_MAX = 90;
/** The longest text the conversation log searches for. */
export const CONVERSATION_SEARCH_MAX = 200;
/** How much of a conversation's first visitor message the log shows. */
export const CONVERSATION_EXCERPT_MAX = 160;
/** The most messages one transcript holds; a longer conversation says how many it has in `message_total`. */
export const TRANSCRIPT_MESSAGES_MAX = 1000;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A UTC calendar day written YYYY-MM-DD (a real date: 2026-02-30 is refused). */
const daySchema = (what: string) =>
  z
    .string(`${what} is a date written YYYY-MM-DD.`)
    .regex(DAY, `${what} is a date written YYYY-MM-DD.`)
    .refine((value) => {
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
    }, `${what} is not a calendar date.`);

export const BotStatsQuerySchema = z.strictObject({
  days: z.coerce
    .number('days is a number of days.')
    .int('days is a whole number of days.')
    .min(1, 'days is at least 1.')
    .max(BOT_STATS_DAYS_MAX, `days is at most ${BOT_STATS_DAYS_MAX}.`)
    .default(30),
});
export type BotStatsQuery = z.infer<typeof BotStatsQuerySchema>;

/** How many bot messages were rated with each feedback button. */
const FeedbackCountsSchema = z.object({
  button1: z.number().int(),
  button2: z.number().int(),
  button3: z.number().int(),
});
export type FeedbackCounts = z.infer<typeof FeedbackCountsSchema>;

/** The texts of the bot's feedback buttons, as the visitor saw them. */
const FeedbackLabelsSchema = z.object({
  button1: z.string(),
  button2: z.string(),
  button3: z.string(),
});
export type FeedbackLabels = z.infer<typeof FeedbackLabelsSchema>;

const countsShape = {
  /** Conversations started. */
  conversations: z.number().int(),
  visitor_messages: z.number().int(),
  /** Bot messages: `answered` + `fallback`. */
  bot_messages: z.number().int(),
  answered: z.number().int(),
  /** Bot messages that were the fallback text (no answer). */
  fallback: z.number().int(),
  /** Feedback given on the day, by the rating it holds now. */
  feedback: FeedbackCountsSchema,
};

const BotStatsDaySchema = z.object({
  /** The UTC day, YYYY-MM-DD. */
  day: z.string(),
  ...countsShape,
});

const BotStatsTotalsSchema = z.object(countsShape);

/** A bot's activity per UTC day over the last `days` days (today included), every day present, oldest first. */
export const BotStatsSchema = z.object({
  bot_id: z.string(),
  days: z.number().int(),
  from: z.string(),
  to: z.string(),
  items: z.array(BotStatsDaySchema),
  totals: BotStatsTotalsSchema,
  feedback_labels: FeedbackLabelsSchema,
});
export type BotStats = z.infer<typeof BotStatsSchema>;

/**
 * The conversation log of a bot, newest first. `q` finds conversations with a message containing it (letters
 * as typed: `%` and `_` are ordinary characters); `from`/`to` are UTC days, both included, of when a
 * conversation started.
 */
export const ConversationListQuerySchema = z
  .strictObject({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(20),
    q: safeString()
      .trim()
      .max(CONVERSATION_SEARCH_MAX, `The search has at most ${CONVERSATION_SEARCH_MAX} characters.`)
      .optional(),
    from: daySchema('from').optional(),
    to: daySchema('to').optional(),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: 'from must not be after to.',
    path: ['from'],
  });
export type ConversationListQuery = z.infer<typeof ConversationListQuerySchema>;

const ConversationSummarySchema = z.object({
  id: z.string(),
  bot_id: z.string(),
  /** The host page the widget ran on. */
  origin: z.string().nullable(),
  /** The visitor's country (ISO 3166-1 alpha-2) when the bot's geolocation is on and found one. */
  country: z.string().nullable().optional(),
  language: z.string(),
  started_at: z.string(),
  last_message_at: z.string(),
  message_count: z.number().int(),
  /** The start of the first visitor message (masked as stored), at most CONVERSATION_EXCERPT_MAX characters. */
  first_visitor_text: z.string().nullable(),
  fallback_count: z.number().int(),
  feedback: FeedbackCountsSchema,
});
export type ConversationSummary = z.infer<typeof ConversationSummarySchema>;

export const ConversationListSchema = z.object({
  items: z.array(ConversationSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

export const ConversationIdParamsSchema = z.object({ id: z.uuid('Unknown conversation id') });

/** A source a bot message cited. */
const TranscriptSourceSchema = z.object({
  n: z.number().int(),
  title: z.string(),
  url: z.string().nullable(),
});

/** How a bot message was made: the engine, its failure in plain words, and how long it took. */
const TranscriptTraceSchema = z.object({
  engine: z.string(),
  error: z.object({ code: z.string(), reason: z.string() }).nullable(),
  ms: z.number(),
});

/** The visitor's rating of a bot message, with the text of the button they pressed. */
const TranscriptFeedbackSchema = z.object({
  rating: z.enum(FEEDBACK_RATINGS),
  label: z.string(),
  comment: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

const TranscriptMessageSchema = z.object({
  id: z.string(),
  role: z.enum(MESSAGE_ROLES),
  /** As stored: visitor text after the bot's masking patterns were applied. */
  text: z.string(),
  /** The person who wrote an agent message; null for the visitor, the bot and the system. */
  author: z.string().nullable(),
  language: z.string().nullable(),
  created_at: z.string(),
  fallback: z.boolean(),
  sources: z.array(TranscriptSourceSchema),
  trace: TranscriptTraceSchema.nullable(),
  feedback: TranscriptFeedbackSchema.nullable(),
});
export type TranscriptMessage = z.infer<typeof TranscriptMessageSchema>;

/** One conversation with its messages in order (at most TRANSCRIPT_MESSAGES_MAX of them). */
export const ConversationSchema = z.object({
  id: z.string(),
  bot_id: z.string(),
  bot_name: z.string(),
  origin: z.string().nullable(),
  /** The visitor's country (ISO 3166-1 alpha-2) when the bot's geolocation is on and found one. */
  country: z.string().nullable().optional(),
  language: z.string(),
  started_at: z.string(),
  last_message_at: z.string(),
  message_total: z.number().int(),
  messages: z.array(TranscriptMessageSchema),
  /** The case summaries written for it (at hand-over, at close), oldest first. */
  summaries: z.array(CaseSummarySchema),
});
export type Conversation = z.infer<typeof ConversationSchema>;
