import { z } from 'zod';
import { ConversationStatusSchema } from './live-agents';
import { safeString } from './text';
import { languageCodeSchema } from './widget-config';
import { VISITOR_TEXT_MAX } from './widget-protocol';

const FEEDBACK_COMMENT_MAX = 1000;
/** A signed conversation token is well under this; anything longer is not one of ours. */
const CONVERSATION_TOKEN_MAX = 512;

/** An origin longer than this is not one a browser names. */
const HOST_ORIGIN_MAX = 300;

const botId = () => z.uuid('Unknown bot');
const conversationToken = () =>
  z
    .string('The conversation token is a string.')
    .min(1, 'The conversation token is empty.')
    .max(CONVERSATION_TOKEN_MAX, 'This is not a conversation token.');
/**
 * A visitor's text. The length limit is checked by the route first (413), so the schema only requires some text;
 * the cap here stops a body that slipped past that check from reaching the engine.
 */
const visitorText = () =>
  safeString()
    .refine((value) => value.trim().length > 0, 'The text is empty.')
    .refine(
      (value) => value.length <= VISITOR_TEXT_MAX,
      `The text is longer than ${VISITOR_TEXT_MAX} characters.`,
    );

/**
 * A visitor's message to a bot. Without a conversation token the server starts a conversation and returns its token;
 * a token is only ever issued by the server and is bound to one bot.
 * Ask for `Accept: text/event-stream` to receive the answer as it is made.
 */
export const IntentBodySchema = z.strictObject({
  botId: botId(),
  conversationToken: conversationToken().optional(),
  text: visitorText(),
  /** The visitor's language; the bot's default language when left out. */
  language: languageCodeSchema().optional(),
  /**
   * The page the widget's frame is embedded in, as its loader saw it. The server records it for the conversation only
   * when the bot allows that origin; the frame's own requests carry the server's origin.
   */
  hostOrigin: z
    .string('The host origin is a string.')
    .max(HOST_ORIGIN_MAX, 'This is not an origin.')
    .regex(/^https?:\/\/[^/?#\s]+$/, 'The host origin is a scheme, host and optional port.')
    .optional(),
});
export type IntentBody = z.input<typeof IntentBodySchema>;

/** A source a bot answer cites: what the widget shows as a link. */
const IntentSourceSchema = z.object({
  n: z.number().int(),
  title: z.string(),
  url: z.string().nullable(),
});
export type IntentSource = z.infer<typeof IntentSourceSchema>;

/** A bot message as the widget receives it; `id` is what feedback refers to. */
const IntentMessageSchema = z.object({
  id: z.string(),
  text: z.string(),
});
export type IntentMessage = z.infer<typeof IntentMessageSchema>;

export const IntentReplySchema = z.object({
  conversationToken: z.string(),
  /** The visitor's message as stored (masked when masking is on). */
  visitorMessage: IntentMessageSchema,
  messages: z.array(IntentMessageSchema),
  sources: z.array(IntentSourceSchema),
  /** True when the bot had no answer and gave its fallback text. */
  fallback: z.boolean(),
  /** True when the widget should offer a live agent. */
  handoverOffered: z.boolean(),
  /** The language the answer is in (after any translation). */
  language: z.string(),
  /**
   * Present when a person holds the conversation or it was just handed to one: the bot did not answer (or answered
   * and handed over), and what the person says arrives over the live stream (`/v1/conversation/events`).
   */
  handover: ConversationStatusSchema.optional(),
});
export type IntentReply = z.infer<typeof IntentReplySchema>;

/**
 * Events of the streaming variant, in order: `conversation` ({conversationToken, visitorMessage}) once, `delta`
 * ({text}) as the answer is made, `reset` ({}) when what was streamed must be discarded (the answer fell back),
 * then `reply` (an IntentReply) once, or `error` ({code, message}) instead.
 */
export type IntentStreamEvent = 'conversation' | 'delta' | 'reset' | 'reply' | 'error';

export const FEEDBACK_RATINGS = ['button1', 'button2', 'button3'] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

/** A visitor's rating of one bot message of their own conversation; a later rating replaces an earlier one. */
export const FeedbackBodySchema = z.strictObject({
  botId: botId(),
  conversationToken: conversationToken(),
  messageId: z.uuid('Unknown message'),
  rating: z.enum(FEEDBACK_RATINGS, `The rating is one of: ${FEEDBACK_RATINGS.join(', ')}.`),
  comment: safeString()
    .max(FEEDBACK_COMMENT_MAX, `The comment has at most ${FEEDBACK_COMMENT_MAX} characters.`)
    .optional(),
});
export type FeedbackBody = z.input<typeof FeedbackBodySchema>;

/** Detect a text's language and, with `target`, translate it. */
export const LanguageBodySchema = z.strictObject({
  botId: botId(),
  conversationToken: conversationToken().optional(),
  text: visitorText(),
  target: languageCodeSchema().optional(),
});

export const LanguageReplySchema = z.object({
  /** The detected language of `text`. */
  detected: z.string(),
  /** `text` in the target language; the text unchanged without a target or when it already is in it. */
  text: z.string(),
  target: z.string().nullable(),
});

/** Audio (audio/mpeg) of a text read aloud in the bot's server voice. */
export const TtsBodySchema = z.strictObject({
  botId: botId(),
  conversationToken: conversationToken().optional(),
  text: visitorText(),
  language: languageCodeSchema().optional(),
});
export type TtsBody = z.input<typeof TtsBodySchema>;

const texts = z.array(z.string());
const WidgetTextsSchema = z.object({
  description: z.string(),
  welcomeText: z.string(),
  welcomeMenu: texts,
  popupMenu: texts,
  start_suggestions: texts,
  feedback: z.object({
    button1Text: z.string(),
    button2Text: z.string(),
    button3Text: z.string(),
    disclaimer: z.string(),
  }),
  titles: z.object({
    muteTitle: z.string(),
    unMuteTitle: z.string(),
    inputTitle: z.string(),
    sendTitle: z.string(),
    microphoneTitle: z.string(),
    recognitionUnavailable: z.string(),
  }),
  closeText: z.string(),
  offlineText: z.string(),
});

/** A bot's widget texts in one language: `translated` false when they are the bot's own (its language, or no translator). */
export const WidgetTextsReplySchema = z.object({
  language: z.string(),
  translated: z.boolean(),
  texts: WidgetTextsSchema,
});
export type WidgetTextsReply = z.infer<typeof WidgetTextsReplySchema>;

/** The language a visitor reads the widget in. */
export const WidgetTextsQuerySchema = z.strictObject({ language: languageCodeSchema() });
