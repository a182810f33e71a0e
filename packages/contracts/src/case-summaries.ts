import { z } from 'zod';
import { safeString } from './text';

/**
 * What a case summary can say, in the order it says it: the visitor's issue, what the bot answered, what is still
 * open, and the visitor's sentiment.
 */
export const CASE_SUMMARY_SECTIONS = ['issue', 'answers', 'open', 'sentiment'] as const;
export type CaseSummarySection = (typeof CASE_SUMMARY_SECTIONS)[number];

/** The label of each section, as the console and the summary text show it. */
export const CASE_SUMMARY_SECTION_LABELS: Readonly<Record<CaseSummarySection, string>> = {
  issue: 'Issue',
  answers: 'Bot answered',
  open: 'Still open',
  sentiment: 'Sentiment',
};

/** When a summary is written: when the conversation is handed to a person, and when it ends. */
export const CASE_SUMMARY_TRIGGERS = ['handover', 'close'] as const;
export type CaseSummaryTrigger = (typeof CASE_SUMMARY_TRIGGERS)[number];

export const CASE_SUMMARY_TRIGGER_LABELS: Readonly<Record<CaseSummaryTrigger, string>> = {
  handover: 'At hand-over',
  close: 'At close',
};

/** The visitor's mood as the summary reads it. */
export const CASE_SUMMARY_SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export type CaseSummarySentiment = (typeof CASE_SUMMARY_SENTIMENTS)[number];

/** Who wrote a summary: a chat model, or sentences taken from the transcript. */
export const CASE_SUMMARY_METHODS = ['model', 'extractive'] as const;
export type CaseSummaryMethod = (typeof CASE_SUMMARY_METHODS)[number];

export const CASE_SUMMARY_NAME_MAX = 120;
export const CASE_SUMMARY_BOTS_MAX = 50;
export const CASE_SUMMARY_LENGTH_MIN = 200;
export const CASE_SUMMARY_LENGTH_MAX = 4000;

/** Defaults of a new configuration. */
export const CASE_SUMMARY_DEFAULTS = {
  sections: [...CASE_SUMMARY_SECTIONS],
  max_chars: 800,
  triggers: ['handover'],
} as const satisfies { sections: CaseSummarySection[]; max_chars: number; triggers: CaseSummaryTrigger[] };

const NameSchema = safeString()
  .trim()
  .min(1, 'The name is required')
  .max(CASE_SUMMARY_NAME_MAX, `The name must be at most ${CASE_SUMMARY_NAME_MAX} characters`);

const distinct = <T>(values: readonly T[]) => new Set(values).size === values.length;

const BotIdsSchema = z
  .array(z.uuid('Unknown bot id'))
  .min(1, 'Choose at least one bot')
  .max(CASE_SUMMARY_BOTS_MAX, `At most ${CASE_SUMMARY_BOTS_MAX} bots`)
  .refine(distinct, 'A bot is listed twice');

const SectionsSchema = z
  .array(z.enum(CASE_SUMMARY_SECTIONS, `A section is one of: ${CASE_SUMMARY_SECTIONS.join(', ')}`))
  .min(1, 'Choose at least one section')
  .refine(distinct, 'A section is listed twice');

const TriggersSchema = z
  .array(z.enum(CASE_SUMMARY_TRIGGERS, `A trigger is one of: ${CASE_SUMMARY_TRIGGERS.join(', ')}`))
  .min(1, 'Choose when the summary is written')
  .refine(distinct, 'A trigger is listed twice');

const MaxCharsSchema = z
  .number('The length limit is a number of characters')
  .int('The length limit is a whole number of characters')
  .min(CASE_SUMMARY_LENGTH_MIN, `The length limit is at least ${CASE_SUMMARY_LENGTH_MIN} characters`)
  .max(CASE_SUMMARY_LENGTH_MAX, `The length limit is at most ${CASE_SUMMARY_LENGTH_MAX} characters`);

/**
 * A case-summary configuration: the bots whose conversations it summarises (each bot in at most one
 * configuration), the chat model that writes the summary (none: an extractive summary of the transcript), the
 * sections, the length limit of the whole text and when it is written.
 */
export const CreateCaseSummaryConfigBodySchema = z.strictObject({
  name: NameSchema,
  bot_ids: BotIdsSchema,
  /** A chat model connection offered to the organisation; null or absent for an extractive summary. */
  model_id: z.uuid('Unknown model id').nullable().optional(),
  sections: SectionsSchema.default([...CASE_SUMMARY_DEFAULTS.sections]),
  max_chars: MaxCharsSchema.default(CASE_SUMMARY_DEFAULTS.max_chars),
  triggers: TriggersSchema.default([...CASE_SUMMARY_DEFAULTS.triggers]),
});
export type CreateCaseSummaryConfigBody = z.input<typeof CreateCaseSummaryConfigBodySchema>;

/** Every field optional; `model_id: null` switches to extractive summaries. */
export const UpdateCaseSummaryConfigBodySchema = z.strictObject({
  name: NameSchema.optional(),
  bot_ids: BotIdsSchema.optional(),
  model_id: z.uuid('Unknown model id').nullable().optional(),
  sections: SectionsSchema.optional(),
  max_chars: MaxCharsSchema.optional(),
  triggers: TriggersSchema.optional(),
});
export type UpdateCaseSummaryConfigBody = z.input<typeof UpdateCaseSummaryConfigBodySchema>;

export const CaseSummaryConfigIdParamsSchema = z.strictObject({ id: z.uuid('Unknown configuration id') });

export const CaseSummaryConfigSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  bots: z.array(z.object({ id: z.string(), name: z.string() })),
  model_id: z.string().nullable(),
  model_name: z.string().nullable(),
  sections: z.array(z.enum(CASE_SUMMARY_SECTIONS)),
  max_chars: z.number().int(),
  triggers: z.array(z.enum(CASE_SUMMARY_TRIGGERS)),
  created_by: z.string().nullable(),
  updated_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CaseSummaryConfig = z.infer<typeof CaseSummaryConfigSchema>;

export const CaseSummaryConfigListSchema = z.object({ items: z.array(CaseSummaryConfigSchema) });
export type CaseSummaryConfigList = z.infer<typeof CaseSummaryConfigListSchema>;

/** The sections of a written summary; a section the configuration leaves out is absent. */
export const CaseSummarySectionsSchema = z.object({
  issue: z.string().optional(),
  answers: z.string().optional(),
  open: z.string().optional(),
  sentiment: z.enum(CASE_SUMMARY_SENTIMENTS).optional(),
});
export type CaseSummarySections = z.infer<typeof CaseSummarySectionsSchema>;

/** A summary written for a conversation, masked with the bot's patterns like everything an agent receives. */
export const CaseSummarySchema = z.object({
  id: z.string(),
  conversation_id: z.string(),
  trigger: z.enum(CASE_SUMMARY_TRIGGERS),
  method: z.enum(CASE_SUMMARY_METHODS),
  /** The chat model that wrote it, as it was named then; null for an extractive summary. */
  model_name: z.string().nullable(),
  /** The whole summary, one labelled line per section, within the configuration's length limit. */
  text: z.string(),
  sections: CaseSummarySectionsSchema,
  created_at: z.string(),
});
export type CaseSummary = z.infer<typeof CaseSummarySchema>;

/** The summary text: one `Label: value` line per section, in the configured order. */
export function caseSummaryText(
  sections: CaseSummarySections,
  order: readonly CaseSummarySection[] = CASE_SUMMARY_SECTIONS,
): string {
  const lines: string[] = [];
  for (const section of order) {
    const value = sections[section];
    if (value === undefined || value === '') continue;
    lines.push(`${CASE_SUMMARY_SECTION_LABELS[section]}: ${value}`);
  }
  return lines.join('\n');
}
