import { z } from 'zod';
import { AnswerSourceSchema, AnswerTimingsSchema, QUESTION_MAX } from './rags';
import { safeString } from './text';
import { VISITOR_TEXT_MAX } from './widget-protocol';

/** The longest message staff may send a bot in the console; longer is refused with 413 `bot/text-too-long`. */
export const BOT_CHAT_TEXT_MAX = VISITOR_TEXT_MAX;
/** Earlier turns sent with a staff message, oldest first. */
export const BOT_CHAT_HISTORY_MAX = 20;
/** Test cases one bot may hold. */
export const BOT_TEST_CASES_MAX = 200;
const BOT_TEST_EXPECTED_TEXT_MAX = 2000;
/** Characters of a retrieved chunk shown in a trace. */
export const TRACE_EXCERPT_MAX = 400;

/**
 * Text of a staff message. The length limit is checked by the route first (413), so the schema only requires
 * some text; the cap here stops a body that slipped past that check from reaching the engine.
 */
const chatText = (label: string) =>
  safeString()
    .refine((value) => value.trim().length > 0, `${label} is empty.`)
    .refine(
      (value) => value.length <= BOT_CHAT_TEXT_MAX,
      `${label} is longer than ${BOT_CHAT_TEXT_MAX} characters.`,
    );

const BotChatTurnSchema = z.strictObject({
  role: z.enum(['user', 'assistant'], 'A history turn is from the user or the assistant'),
  text: chatText('A history turn'),
});
export type BotChatTurn = z.infer<typeof BotChatTurnSchema>;

/** A staff member's message to one of the organisation's bots (enabled or not), with the turns before it. */
export const BotChatBodySchema = z.strictObject({
  text: chatText('The text'),
  history: z
    .array(BotChatTurnSchema)
    .max(BOT_CHAT_HISTORY_MAX, `At most ${BOT_CHAT_HISTORY_MAX} earlier turns`)
    .default([]),
});
export type BotChatBody = z.input<typeof BotChatBodySchema>;

/** A chunk retrieval found for an answer: where it is, its score, whether the answer cites it, and its text. */
const TraceChunkSchema = z.object({
  chunk_id: z.string(),
  source_id: z.string(),
  title: z.string(),
  url: z.string().nullable(),
  heading_path: z.array(z.string()),
  page: z.number().int().nullable(),
  score: z.number(),
  cited: z.boolean(),
  /** The beginning of the chunk's text (a Q&A pair's answer), at most TRACE_EXCERPT_MAX characters. */
  excerpt: z.string(),
});
export type TraceChunk = z.infer<typeof TraceChunkSchema>;

/** How a bot answer was made. `timings` and `chunks` come from the stored RAG answer (builtin engine only). */
const BotChatTraceSchema = z.object({
  engine: z.enum(['builtin', 'openai', 'dialogflowcx', 'fallback']),
  /** Why the engine could not answer normally, in plain words; null when it did. */
  error: z.object({ code: z.string(), reason: z.string() }).nullable(),
  answer_id: z.string().nullable(),
  /** How the RAG made the answer (qa, model, extractive, fallback); null for other engines. */
  kind: z.string().nullable(),
  chunks: z.array(TraceChunkSchema),
  /** Retrieval and generation of the RAG answer; only `total_ms` for other engines (the others 0). */
  timings: AnswerTimingsSchema,
});

export const BotChatReplySchema = z.object({
  messages: z.array(z.object({ type: z.literal('text'), text: z.string() })),
  sources: z.array(AnswerSourceSchema),
  /** True when the bot had no answer and gave its fallback text. */
  fallback: z.boolean(),
  handover_offered: z.boolean(),
  trace: BotChatTraceSchema,
});
export type BotChatReply = z.infer<typeof BotChatReplySchema>;

const question = () =>
  safeString()
    .trim()
    .min(1, 'The question is required')
    .max(QUESTION_MAX, `The question must be at most ${QUESTION_MAX} characters`);
const expectedText = () =>
  safeString()
    .trim()
    .min(1, 'The expected text is empty')
    .max(
      BOT_TEST_EXPECTED_TEXT_MAX,
      `The expected text must be at most ${BOT_TEST_EXPECTED_TEXT_MAX} characters`,
    );
const expectedSource = () => z.uuid('Unknown knowledge source id');
const NO_EXPECTATION = 'Give an expected text, an expected source, or both.';

/** A test case: a question and what a passing answer must show (its text, a cited source, or both). */
export const CreateBotTestCaseBodySchema = z
  .strictObject({
    question: question(),
    expected_text: expectedText().nullable().default(null),
    expected_source_id: expectedSource().nullable().default(null),
  })
  .refine((body) => body.expected_text !== null || body.expected_source_id !== null, {
    message: NO_EXPECTATION,
    path: ['expected_text'],
  });
export type CreateBotTestCaseBody = z.input<typeof CreateBotTestCaseBodySchema>;

/** Fields left out are kept; `null` clears an expectation, as long as one remains. */
export const UpdateBotTestCaseBodySchema = z.strictObject({
  question: question().optional(),
  expected_text: expectedText().nullable().optional(),
  expected_source_id: expectedSource().nullable().optional(),
});
export type UpdateBotTestCaseBody = z.input<typeof UpdateBotTestCaseBodySchema>;

export const BotTestCaseParamsSchema = z.object({
  id: z.uuid('Unknown bot id'),
  caseId: z.uuid('Unknown test case id'),
});
export const BotTestRunParamsSchema = z.object({ id: z.uuid('Unknown test run id') });

export const BotTestCaseSchema = z.object({
  id: z.string(),
  bot_id: z.string(),
  question: z.string(),
  expected_text: z.string().nullable(),
  expected_source_id: z.string().nullable(),
  /** The expected source's title, or null when there is none or it was deleted. */
  expected_source_title: z.string().nullable(),
  created_by: z.string().nullable(),
  updated_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type BotTestCase = z.infer<typeof BotTestCaseSchema>;

/** A bot's test cases, oldest first (at most BOT_TEST_CASES_MAX). */
export const BotTestCaseListSchema = z.object({ items: z.array(BotTestCaseSchema) });

/** A knowledge source a test case may expect: one of the sources of the bot's RAG's knowledge bases. */
const BotTestSourceSchema = z.object({
  id: z.string(),
  title: z.string(),
  type: z.string(),
  knowledge_id: z.string(),
  knowledge_name: z.string(),
});
export type BotTestSource = z.infer<typeof BotTestSourceSchema>;
export const BotTestSourceListSchema = z.object({ items: z.array(BotTestSourceSchema) });

const BOT_TEST_RUN_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type BotTestRunStatus = (typeof BOT_TEST_RUN_STATUSES)[number];

/** The outcome of one case in a run: the bot's answer, whether it passed, and why (in plain words). */
const BotTestResultSchema = z.object({
  case_id: z.string(),
  question: z.string(),
  expected_text: z.string().nullable(),
  expected_source_id: z.string().nullable(),
  answer: z.string(),
  /** The source ids the answer cited. */
  cited_source_ids: z.array(z.string()),
  pass: z.boolean(),
  reason: z.string(),
});
export type BotTestResult = z.infer<typeof BotTestResultSchema>;

export const BotTestRunSchema = z.object({
  id: z.string(),
  bot_id: z.string(),
  status: z.enum(BOT_TEST_RUN_STATUSES),
  total: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  /** Why the run stopped before it finished (status failed). */
  error: z.string().nullable(),
  results: z.array(BotTestResultSchema),
  created_by: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type BotTestRun = z.infer<typeof BotTestRunSchema>;

/** A bot's runs, newest first (the last 50). */
export const BotTestRunListSchema = z.object({ items: z.array(BotTestRunSchema) });
export const BOT_TEST_RUNS_LISTED = 50;
