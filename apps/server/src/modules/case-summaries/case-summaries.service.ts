import {
  CASE_SUMMARY_SECTIONS,
  CASE_SUMMARY_SENTIMENTS,
  type CaseSummary,
  type CaseSummaryMethod,
  type CaseSummarySection,
  type CaseSummarySections,
  type CaseSummaryTrigger,
  type ConversationState,
  type HandoverReason,
  maskText,
  WidgetConfigSchema,
} from '@omnibot/contracts';
import { and, asc, desc, eq, gte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import {
  type CaseSummaryConfigRow,
  conversationMessages,
  conversations,
  conversationSummaries,
} from '../../db/schema';
import type { GuardedWebFetch } from '../../lib/guarded-http/guarded-fetch';
import type { SecretBox } from '../../lib/secret-box';
import { modelsOfferedTo } from '../models/models.service';
import { sealedBotConfig } from '../bots/bots.service';
import { type ChatModel, modelFromRow, ProviderError } from '../models/providers';
import { tenantHoldsFeature } from '../tenancy/tenant-features';
import { presentCaseSummary } from './case-summaries.presenter';
import { configForBot } from './case-summary-configs.service';
import { extractiveSections, fitSummary, sentimentOf, type TranscriptLine } from './extractive-summary';

/** The most messages a summary reads (the transcript's own limit). */
const TRANSCRIPT_MESSAGES_MAX = 1000;
/** The transcript a model reads: its beginning and its end when it is longer than both together. */
const MODEL_TRANSCRIPT_HEAD = 3000;
const MODEL_TRANSCRIPT_TAIL = 9000;

export interface CaseSummaryDeps {
  db: Db;
  /** Opens chat models' API keys (purpose "model-api-key"). */
  secretBox: SecretBox;
  /** The guarded client model calls go through: a model's address is one a tenant supplies. */
  modelFetch: GuardedWebFetch;
  /** Upper bound of one chat-model call. */
  modelTimeoutMs: number;
  log: FastifyBaseLogger;
}

/** A conversation to summarise, named by its tenant. */
export interface SummaryTarget {
  tenantId: string;
  id: string;
}

/** What a configuration asks of a summary. */
export type SummaryOptions = Pick<CaseSummaryConfigRow, 'sections' | 'maxChars' | 'modelId'>;

/** A summary before it is stored. */
export interface WrittenSummary {
  method: CaseSummaryMethod;
  modelName: string | null;
  sections: CaseSummarySections;
  text: string;
}

type Masker = (text: string) => string;

/**
 * The bot's masking as a function. A stored masking block that cannot be read masks with the default patterns
 * rather than not at all.
 */
async function maskerOf(db: Db, tenantId: string, botId: string): Promise<Masker> {
  const config = await sealedBotConfig(db, tenantId, botId);
  const stored = (config as { masking?: unknown } | null)?.masking ?? {};
  const parsed = WidgetConfigSchema.shape.masking.safeParse(stored);
  const masking = parsed.success
    ? parsed.data
    : { ...WidgetConfigSchema.shape.masking.parse({}), enableMasking: true };
  if (!masking.enableMasking) return (text) => text;
  return (text) => maskText(text, masking.patterns, masking.maskCharacter);
}

/** The conversation's messages in order, each masked with the bot's patterns. */
async function maskedTranscript(db: Db, target: SummaryTarget, mask: Masker): Promise<TranscriptLine[]> {
  const rows = await db
    .select({
      role: conversationMessages.role,
      text: conversationMessages.text,
      fallback: conversationMessages.fallback,
    })
    .from(conversationMessages)
    .where(
      and(
        eq(conversationMessages.tenantId, target.tenantId),
        eq(conversationMessages.conversationId, target.id),
      ),
    )
    .orderBy(
      asc(conversationMessages.createdAt),
      sql`case when ${conversationMessages.role} = 'visitor' then 0 else 1 end`,
      asc(conversationMessages.id),
    )
    .limit(TRANSCRIPT_MESSAGES_MAX);
  return rows.map((row) => ({ role: row.role, text: mask(row.text), fallback: row.fallback }));
}

const SPEAKER: Record<TranscriptLine['role'], string> = {
  visitor: 'Visitor',
  bot: 'Bot',
  agent: 'Agent',
  system: 'System',
};

/** The transcript as the model reads it: one `Speaker: text` line per message, its middle left out when long. */
function transcriptForModel(lines: readonly TranscriptLine[]): string {
  const all = lines.map(
    (line) =>
      `${SPEAKER[line.role]}${line.fallback ? ' (could not answer)' : ''}: ${line.text.replace(/\s+/gu, ' ')}`,
  );
  const whole = all.join('\n');
  if (whole.length <= MODEL_TRANSCRIPT_HEAD + MODEL_TRANSCRIPT_TAIL) return whole;
  const head: string[] = [];
  let used = 0;
  for (const line of all) {
    if (used + line.length > MODEL_TRANSCRIPT_HEAD) break;
    head.push(line);
    used += line.length + 1;
  }
  const tail: string[] = [];
  used = 0;
  for (const line of [...all].reverse()) {
    if (used + line.length > MODEL_TRANSCRIPT_TAIL || head.length + tail.length >= all.length) break;
    tail.unshift(line);
    used += line.length + 1;
  }
  return [...head, '[…]', ...tail].join('\n');
}

const SECTION_ASKS: Record<CaseSummarySection, string> = {
  issue: '"issue": what the visitor needs, in one or two sentences',
  answers: '"answers": what the bot already told the visitor',
  open: '"open": what is still unanswered or unresolved',
  sentiment: '"sentiment": the visitor\'s mood, exactly one of "positive", "neutral", "negative"',
};

function systemPrompt(sections: readonly CaseSummarySection[], maxChars: number): string {
  return [
    'You summarise a customer-service chat for the person who takes it over.',
    'Answer with one JSON object and nothing else, with exactly these keys:',
    ...sections.map((section) => `- ${SECTION_ASKS[section]}`),
    `All values together stay under ${maxChars} characters. Write plain sentences in English.`,
    'Characters such as **** hide personal data: copy them as they are and never guess what they hide.',
  ].join('\n');
}

/** The sections of the model's JSON answer; a text section it left out is a bad answer. */
function parseModelSections(
  answer: string,
  wanted: readonly CaseSummarySection[],
  lines: readonly TranscriptLine[],
): CaseSummarySections {
  const start = answer.indexOf('{');
  const end = answer.lastIndexOf('}');
  const bad = () =>
    new ProviderError('provider/bad-response', 'The chat model did not answer with the summary.');
  if (start === -1 || end <= start) throw bad();
  let value: unknown;
  try {
    value = JSON.parse(answer.slice(start, end + 1));
  } catch {
    throw bad();
  }
  if (typeof value !== 'object' || value === null) throw bad();
  const record = value as Record<string, unknown>;
  const sections: CaseSummarySections = {};
  for (const section of wanted) {
    const raw = record[section];
    if (section === 'sentiment') {
      const said = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
      sections.sentiment = (CASE_SUMMARY_SENTIMENTS as readonly string[]).includes(said)
        ? (said as (typeof CASE_SUMMARY_SENTIMENTS)[number])
        : sentimentOf(lines.filter((line) => line.role === 'visitor').map((line) => line.text));
      continue;
    }
    if (typeof raw !== 'string' || raw.trim() === '') throw bad();
    sections[section] = raw.replace(/\s+/gu, ' ').trim();
  }
  return sections;
}

/** The configured chat model while it is still offered to the tenant; null without one. */
async function chatModelFor(
  deps: CaseSummaryDeps,
  tenantId: string,
  modelId: string | null,
): Promise<{ chat: ChatModel; name: string } | null> {
  if (modelId === null) return null;
  const row = (await modelsOfferedTo(deps.db, tenantId, 'chat')).find((model) => model.id === modelId);
  if (!row)
    throw new ProviderError('provider/error', 'The chat model is no longer offered to the organisation.');
  const model = modelFromRow(row, deps.secretBox, { timeoutMs: deps.modelTimeoutMs, fetch: deps.modelFetch });
  if (model.kind !== 'chat')
    throw new ProviderError('provider/error', 'The chosen model is not a chat model.');
  return { chat: model.chat, name: row.name };
}

const orderOf = (sections: readonly CaseSummarySection[]) =>
  CASE_SUMMARY_SECTIONS.filter((section) => sections.includes(section));

/**
 * A summary of a conversation as its bot's masking leaves the transcript: written by the configuration's chat model
 * (through the model provider layer, so through the guarded client), or extractive without one or when the model
 * fails (the failure is logged by its code only). Masked again on the way out, and within the length limit.
 */
export async function summariseConversation(
  deps: CaseSummaryDeps,
  conversation: SummaryTarget & { botId: string; language: string; handoverReason: HandoverReason | null },
  options: SummaryOptions,
): Promise<WrittenSummary> {
  const mask = await maskerOf(deps.db, conversation.tenantId, conversation.botId);
  const lines = await maskedTranscript(deps.db, conversation, mask);
  const order = orderOf(options.sections);
  const finish = (method: CaseSummaryMethod, modelName: string | null, sections: CaseSummarySections) => {
    const masked: CaseSummarySections = { ...sections };
    for (const section of ['issue', 'answers', 'open'] as const) {
      const value = masked[section];
      if (value !== undefined) masked[section] = mask(value);
    }
    const fitted = fitSummary(masked, order, options.maxChars, conversation.language);
    return { method, modelName, sections: fitted.sections, text: fitted.text };
  };
  try {
    const model = await chatModelFor(deps, conversation.tenantId, options.modelId);
    if (model) {
      const generated = await model.chat.generate({
        system: systemPrompt(order, options.maxChars),
        messages: [{ role: 'user', content: transcriptForModel(lines) }],
        maxTokens: Math.min(4000, Math.ceil(options.maxChars / 2) + 200),
        temperature: 0.2,
      });
      return finish('model', model.name, parseModelSections(generated.text, order, lines));
    }
  } catch (error) {
    const code = error instanceof ProviderError ? error.code : 'internal';
    deps.log.warn(
      { conversationId: conversation.id, code },
      'The chat model wrote no case summary; an extractive one is written instead.',
    );
  }
  return finish(
    'extractive',
    null,
    extractiveSections(lines, order, {
      language: conversation.language,
      handoverReason: conversation.handoverReason,
    }),
  );
}

/**
 * Writes and stores the summary of a conversation at `trigger` when its tenant holds `casesummary` and its bot has
 * a configuration with that trigger; null otherwise. Once per hand-over (a conversation handed back and handed over
 * again gets a new one) and once at close.
 */
export async function writeCaseSummary(
  deps: CaseSummaryDeps,
  target: SummaryTarget,
  trigger: CaseSummaryTrigger,
): Promise<(CaseSummary & { state: ConversationState }) | null> {
  const { db } = deps;
  const [conversation] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.tenantId, target.tenantId), eq(conversations.id, target.id)))
    .limit(1);
  if (!conversation) return null;
  if (!(await tenantHoldsFeature(db, conversation.tenantId, 'casesummary'))) return null;
  const config = await configForBot(db, conversation, trigger);
  if (!config) return null;
  const since = trigger === 'handover' ? conversation.queuedAt : null;
  const [already] = await db
    .select({ id: conversationSummaries.id })
    .from(conversationSummaries)
    .where(
      and(
        eq(conversationSummaries.tenantId, conversation.tenantId),
        eq(conversationSummaries.conversationId, conversation.id),
        eq(conversationSummaries.trigger, trigger),
        since === null ? undefined : gte(conversationSummaries.createdAt, since),
      ),
    )
    .limit(1);
  if (already) return null;
  const written = await summariseConversation(
    deps,
    {
      tenantId: conversation.tenantId,
      id: conversation.id,
      botId: conversation.botId,
      language: conversation.language,
      handoverReason: conversation.handoverReason,
    },
    config,
  );
  const [row] = await db
    .insert(conversationSummaries)
    .values({
      tenantId: conversation.tenantId,
      conversationId: conversation.id,
      botId: conversation.botId,
      trigger,
      method: written.method,
      modelName: written.modelName,
      text: written.text,
      sections: written.sections,
    })
    .returning();
  if (!row) return null;
  return { ...presentCaseSummary(row), state: conversation.state };
}

/** The summaries of a conversation of the tenant, oldest first. */
export async function summariesOf(db: Db, target: SummaryTarget): Promise<CaseSummary[]> {
  const rows = await db
    .select()
    .from(conversationSummaries)
    .where(
      and(
        eq(conversationSummaries.tenantId, target.tenantId),
        eq(conversationSummaries.conversationId, target.id),
      ),
    )
    .orderBy(asc(conversationSummaries.createdAt), asc(conversationSummaries.id));
  return rows.map(presentCaseSummary);
}

/** The newest summary of a conversation of the tenant, or null. */
export async function latestSummaryOf(db: Db, target: SummaryTarget): Promise<CaseSummary | null> {
  const [row] = await db
    .select()
    .from(conversationSummaries)
    .where(
      and(
        eq(conversationSummaries.tenantId, target.tenantId),
        eq(conversationSummaries.conversationId, target.id),
      ),
    )
    .orderBy(desc(conversationSummaries.createdAt), desc(conversationSummaries.id))
    .limit(1);
  return row ? presentCaseSummary(row) : null;
}

/**
 * Writes summaries after the change that asks for them has committed, so no transaction waits on a model: hand-over
 * and close call it and go on. A failure is logged by its code, never with the transcript, and blocks nothing.
 */
export interface CaseSummaryWriter {
  handedOver(conversation: SummaryTarget): void;
  closed(conversation: SummaryTarget): void;
  /** Waits for the summaries being written (tests, shutdown). */
  flush(): Promise<void>;
  /** Waits for the summaries of one conversation this process is writing (e.g. before giving it to an agent). */
  settled(conversation: SummaryTarget): Promise<void>;
}

export function createCaseSummaryWriter(
  deps: CaseSummaryDeps & {
    /** Told after a summary is stored, e.g. to tell the inbox that the conversation changed. */
    onWritten?: (conversation: SummaryTarget & { state: ConversationState }) => Promise<void>;
  },
): CaseSummaryWriter {
  const pending = new Set<Promise<void>>();
  const byConversation = new Map<string, Set<Promise<void>>>();
  const run = (target: SummaryTarget, trigger: CaseSummaryTrigger) => {
    const work = (async () => {
      try {
        const summary = await writeCaseSummary(deps, target, trigger);
        if (summary && deps.onWritten) {
          await deps.onWritten({ tenantId: target.tenantId, id: target.id, state: summary.state });
        }
      } catch (error) {
        // Database errors may carry the statement's values (the transcript): only the error's kind is logged.
        const code =
          error instanceof ProviderError ? error.code : error instanceof Error ? error.name : 'unknown';
        deps.log.warn({ conversationId: target.id, trigger, code }, 'The case summary was not written.');
      }
    })();
    pending.add(work);
    const mine = byConversation.get(target.id) ?? new Set<Promise<void>>();
    mine.add(work);
    byConversation.set(target.id, mine);
    void work.finally(() => {
      pending.delete(work);
      mine.delete(work);
      if (mine.size === 0 && byConversation.get(target.id) === mine) byConversation.delete(target.id);
    });
  };
  return {
    handedOver: (conversation) => run(conversation, 'handover'),
    closed: (conversation) => run(conversation, 'close'),
    flush: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    settled: async (conversation) => {
      for (let mine = byConversation.get(conversation.id); mine; mine = byConversation.get(conversation.id)) {
        await Promise.all([...mine]);
      }
    },
  };
}
