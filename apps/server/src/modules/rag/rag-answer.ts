import { randomUUID } from 'node:crypto';
import {
  type AnswerKind,
  type AnswerResult,
  type AnswerSource,
  DEFAULT_PROMPT_TEMPLATE,
  type HistoryTurn,
  renderPrompt,
} from '@omnibot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { type ModelRow, ragAnswers, type RagAnswerChunk, type RagRow, rags } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { AnswerRecorder } from './answer-recorder';
import { type SecretBox, SecretBoxError } from '../../lib/secret-box';
import {
  type IndexHit,
  type LoadedIndex,
  loadIndex,
  searchIndex,
  type VectorSearchDeps,
} from '../indexes/search';
import { matchQa, type QaMatch } from '../knowledge/retrieval/retrieval';
import { modelsOfferedTo } from '../models/models.service';
import { type ChatModel, type ChatRequest, modelFromRow, ProviderError } from '../models/providers';
import {
  type AnswerSource as PassageSource,
  baseLanguage,
  createCitationStream,
  extractiveAnswer,
  guessLanguage,
  languageName,
  mapCitations,
  type Passage,
  renderContext,
  withoutMarkers,
} from './answer';
import type { SourceLinks } from '../../storage/source-links';
import type { GuardedWebFetch } from '../../lib/guarded-http/guarded-fetch';
import { promptTemplate } from '../prompts/prompts.service';

export interface AnswerDeps {
  db: Db;
  /** Opens chat models' API keys (purpose "model-api-key"). */
  secretBox: SecretBox;
  /** The guarded client model calls go through: a model's address is one a tenant supplies. */
  modelFetch: GuardedWebFetch;
  log: FastifyBaseLogger;
  /** Upper bound of one chat-model call, a stream included. */
  modelTimeoutMs: number;
  /** Writes the answer after the reply instead of before it; without it the insert is awaited. */
  recorder?: AnswerRecorder;
  /** Turns a source's page address or storage path into the link an answer may carry. */
  sourceLinks: SourceLinks;
  /** What vector and hybrid retrieval need; without it every index searches by keyword. */
  vector?: VectorSearchDeps;
}

/** Where a streamed answer goes: text deltas, and a reset when the text shown so far must be dropped. */
export interface AnswerStream {
  delta(text: string): void;
  reset(): void;
}

/** The columns of a RAG row that answering reads; the answering route's statement reads only these. */
export const answeredRagColumns = {
  id: rags.id,
  tenantId: rags.tenantId,
  name: rags.name,
  indexId: rags.indexId,
  promptId: rags.promptId,
  modelId: rags.modelId,
  fallbackText: rags.fallbackText,
  citations: rags.citations,
  maxContextChars: rags.maxContextChars,
  language: rags.language,
};
export type AnsweredRag = Pick<RagRow, keyof typeof answeredRagColumns>;

export interface AnswerInput {
  /** The tenant asking; the RAG must be its own, and every statement is filtered by it. */
  tenantId: string;
  rag: AnsweredRag;
  /** The RAG's index as loadIndex reads it for the same tenant (null: not the tenant's), so it is not read twice. */
  index?: LoadedIndex | null;
  question: string;
  /** Earlier turns, oldest first. */
  history: HistoryTurn[];
  /** Overrides the RAG's language for this question; `auto` answers in the question's language. */
  language?: string;
  /** Where the question came from, stored with the answer: 'api', 'test', 'widget'. */
  channel: string;
  /** Who asked, stored as created_by (a user id, `credential:<id>`), or null for a visitor. */
  actor: string | null;
  /** When given, the answer is delivered here as it is made (the chat model is called streaming). */
  stream?: AnswerStream;
  /** The assistant's name in the prompt; the RAG's name by default. */
  botName?: string;
  /** Said when the RAG has no answer: a bot's own fallback text; the RAG's (for the RAG API) by default. */
  fallbackText?: string;
  /** Aborts the model call (the client went away). */
  signal?: AbortSignal;
  /** Writes the answer with this chat model instead of the RAG's own (a bot's cloud engine, such as Bedrock). */
  chat?: ChatModel;
}

type ModelError = NonNullable<AnswerResult['model_error']>;

interface Made {
  kind: AnswerKind;
  answer: string;
  sources: AnswerSource[];
  chunks: RagAnswerChunk[];
  fallback: boolean;
  modelError: ModelError | null;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** The text sent for `{{history}}`: one line per turn, visitor and assistant named. */
export function renderHistory(history: HistoryTurn[]): string {
  return history
    .map(
      (turn) =>
        `${turn.role === 'user' ? 'Visitor' : 'Assistant'}: ${turn.content.replace(/\s+/g, ' ').trim()}`,
    )
    .join('\n');
}

/** The language the answer is asked for, as words for the prompt and as a code for the extractive answer. */
function answerLanguage(setting: string, question: string): { name: string; base: string } {
  if (setting.trim().toLowerCase() === 'auto') {
    const guessed = guessLanguage(question);
    return guessed
      ? { name: languageName(guessed), base: guessed }
      : { name: 'the language of the question', base: 'en' };
  }
  return { name: languageName(setting), base: baseLanguage(setting) };
}

function sourceOf(source: PassageSource, hits: Map<string, IndexHit>): AnswerSource {
  const hit = hits.get(source.chunkId);
  return {
    n: source.n,
    chunk_id: source.chunkId,
    source_id: source.sourceId,
    knowledge_id: hit?.knowledgeBaseId ?? '',
    title: source.title,
    url: source.url,
    heading_path: source.headingPath,
    page: source.page,
    score: hit?.score ?? 0,
  };
}

function chunksOf(hits: IndexHit[], cited: Set<string>): RagAnswerChunk[] {
  return hits.map((hit) => ({
    chunkId: hit.chunkId,
    sourceId: hit.sourceId,
    knowledgeBaseId: hit.knowledgeBaseId,
    score: hit.score,
    cited: cited.has(hit.chunkId),
  }));
}

function qaAnswer(match: QaMatch): Made {
  return {
    kind: 'qa',
    answer: match.answer,
    sources: [
      {
        n: 1,
        chunk_id: match.qaId,
        source_id: match.sourceId,
        knowledge_id: match.knowledgeBaseId,
        title: match.question,
        url: null,
        heading_path: [],
        page: null,
        score: match.normalisedScore,
      },
    ],
    chunks: [
      {
        chunkId: match.qaId,
        sourceId: match.sourceId,
        knowledgeBaseId: match.knowledgeBaseId,
        score: match.normalisedScore,
        cited: true,
      },
    ],
    fallback: false,
    modelError: null,
  };
}

// The bots' engine reads a prompt's template from here as the RAG does.
export { promptTemplate };

/** The RAG's chat model while it is still offered to the tenant, or why it cannot be used. */
export async function chatModelOf(
  deps: AnswerDeps,
  tenantId: string,
  modelId: string,
): Promise<{ chat: ChatModel; row: ModelRow } | { error: ModelError }> {
  const offered = await modelsOfferedTo(deps.db, tenantId, 'chat');
  const row = offered.find((model) => model.id === modelId);
  if (!row) {
    return {
      error: {
        code: 'rag/unknown-model',
        reason: 'The chat model is no longer offered to your organisation.',
      },
    };
  }
  try {
    const model = modelFromRow(row, deps.secretBox, {
      timeoutMs: deps.modelTimeoutMs,
      fetch: deps.modelFetch,
    });
    if (model.kind !== 'chat') {
      return { error: { code: 'rag/unknown-model', reason: 'The chosen model is not a chat model.' } };
    }
    return { chat: model.chat, row };
  } catch (error) {
    if (error instanceof SecretBoxError) {
      return {
        error: {
          code: 'model/key-unreadable',
          reason:
            'The stored API key cannot be decrypted (the installation secret changed); enter the key again.',
        },
      };
    }
    throw error;
  }
}

/** A model failure in plain words; never the provider's raw error, which may carry the request. */
function modelErrorOf(error: unknown): ModelError {
  if (error instanceof ProviderError) return { code: error.code, reason: error.message };
  return { code: 'provider/error', reason: 'The chat model call failed.' };
}

const emptyAnswer = () => new ProviderError('provider/bad-response', 'The chat model sent an empty answer.');

/**
 * One call of the chat model: the answer text with its markers mapped to `passages` (removed unless
 * `keepMarkers`) and the passages it cites, or the failure in plain words. Streamed pieces go to `stream` as
 * soon as no marker in them can still change; `streamed` says whether any text was shown.
 */
async function modelAnswer(
  chat: ChatModel,
  options: { request: ChatRequest; passages: Passage[]; keepMarkers: boolean; stream?: AnswerStream },
): Promise<{ streamed: boolean } & ({ text: string; sources: PassageSource[] } | { error: ModelError })> {
  const { stream, passages, keepMarkers } = options;
  let streamed = false;
  try {
    if (!stream) {
      const generated = await chat.generate(options.request);
      const mapped = mapCitations(generated.text.trim(), passages);
      const text = keepMarkers ? mapped.text : withoutMarkers(mapped.text);
      if (text === '') throw emptyAnswer();
      return { streamed, text, sources: mapped.sources };
    }
    const citations = createCitationStream(passages, { keepMarkers });
    for await (const piece of chat.stream(options.request)) {
      const shown = citations.push(piece);
      if (shown) {
        streamed = true;
        stream.delta(shown);
      }
    }
    const end = citations.finish();
    if (end.text === '') throw emptyAnswer();
    if (end.rest === null) {
      stream.reset();
      stream.delta(end.text);
    } else if (end.rest) {
      stream.delta(end.rest);
    }
    return { streamed: true, text: end.text, sources: end.mapped.sources };
  } catch (error) {
    return { streamed, error: modelErrorOf(error) };
  }
}

/**
 * Answers a question with a RAG: a curated Q&A pair of the index's knowledge bases that matches strongly is
 * given verbatim; otherwise the index is searched, and without hits above its threshold the fallback text is
 * given. With hits, the RAG's chat model (while still offered to the tenant) answers from the rendered prompt
 * and its [n] citations become the sources; without a model, or when the model fails (error, timeout,
 * malformed stream), sentences of the best passages are the answer, with `model_error` saying why. Never throws
 * for a model failure. Every answer is stored in rag_answers with the chunks used and the stage timings
 * (by `deps.recorder` after the reply when given).
 */
export async function answer(deps: AnswerDeps, input: AnswerInput): Promise<AnswerResult> {
  const { db } = deps;
  const { rag, tenantId } = input;
  if (rag.tenantId !== tenantId) throw new AppError(404, 'not_found', 'RAG not found');
  const given = input.index;
  // A search that came with the index counts as retrieval time.
  const started = performance.now() - (given?.keyword?.tookMs ?? 0);
  const language = answerLanguage(input.language ?? rag.language, input.question);

  const index =
    given === null || (given?.row.tenantId === tenantId && given.row.id === rag.indexId)
      ? given
      : await loadIndex(db, tenantId, rag.indexId);
  const knowledgeBaseIds = index?.knowledgeBaseIds ?? [];
  const qa = index?.hasQa
    ? await matchQa(db, { tenantId, knowledgeBaseIds, question: input.question })
    : null;
  const search =
    qa || !index
      ? null
      : await searchIndex(db, {
          tenantId,
          indexId: rag.indexId,
          query: input.question,
          index,
          ...(deps.vector ? { vector: deps.vector } : {}),
        });
  const hits = search?.hits ?? [];
  const retrieved = performance.now();

  const fallback = (modelError: ModelError | null, used: IndexHit[] = []): Made => ({
    kind: 'fallback',
    answer: input.fallbackText ?? rag.fallbackText,
    sources: [],
    chunks: chunksOf(used, new Set()),
    fallback: true,
    modelError,
  });
  const byChunk = new Map(hits.map((hit) => [hit.chunkId, hit]));
  const extractive = (modelError: ModelError | null): Made => {
    const made = extractiveAnswer({ question: input.question, passages: hits, language: language.base });
    if (!made) return fallback(modelError, hits.slice(0, 3));
    const cited = new Set(made.usedChunkIds);
    return {
      kind: 'extractive',
      answer: rag.citations ? made.answer : withoutMarkers(made.answer),
      sources: made.sources.map((source) => sourceOf(source, byChunk)),
      chunks: chunksOf(hits.slice(0, 3), cited),
      fallback: false,
      modelError,
    };
  };

  let made: Made;
  // Text already streamed by the model path; a different answer after it needs a reset first.
  let streamedModelText = false;
  if (qa) {
    made = qaAnswer(qa);
  } else if (hits.length === 0) {
    made = fallback(null);
  } else if (rag.modelId === null && input.chat === undefined) {
    made = extractive(null);
  } else {
    const model =
      input.chat === undefined ? await chatModelOf(deps, tenantId, rag.modelId ?? '') : { chat: input.chat };
    if ('error' in model) {
      made = extractive(model.error);
    } else {
      const context = renderContext(hits, { maxChars: rag.maxContextChars });
      const template = (await promptTemplate(db, tenantId, rag.promptId)) ?? DEFAULT_PROMPT_TEMPLATE;
      const prompt = renderPrompt(template, {
        question: input.question,
        context: context.text,
        history: renderHistory(input.history),
        language: language.name,
        bot_name: input.botName ?? rag.name,
      });
      const outcome = await modelAnswer(model.chat, {
        request: {
          messages: [{ role: 'user', content: prompt }],
          ...(input.signal ? { signal: input.signal } : {}),
        },
        passages: context.passages,
        keepMarkers: rag.citations,
        ...(input.stream ? { stream: input.stream } : {}),
      });
      streamedModelText = outcome.streamed;
      if ('error' in outcome) {
        // The code and reason only: the raw error may carry the request, never to be logged.
        deps.log.warn(
          { ragId: rag.id, modelId: rag.modelId, code: outcome.error.code, reason: outcome.error.reason },
          'RAG answered without its chat model',
        );
        made = extractive(outcome.error);
      } else {
        const cited = new Set(outcome.sources.map((source) => source.chunkId));
        const used = context.passages.flatMap((passage) => byChunk.get(passage.chunkId) ?? []);
        made = {
          kind: 'model',
          answer: outcome.text,
          sources: outcome.sources.map((source) => sourceOf(source, byChunk)),
          chunks: chunksOf(used, cited),
          fallback: false,
          modelError: null,
        };
      }
    }
  }
  const generated = performance.now();

  if (input.stream && made.kind !== 'model') {
    if (streamedModelText) input.stream.reset();
    input.stream.delta(made.answer);
  }

  const timings = {
    retrieve_ms: round(retrieved - started),
    generate_ms: round(generated - retrieved),
    total_ms: round(performance.now() - started),
  };
  const record = {
    tenantId,
    ragId: rag.id,
    question: input.question,
    answer: made.answer,
    kind: made.kind,
    fallback: made.fallback,
    chunks: made.chunks,
    retrieveMs: timings.retrieve_ms,
    generateMs: timings.generate_ms,
    totalMs: timings.total_ms,
    modelErrorCode: made.modelError?.code ?? null,
    channel: input.channel,
    createdBy: input.actor,
  };
  let id: string;
  if (deps.recorder) {
    id = randomUUID();
    deps.recorder.record({ ...record, id });
  } else {
    const [row] = await db.insert(ragAnswers).values(record).returning({ id: ragAnswers.id });
    if (!row) throw new AppError(500, 'internal', 'The answer was not recorded.');
    id = row.id;
  }
  return {
    id,
    answer: made.answer,
    kind: made.kind,
    sources: made.sources.map((source) => ({
      ...source,
      url: deps.sourceLinks.present(tenantId, source.url),
    })),
    fallback: made.fallback,
    timings,
    model_error: made.modelError,
  };
}
