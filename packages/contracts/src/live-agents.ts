import { z } from 'zod';
import { CaseSummarySchema } from './case-summaries';
import { safeString } from './text';
import { languageCodeSchema } from './widget-config';
import { VISITOR_TEXT_MAX } from './widget-protocol';

/**
 * Who holds a conversation: the bot answers (`bot`), the visitor waits for a person (`queued`), a person answers
 * (`agent`), or it is over (`closed`). It moves bot -> queued -> agent -> closed, and agent -> bot when the person
 * hands it back; every move checks the state it expects, so two agents claiming at once cannot both win.
 */
export const CONVERSATION_STATES = ['bot', 'queued', 'agent', 'closed'] as const;
export type ConversationState = (typeof CONVERSATION_STATES)[number];

/** Who wrote a message: the visitor, the bot, a person (agent), or the system (joined, left, ended). */
export const MESSAGE_ROLES = ['visitor', 'bot', 'agent', 'system'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/** Why a conversation went to a person. */
export const HANDOVER_REASONS = ['visitor', 'engine', 'fallbacks'] as const;
export type HandoverReason = (typeof HANDOVER_REASONS)[number];

/** The longest text an agent sends in one message (as a visitor's). */
export const AGENT_TEXT_MAX = VISITOR_TEXT_MAX;
/** An event id is a decimal sequence number; anything longer is not one. */
const EVENT_ID_MAX = 20;

const CONVERSATION_TOKEN_MAX = 512;
const conversationToken = () =>
  z
    .string('The conversation token is a string.')
    .min(1, 'The conversation token is empty.')
    .max(CONVERSATION_TOKEN_MAX, 'This is not a conversation token.');

/** An event id the client last saw (`Last-Event-ID`): events after it are sent, none before. */
export const eventIdSchema = () =>
  z
    .string('The event id is a string.')
    .regex(/^\d+$/, 'The event id is a number.')
    .max(EVENT_ID_MAX, 'The event id is not one of ours.');

/** The visitor asks for a person ("Talk to an agent"). */
export const HandoverBodySchema = z.strictObject({
  botId: z.uuid('Unknown bot'),
  conversationToken: conversationToken(),
  /** The visitor's language, so the agent knows it (and automatic agent translation can use it). */
  language: languageCodeSchema().optional(),
});
export type HandoverBody = z.input<typeof HandoverBodySchema>;

/** Where a conversation stands, as its visitor sees it. */
export const ConversationStatusSchema = z.object({
  state: z.enum(CONVERSATION_STATES),
  /** 1 for the next to be answered; null unless queued. */
  position: z.number().int().nullable(),
  /** The person answering, once one has joined. */
  agent: z.object({ name: z.string() }).nullable(),
});
export type ConversationStatus = z.infer<typeof ConversationStatusSchema>;

/** The visitor's side of the live conversation: events after `after` (or the Last-Event-ID header), as they come. */
export const ConversationEventsBodySchema = z.strictObject({
  botId: z.uuid('Unknown bot'),
  conversationToken: conversationToken(),
  after: eventIdSchema().optional(),
});
export type ConversationEventsBody = z.input<typeof ConversationEventsBodySchema>;

/** The visitor is typing (sent at most every few seconds while they type). */
export const VisitorTypingBodySchema = z.strictObject({
  botId: z.uuid('Unknown bot'),
  conversationToken: conversationToken(),
});

/** A message in the other side's language: the agent's for a visitor's message, the visitor's for an agent's. */
export const LiveTranslationSchema = z.object({ text: z.string(), language: z.string() });
export type LiveTranslation = z.infer<typeof LiveTranslationSchema>;

/**
 * A message of a conversation as both sides see it. `text` is always what its author wrote; with automatic agent
 * translation a visitor's or an agent's message also carries its `translation`, or `untranslated` when the translator
 * failed and the original went to the other side as it was.
 */
export const LiveMessageSchema = z.object({
  id: z.string(),
  role: z.enum(MESSAGE_ROLES),
  text: z.string(),
  /** The person who wrote an agent message (their display name); null for the visitor, the bot and the system. */
  author: z.string().nullable(),
  at: z.string(),
  /** The language `text` is in, when known. */
  language: z.string().optional(),
  translation: LiveTranslationSchema.optional(),
  untranslated: z.boolean().optional(),
});
export type LiveMessage = z.infer<typeof LiveMessageSchema>;

/**
 * The Server-Sent Events of a live conversation, each with an `id:` (its sequence number) the client sends back as
 * `Last-Event-ID` to resume without losing or repeating one: `message` (LiveMessage), `status` (ConversationStatus),
 * `typing` ({role, name}; not stored, so not resumed), `ended` ({reason}).
 */
export const LIVE_EVENTS = ['message', 'status', 'typing', 'ended'] as const;
export type LiveEvent = (typeof LIVE_EVENTS)[number];
export const LiveTypingSchema = z.object({ role: z.enum(['agent', 'visitor']), name: z.string().nullable() });
export const LiveEndedSchema = z.object({ reason: z.string() });

/** A conversation as the agent inbox lists it. */
export const InboxConversationSchema = z.object({
  id: z.string(),
  bot: z.object({ id: z.string(), name: z.string() }),
  state: z.enum(CONVERSATION_STATES),
  reason: z.enum(HANDOVER_REASONS).nullable(),
  language: z.string(),
  origin: z.string().nullable(),
  /** The visitor's country (ISO 3166-1 alpha-2) when the bot's geolocation is on and found one. */
  country: z.string().nullable().optional(),
  /** When the visitor asked for a person; null while the bot answers. */
  queued_at: z.string().nullable(),
  /** The person answering. */
  agent: z.object({ id: z.string(), name: z.string() }).nullable(),
  last_message: z.object({ role: z.enum(MESSAGE_ROLES), text: z.string(), at: z.string() }).nullable(),
  message_count: z.number().int(),
});
export type InboxConversation = z.infer<typeof InboxConversationSchema>;

export const InboxListSchema = z.object({ items: z.array(InboxConversationSchema) });
export type InboxList = z.infer<typeof InboxListSchema>;

/** One conversation of the inbox with its whole transcript, the bot's part first. */
export const InboxTranscriptSchema = z.object({
  conversation: InboxConversationSchema,
  messages: z.array(LiveMessageSchema),
  /** The newest case summary written for it, the first thing the agent reads; null when none was written. */
  summary: CaseSummarySchema.nullable(),
});
export type InboxTranscript = z.infer<typeof InboxTranscriptSchema>;

/**
 * What the signed-in person chose for their work in the inbox: the language visitors' messages are translated into
 * when a bot translates between visitor and agent (and that the agent's replies are written in). `en` until chosen.
 */
export const AgentPreferencesSchema = z.object({ language: z.string() });
export type AgentPreferences = z.infer<typeof AgentPreferencesSchema>;

/** The agent language when a person has not chosen one. */
export const DEFAULT_AGENT_LANGUAGE = 'en';

export const UpdateAgentPreferencesBodySchema = z.strictObject({ language: languageCodeSchema() });
export type UpdateAgentPreferencesBody = z.input<typeof UpdateAgentPreferencesBodySchema>;

export const InboxIdParamsSchema = z.strictObject({ id: z.uuid('Unknown conversation') });

export const AgentMessageBodySchema = z.strictObject({
  text: safeString()
    .refine((value) => value.trim().length > 0, 'The text is empty.')
    .refine(
      (value) => value.length <= AGENT_TEXT_MAX,
      `The text is longer than ${AGENT_TEXT_MAX} characters.`,
    ),
});
export type AgentMessageBody = z.input<typeof AgentMessageBodySchema>;

/**
 * The inbox's Server-Sent Events (signed in): `changed` ({conversationId, state}) when a conversation of the caller's
 * organisation is queued, claimed, handed back or closed, `message` ({conversationId, message}) for a message of a
 * conversation the caller answers, `typing` ({conversationId}) when its visitor types, `summary` ({conversationId})
 * when a case summary of it was written.
 */
export const INBOX_EVENTS = ['changed', 'message', 'typing', 'summary'] as const;
export type InboxEvent = (typeof INBOX_EVENTS)[number];

/**
 * The inbox's stream of the whole organisation (no query), or of one conversation (`conversation`): then its stored
 * events carry ids, and `after` (or the Last-Event-ID header) resumes after the last one the client has, each event
 * once and in order, as the visitor's stream does.
 */
export const InboxEventsQuerySchema = z
  .strictObject({
    conversation: z.uuid('Unknown conversation').optional(),
    after: eventIdSchema().optional(),
  })
  .refine((query) => query.after === undefined || query.conversation !== undefined, {
    message: 'An event id names an event of one conversation: give the conversation too.',
    path: ['after'],
  });
export type InboxEventsQuery = z.input<typeof InboxEventsQuerySchema>;

/**
 * The inbox at a glance (signed in): whether any bot of the caller's organisation hands over to the inbox (the
 * console shows the Inbox entry only then), how many conversations wait for a person, and how many the caller answers.
 */
export const InboxSummarySchema = z.object({
  live_agents: z.boolean(),
  queued: z.number().int(),
  mine: z.number().int(),
});
export type InboxSummary = z.infer<typeof InboxSummarySchema>;
