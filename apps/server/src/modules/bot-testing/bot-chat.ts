import {
  type BotChatReply,
  type BotChatTurn,
  type HistoryTurn,
  TRACE_EXCERPT_MAX,
  type TraceChunk,
} from '@omnibot/contracts';
import type { Db } from '../../db/client';
import { actorId, type Principal } from '../../lib/principal';
import { engineFor } from '../bots/bot-engine';
import { type BotsDeps, getBot } from '../bots/bots.service';
import type { AnswerDeps } from '../rag/rag-answer';
import { storedRagAnswerOf } from '../rag/rags.service';
import { passagesOf, sourceLinksOf } from '../knowledge/knowledge.service';

export interface BotChatDeps {
  bots: BotsDeps;
  /** Without a recorder, so the RAG answer is stored before the trace is read from it. */
  answers: AnswerDeps;
}

const excerpt = (text: string) =>
  text.length <= TRACE_EXCERPT_MAX ? text : `${text.slice(0, TRACE_EXCERPT_MAX - 1).trimEnd()}…`;

/**
 * The chunks a stored RAG answer used, best first, with where each is (source title, heading path, page) and the
 * beginning of its text; a Q&A pair shows its question as title and its answer as text. Every read is filtered
 * by the tenant.
 */
async function traceChunks(db: Db, tenantId: string, answerId: string): Promise<TraceChunk[]> {
  const answer = await storedRagAnswerOf(db, tenantId, answerId);
  const used = answer?.chunks ?? [];
  if (used.length === 0) return [];
  const ids = used.map((chunk) => chunk.chunkId);
  const sourceIds = [...new Set(used.map((chunk) => chunk.sourceId))];
  const [{ chunks, pairs }, sources] = await Promise.all([
    passagesOf(db, tenantId, ids),
    sourceLinksOf(db, tenantId, sourceIds),
  ]);
  const chunkOf = new Map(chunks.map((row) => [row.id, row]));
  const pairOf = new Map(pairs.map((row) => [row.id, row]));
  const sourceOf = new Map(sources.map((row) => [row.id, row]));
  return used
    .map((chunk): TraceChunk => {
      const source = sourceOf.get(chunk.sourceId);
      const pair = pairOf.get(chunk.chunkId);
      const passage = chunkOf.get(chunk.chunkId);
      return {
        chunk_id: chunk.chunkId,
        source_id: chunk.sourceId,
        title: pair?.question ?? source?.title ?? source?.url ?? 'Deleted source',
        url: source?.url ?? null,
        heading_path: passage?.headingPath ?? [],
        page: passage?.page ?? null,
        score: chunk.score,
        cited: chunk.cited,
        excerpt: excerpt(pair?.answer ?? passage?.text ?? ''),
      };
    })
    .sort((a, b) => b.score - a.score);
}

/**
 * A staff member's message to one of the organisation's bots, enabled or not: the bot's reply with the trace of
 * how it was made (for the builtin engine the chunks retrieved, their scores and the stage timings of the stored
 * RAG answer, which is recorded with channel 'test'). Nothing is stored in the visitors' conversations.
 */
export async function chatWithBot(
  deps: BotChatDeps,
  principal: Principal,
  botId: string,
  body: { text: string; history?: BotChatTurn[] },
): Promise<BotChatReply> {
  const bot = await getBot(deps.bots, principal, botId);
  const history: HistoryTurn[] = (body.history ?? []).map((turn) => ({
    role: turn.role,
    content: turn.text,
  }));
  const reply = await engineFor(deps.answers, bot).respond({
    tenantId: principal.tenantId,
    bot,
    text: body.text,
    history,
    channel: 'test',
    actor: actorId(principal),
  });
  const answerId = reply.trace.answerId;
  const stored =
    answerId === null
      ? undefined
      : ((await storedRagAnswerOf(deps.answers.db, principal.tenantId, answerId)) ?? undefined);
  return {
    messages: reply.messages,
    sources: reply.sources,
    fallback: reply.fallback,
    handover_offered: reply.handoverOffered,
    trace: {
      engine: reply.trace.engine,
      error: reply.trace.error,
      answer_id: answerId,
      kind: stored?.kind ?? null,
      chunks: answerId === null ? [] : await traceChunks(deps.answers.db, principal.tenantId, answerId),
      timings: stored
        ? { retrieve_ms: stored.retrieveMs, generate_ms: stored.generateMs, total_ms: stored.totalMs }
        : { retrieve_ms: 0, generate_ms: 0, total_ms: reply.trace.ms },
    },
  };
}
