import { z } from 'zod';
import { safeString } from './text';

export const RAG_NAME_MAX = 120;
export const RAG_FALLBACK_MAX = 2000;
const RAG_LANGUAGE_MAX = 40;
export const QUESTION_MAX = 2000;
export const HISTORY_TURNS_MAX = 20;
export const HISTORY_TEXT_MAX = 8000;

/**
 * Defaults the console shows on a new RAG. `language: auto` answers in the language the question is asked in. The
 * fallback text is said only through the RAG API (a bot says its own), and offers no person: there are no live
 * agents behind a RAG.
 */
export const RAG_DEFAULTS = {
  citations: true,
  max_context_chars: 6000,
  language: 'auto',
  fallback_text: "Sorry, I don't know the answer to that. Could you rephrase your question?",
} as const;

/** How an answer was made: a curated Q&A pair verbatim, a chat model, sentences taken from the passages, or the fallback text. */
const ANSWER_KINDS = ['qa', 'model', 'extractive', 'fallback'] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];

const text = (label: string, max: number) =>
  safeString().trim().min(1, `${label} is required`).max(max, `${label} must be at most ${max} characters`);

const RagNameSchema = text('The name', RAG_NAME_MAX);
const RagFallbackTextSchema = text('The fallback text', RAG_FALLBACK_MAX);
/** `auto`, or a language name or code ("en", "German") the answer is given in. */
const RagLanguageSchema = text('The language', RAG_LANGUAGE_MAX);
const RagMaxContextSchema = z
  .number()
  .int('The context size must be a whole number of characters')
  .min(500, 'The context size must be at least 500 characters')
  .max(100_000, 'The context size must be at most 100000 characters');

export const CreateRagBodySchema = z.strictObject({
  name: RagNameSchema,
  index_id: z.uuid('Unknown index id'),
  /** The prompt template for the chat model; without one the built-in default prompt is used. */
  prompt_id: z.uuid('Unknown prompt id').nullable().optional(),
  /** A chat model offered to the organisation; without one answers are extractive. */
  model_id: z.uuid('Unknown model id').nullable().optional(),
  fallback_text: RagFallbackTextSchema.default(RAG_DEFAULTS.fallback_text),
  citations: z.boolean().default(RAG_DEFAULTS.citations),
  max_context_chars: RagMaxContextSchema.default(RAG_DEFAULTS.max_context_chars),
  language: RagLanguageSchema.default(RAG_DEFAULTS.language),
});
export type CreateRagBody = z.input<typeof CreateRagBodySchema>;

/** Every field optional; `null` clears the prompt or the model. */
export const UpdateRagBodySchema = z.strictObject({
  name: RagNameSchema.optional(),
  index_id: z.uuid('Unknown index id').optional(),
  prompt_id: z.uuid('Unknown prompt id').nullable().optional(),
  model_id: z.uuid('Unknown model id').nullable().optional(),
  fallback_text: RagFallbackTextSchema.optional(),
  citations: z.boolean().optional(),
  max_context_chars: RagMaxContextSchema.optional(),
  language: RagLanguageSchema.optional(),
});
export type UpdateRagBody = z.input<typeof UpdateRagBodySchema>;

export const RagIdParamsSchema = z.object({ id: z.uuid('Unknown RAG id') });

export const RagListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  /** Only the RAGs that use this prompt ("used by" on the prompt screens). */
  prompt_id: z.uuid('Unknown prompt id').optional(),
  /** Only the RAGs that use this index. */
  index_id: z.uuid('Unknown index id').optional(),
});
export type RagListQuery = z.infer<typeof RagListQuerySchema>;

export const RagSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  index_id: z.string(),
  index_name: z.string(),
  prompt_id: z.string().nullable(),
  prompt_name: z.string().nullable(),
  model_id: z.string().nullable(),
  model_name: z.string().nullable(),
  fallback_text: z.string(),
  citations: z.boolean(),
  max_context_chars: z.number().int(),
  language: z.string(),
  created_by: z.string().nullable(),
  updated_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Rag = z.infer<typeof RagSchema>;

export const RagListSchema = z.object({
  items: z.array(RagSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type RagList = z.infer<typeof RagListSchema>;

const HistoryTurnSchema = z.strictObject({
  role: z.enum(['user', 'assistant'], 'A history turn is from the user or the assistant'),
  content: text('A history turn', HISTORY_TEXT_MAX),
});
export type HistoryTurn = z.infer<typeof HistoryTurnSchema>;

export const AnswerBodySchema = z.strictObject({
  question: text('The question', QUESTION_MAX),
  /** Earlier turns of the conversation, oldest first. */
  history: z
    .array(HistoryTurnSchema)
    .max(HISTORY_TURNS_MAX, `At most ${HISTORY_TURNS_MAX} earlier turns`)
    .default([]),
  /** Overrides the RAG's answer language for this question. */
  language: RagLanguageSchema.optional(),
});
export type AnswerBody = z.input<typeof AnswerBodySchema>;

/** A source the answer cites; `n` is the number its marker [n] carries in the answer text. */
export const AnswerSourceSchema = z.object({
  n: z.number().int(),
  chunk_id: z.string(),
  source_id: z.string(),
  knowledge_id: z.string(),
  title: z.string(),
  url: z.string().nullable(),
  heading_path: z.array(z.string()),
  page: z.number().int().nullable(),
  score: z.number(),
});
export type AnswerSource = z.infer<typeof AnswerSourceSchema>;

export const AnswerTimingsSchema = z.object({
  retrieve_ms: z.number(),
  generate_ms: z.number(),
  total_ms: z.number(),
});

export const AnswerResultSchema = z.object({
  /** The id of the stored answer record (which chunks were used, timings). */
  id: z.string(),
  answer: z.string(),
  kind: z.enum(ANSWER_KINDS),
  sources: z.array(AnswerSourceSchema),
  /** True when nothing relevant enough was found: the widget offers a live agent. */
  fallback: z.boolean(),
  timings: AnswerTimingsSchema,
  /** Why the chat model was not used when one is configured (its error in plain words); null otherwise. */
  model_error: z.object({ code: z.string(), reason: z.string() }).nullable(),
});
export type AnswerResult = z.infer<typeof AnswerResultSchema>;

/**
 * The Server-Sent Events of an answer asked for with `Accept: text/event-stream`, in order: any number of `delta` ({text}), possibly one `reset`
 * (the model failed part-way: drop the text so far, the deltas that follow are the replacement), then exactly
 * one `sources` event carrying the whole AnswerResult. A refusal before the stream starts is a normal JSON error.
 */
export type AnswerStreamEvent = 'delta' | 'reset' | 'sources';
export const AnswerDeltaSchema = z.object({ text: z.string() });
