import type { Db } from '../../../db/client';
import type { IndexedQaSet, QaQuestion } from '../../knowledge/retrieval/qa-benchmark';
import { searchKeyword } from '../../knowledge/retrieval/retrieval';
import { extractiveAnswer, type ExtractiveInput } from './extractive';
import { terms } from './text';
import type { Passage } from './types';

// Extractive answers on a question set indexed by indexQaSet (bench/qa.mjs): each question's best three passages
// by keyword search, answered by the product's extractive answerer and by a plain best-two-sentences answerer
// (the same sentences, always quoted whole), and what each answer keeps of the expected paragraph.

export interface AnswerScore {
  questions: number;
  /** Answers that quote at least one sentence. */
  answered: number;
  /** Answers that quote the expected paragraph. */
  right: number;
  /** Answers with an ellipsis: a sentence shortened. */
  elided: number;
  /** Summed over questions: the share of the expected paragraph's distinct content terms the answer holds. */
  paragraphTerms: number;
  /** Summed over answers: their length in characters. */
  chars: number;
}

export interface AnswerResult {
  product: AnswerScore;
  plain: AnswerScore;
}

const emptyScore = (questions: number): AnswerScore => ({
  questions,
  answered: 0,
  right: 0,
  elided: 0,
  paragraphTerms: 0,
  chars: 0,
});

/** Answers every question of the set with the extractive answerer, as shipped and with whole sentences only. */
export async function evaluateAnswers(
  db: Db,
  indexed: IndexedQaSet,
  language: string,
  paragraphs: ReadonlyMap<string, { chapter: string; text: string }>,
  questions: readonly QaQuestion[],
): Promise<AnswerResult> {
  const result: AnswerResult = {
    product: emptyScore(questions.length),
    plain: emptyScore(questions.length),
  };
  const termsOf = new Map<string, Set<string>>();
  for (const { question, expected } of questions) {
    const hits = await searchKeyword(db, {
      tenantId: indexed.tenantId,
      knowledgeBaseIds: [indexed.knowledgeBaseId],
      query: question,
      topK: 3,
    });
    const passages: Passage[] = hits.map((hit) => ({
      chunkId: hit.chunkId,
      sourceId: hit.sourceId,
      text: hit.text,
      score: hit.score,
      title: paragraphs.get(indexed.paragraphOf.get(hit.chunkId) ?? '')?.chapter ?? '',
      headingPath: hit.headingPath,
    }));
    let expectedTerms = termsOf.get(expected);
    if (!expectedTerms) {
      expectedTerms = new Set(terms(paragraphs.get(expected)?.text ?? '', language));
      termsOf.set(expected, expectedTerms);
    }
    const input: ExtractiveInput = { question, passages, language };
    for (const [score, made] of [
      [result.product, extractiveAnswer(input)],
      [result.plain, extractiveAnswer({ ...input, maxSentenceChars: Number.MAX_SAFE_INTEGER })],
    ] as const) {
      if (!made) continue;
      score.answered += 1;
      score.chars += made.answer.length;
      if (made.answer.includes('…')) score.elided += 1;
      if (made.usedChunkIds.some((id) => indexed.paragraphOf.get(id) === expected)) score.right += 1;
      const kept = new Set(terms(made.answer, language));
      let found = 0;
      for (const term of expectedTerms) if (kept.has(term)) found += 1;
      score.paragraphTerms += expectedTerms.size === 0 ? 0 : found / expectedTerms.size;
    }
  }
  return result;
}
