import { z } from 'zod';
import { safeString } from './text';

/** The variables a prompt template may use, in the order the editor offers them. */
export const PROMPT_VARIABLES = ['question', 'context', 'history', 'language', 'bot_name'] as const;
export type PromptVariable = (typeof PROMPT_VARIABLES)[number];

export const PROMPT_NAME_MAX = 120;
export const PROMPT_TEMPLATE_MAX = 20_000;
export const PROMPT_DESCRIPTION_MAX = 1000;

/** What the preview puts in place of a variable the caller gave no value for. */
export const PROMPT_SAMPLE_VALUES: Readonly<Record<PromptVariable, string>> = {
  question: 'What are your opening hours?',
  context:
    '[1] Opening hours (help/hours.md)\nWe are open Monday to Friday, 9:00 to 17:00.\n\n[2] Holidays (help/holidays.md)\nWe are closed on public holidays.',
  history: 'Visitor: Hello\nAssistant: Hello! How can I help you?',
  language: 'English',
  bot_name: 'Omnibot',
};

/** Answers only from the context, cites sources as [n], admits not knowing, answers in the visitor's language. */
export const DEFAULT_PROMPT_TEMPLATE = `You are {{bot_name}}, a helpful assistant.
Answer the question using only the context below. Each context passage starts with its number in brackets.
Cite the passages you used as [n], for example [1] or [2][3].
If the context does not contain the answer, say that you don't know; never make up an answer.
Answer in {{language}}.

Context:
{{context}}

Conversation so far:
{{history}}

Question: {{question}}
Answer:`;

const isPromptVariable = (name: string): name is PromptVariable =>
  (PROMPT_VARIABLES as readonly string[]).includes(name);

interface PromptVariableScan {
  /** Known variables in order of first use. */
  variables: PromptVariable[];
  /** Well-formed placeholders whose name is not one of PROMPT_VARIABLES, in order of first use. */
  unknown: string[];
  /** Placeholders that are not closed or have no name, as written (e.g. `{{question`, `{{}}`). */
  malformed: string[];
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/gu;

/** Finds the `{{ name }}` placeholders of a template (spaces inside the braces allowed) and the broken ones. */
export function promptVariables(template: string): PromptVariableScan {
  const variables: PromptVariable[] = [];
  const unknown: string[] = [];
  const malformed: string[] = [];
  let index = 0;
  while (index < template.length) {
    const open = template.indexOf('{{', index);
    if (open === -1) break;
    PLACEHOLDER.lastIndex = open;
    const match = PLACEHOLDER.exec(template);
    if (match?.index === open) {
      const name = match[1] ?? '';
      if (isPromptVariable(name)) {
        if (!variables.includes(name)) variables.push(name);
      } else if (!unknown.includes(name)) {
        unknown.push(name);
      }
      index = open + match[0].length;
      continue;
    }
    const close = template.indexOf('}}', open + 2);
    const nextOpen = template.indexOf('{{', open + 2);
    const end = close !== -1 && (nextOpen === -1 || close < nextOpen) ? close + 2 : -1;
    const written = end === -1 ? (template.slice(open).split(/\s/u)[0] ?? '{{') : template.slice(open, end);
    const shown = written.length > 40 ? `${written.slice(0, 40)}…` : written;
    if (!malformed.includes(shown)) malformed.push(shown);
    index = end === -1 ? open + 2 : end;
  }
  return { variables, unknown, malformed };
}

const VARIABLE_LIST = `${PROMPT_VARIABLES.slice(0, -1).join(', ')} or ${PROMPT_VARIABLES.at(-1) ?? ''}`;

/** The reasons a template is refused, in plain words (empty when it is usable). */
export function promptTemplateProblems(template: string): string[] {
  const scan = promptVariables(template);
  const problems = scan.unknown.map((name) => `Unknown variable {{${name}}}; use ${VARIABLE_LIST}.`);
  for (const written of scan.malformed) {
    problems.push(`Malformed placeholder ${written}; write a variable as {{name}}, one of ${VARIABLE_LIST}.`);
  }
  return problems;
}

/** Replaces every known placeholder with its value (an empty string when none is given); unknown ones stay as written. */
export function renderPrompt(template: string, values: Partial<Record<PromptVariable, string>>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    isPromptVariable(name) ? (values[name] ?? '') : whole,
  );
}

type DiffKind = 'same' | 'added' | 'removed' | 'changed';
export interface DiffRow {
  left: string | null;
  right: string | null;
  kind: DiffKind;
}

/**
 * A line diff (longest common subsequence) as aligned rows for side-by-side display: a removed run facing an
 * added run pairs up line by line as `changed`, the rest stays `removed` or `added`.
 */
export function diffLines(before: string, after: string): DiffRow[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const rows: DiffRow[] = [];
  let removed: string[] = [];
  let added: string[] = [];
  const flush = () => {
    const paired = Math.min(removed.length, added.length);
    for (let k = 0; k < paired; k++) {
      rows.push({ left: removed[k] ?? '', right: added[k] ?? '', kind: 'changed' });
    }
    for (const line of removed.slice(paired)) rows.push({ left: line, right: null, kind: 'removed' });
    for (const line of added.slice(paired)) rows.push({ left: null, right: line, kind: 'added' });
    removed = [];
    added = [];
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      flush();
      rows.push({ left: a[i] ?? '', right: b[j] ?? '', kind: 'same' });
      i++;
      j++;
    } else if (j >= m || (i < n && (lcs[(i + 1) * width + j] ?? 0) >= (lcs[i * width + j + 1] ?? 0))) {
      removed.push(a[i] ?? '');
      i++;
    } else {
      added.push(b[j] ?? '');
      j++;
    }
  }
  flush();
  return rows;
}

const text = (label: string, max: number) =>
  safeString().trim().min(1, `${label} is required`).max(max, `${label} must be at most ${max} characters`);

const PromptNameSchema = text('The name', PROMPT_NAME_MAX);
const PromptDescriptionSchema = safeString()
  .trim()
  .max(PROMPT_DESCRIPTION_MAX, `The description must be at most ${PROMPT_DESCRIPTION_MAX} characters`);

/** A template that uses only the known variables, with every placeholder well formed. */
const PromptTemplateSchema = safeString()
  .min(1, 'The template is required')
  .max(PROMPT_TEMPLATE_MAX, `The template must be at most ${PROMPT_TEMPLATE_MAX} characters`)
  .refine((value) => value.trim().length > 0, 'The template is required')
  .superRefine((value, ctx) => {
    for (const message of promptTemplateProblems(value)) ctx.addIssue({ code: 'custom', message });
  });

export const CreatePromptBodySchema = z.strictObject({
  name: PromptNameSchema,
  template: PromptTemplateSchema,
  description: PromptDescriptionSchema.optional(),
});
export type CreatePromptBody = z.input<typeof CreatePromptBodySchema>;

/** Every field optional; a template different from the current one becomes a new version. */
export const UpdatePromptBodySchema = z.strictObject({
  name: PromptNameSchema.optional(),
  template: PromptTemplateSchema.optional(),
  description: PromptDescriptionSchema.optional(),
});
export type UpdatePromptBody = z.input<typeof UpdatePromptBodySchema>;

export const PromptListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
  /** Searched in the name and description (case-insensitive). */
  q: safeString().trim().max(100).optional(),
});
export type PromptListQuery = z.infer<typeof PromptListQuerySchema>;

export const PromptIdParamsSchema = z.object({ id: z.uuid('Unknown prompt id') });
export const PromptVersionParamsSchema = z.object({
  id: z.uuid('Unknown prompt id'),
  version: z.coerce
    .number()
    .int('Unknown version')
    .min(1, 'Unknown version')
    .max(1_000_000, 'Unknown version'),
});

const PromptVariableValuesSchema = z.strictObject(
  Object.fromEntries(
    PROMPT_VARIABLES.map((name) => [name, safeString().max(PROMPT_TEMPLATE_MAX).optional()]),
  ) as Record<PromptVariable, z.ZodOptional<ReturnType<typeof safeString>>>,
);

export const PromptPreviewBodySchema = z.strictObject({
  template: PromptTemplateSchema,
  values: PromptVariableValuesSchema.optional(),
});

const PromptVariableSchema = z.enum(PROMPT_VARIABLES);

export const PromptPreviewSchema = z.object({
  rendered: z.string(),
  variables: z.array(PromptVariableSchema),
});
export type PromptPreview = z.infer<typeof PromptPreviewSchema>;

const PromptSummarySchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  description: z.string(),
  current_version: z.number().int(),
  created_by: z.string().nullable(),
  updated_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PromptSummary = z.infer<typeof PromptSummarySchema>;

/** A prompt with its current template and the variables that template uses. */
export const PromptSchema = PromptSummarySchema.extend({
  template: z.string(),
  variables: z.array(PromptVariableSchema),
});
export type Prompt = z.infer<typeof PromptSchema>;

export const PromptListSchema = z.object({
  items: z.array(PromptSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type PromptList = z.infer<typeof PromptListSchema>;

const PromptVersionSummarySchema = z.object({
  version: z.number().int(),
  created_by: z.string().nullable(),
  created_at: z.string(),
});
export type PromptVersionSummary = z.infer<typeof PromptVersionSummarySchema>;

export const PromptVersionSchema = PromptVersionSummarySchema.extend({
  prompt_id: z.string(),
  template: z.string(),
});
export type PromptVersion = z.infer<typeof PromptVersionSchema>;

export const PromptVersionListSchema = z.object({
  current_version: z.number().int(),
  items: z.array(PromptVersionSummarySchema),
});
