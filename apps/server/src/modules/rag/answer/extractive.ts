import { baseLanguage, fold, isAscii, splitSentences, terms, termsOfWords } from './text';
import { toSource, type AnswerSource, type Passage } from './types';

export interface ExtractiveInput {
  question: string;
  /** Ranked retrieval hits, best first. */
  passages: Passage[];
  /** Language of the passages (and of the question); picks the stop words, stemmer and sentence rules. */
  language?: string;
  /** How many sentences the answer holds at most; default 2. */
  maxSentences?: number;
  /** How many of the top passages the sentences are taken from; default 3. */
  maxPassages?: number;
  /** A longer sentence is cut to the window of this many characters that holds most question terms; default 320. */
  maxSentenceChars?: number;
}

export interface ExtractiveCitation {
  n: number;
  chunkId: string;
  sentence: string;
}

export interface ExtractiveAnswer {
  /** The chosen sentences, each followed by the marker [n] of its source. */
  answer: string;
  /** The passages the sentences come from, numbered in the order they first appear in the answer. */
  sources: AnswerSource[];
  usedChunkIds: string[];
  /** Every sentence of the answer with the source it carries. */
  citations: ExtractiveCitation[];
}

// BM25 over sentences; sentences are short, so length normalisation is kept moderate.
const K1 = 1.2;
const B = 0.5;
// Added to a sentence's score for coming from a better-ranked passage: this much for the first, half for the second…
const RANK_BONUS = 0.3;
const MIN_SENTENCE_CHARS = 12;
const MIN_SENTENCE_WORDS = 3;
const HEADING_MAX_WORDS = 8;

interface Candidate {
  passage: number;
  source: Passage;
  index: number;
  text: string;
  terms: readonly string[];
  score: number;
}

const ENDS_LIKE_SENTENCE = /[.!?;:…)"'»”’。！？]$/u;
const LIST_MARKER = /^\s*(?:[-*•]|\d{1,3}[.)])\s+/u;

/** The text folded, with every run of characters other than letters and digits as one space (its words, for terms). */
const comparable = (text: string) => {
  const folded = fold(text);
  // In ASCII text the letters and digits are [a-z0-9] once lower-cased.
  return (
    isAscii(folded) ? folded.replace(/[^a-z0-9]+/g, ' ') : folded.replace(/[^\p{L}\p{N}]+/gu, ' ')
  ).trim();
};

/**
 * The sentences of a passage worth quoting, each with its comparable form: headings, labels and fragments of a
 * word or two are left out.
 */
function quotableSentences(passage: Passage, language: string): { text: string; key: string }[] {
  const labels = new Set([passage.title, ...passage.headingPath].map(comparable));
  const out: { text: string; key: string }[] = [];
  for (const raw of splitSentences(passage.text, language)) {
    const isListItem = LIST_MARKER.test(raw);
    const sentence = raw
      .replace(LIST_MARKER, '')
      .replace(/^#+\s*/, '')
      .trim();
    const words = sentence.split(/\s+/).filter(Boolean).length;
    if (sentence.length < MIN_SENTENCE_CHARS || words < MIN_SENTENCE_WORDS) continue;
    const key = comparable(sentence);
    if (labels.has(key)) continue;
    if (!isListItem && !ENDS_LIKE_SENTENCE.test(sentence) && words <= HEADING_MAX_WORDS) continue;
    out.push({ text: sentence, key });
  }
  return out;
}

interface QuotableSentence {
  text: string;
  key: string;
  terms: readonly string[];
}

/** What one passage gave: checked against the passage before use, since a chunk id alone may be reused. */
interface AnalysedPassage {
  text: string;
  labels: string;
  sentences: readonly QuotableSentence[];
}

/** Passages analysed lately, least recently used first: the passages that answer many questions are split once. */
const MAX_ANALYSED_PASSAGES = 2_000;
const analysedPassages = new Map<string, AnalysedPassage>();

/** quotableSentences with the terms of each, remembered per chunk and language (bounded, least recently used out). */
function analysedSentences(passage: Passage, language: string): readonly QuotableSentence[] {
  const id = `${language}\u0000${passage.chunkId}`;
  const labels = [passage.title, ...passage.headingPath].join('\u0000');
  const known = analysedPassages.get(id);
  analysedPassages.delete(id);
  if (known && known.text === passage.text && known.labels === labels) {
    analysedPassages.set(id, known);
    return known.sentences;
  }
  const sentences = quotableSentences(passage, language).map(({ text, key }) => ({
    text,
    key,
    terms: termsOfWords(key, language),
  }));
  if (analysedPassages.size >= MAX_ANALYSED_PASSAGES) {
    const oldest = analysedPassages.keys().next();
    if (!oldest.done) analysedPassages.delete(oldest.value);
  }
  analysedPassages.set(id, { text: passage.text, labels, sentences });
  return sentences;
}

/** Cuts a sentence longer than `maxChars` to the run of whole words that holds the most question terms. */
export function truncateSentence(
  sentence: string,
  wanted: Set<string>,
  language: string,
  maxChars: number,
): string {
  if (sentence.length <= maxChars) return sentence;
  const words = Array.from(sentence.matchAll(/\S+/g), (m) => ({
    start: m.index,
    end: m.index + m[0].length,
  }));
  const hits = [0];
  for (const word of words) {
    const hit = terms(sentence.slice(word.start, word.end), language).some((term) => wanted.has(term));
    hits.push((hits.at(-1) ?? 0) + (hit ? 1 : 0));
  }
  // Room for the two ellipses.
  const budget = Math.max(1, maxChars - 2);
  let best = { from: 0, to: 1, hits: -1 };
  let to = 0;
  words.forEach((first, from) => {
    to = Math.max(to, from + 1);
    while (to < words.length && (words[to]?.end ?? Infinity) - first.start <= budget) to++;
    const count = (hits[to] ?? 0) - (hits[from] ?? 0);
    if (count > best.hits) best = { from, to, hits: count };
  });
  const start = words[best.from]?.start ?? 0;
  const end = Math.min(words[best.to - 1]?.end ?? sentence.length, start + budget);
  return `${best.from > 0 ? '…' : ''}${sentence.slice(start, end)}${end < sentence.length ? '…' : ''}`;
}

/**
 * Builds an answer without a model: the sentences of the top passages that are most relevant to the question
 * (BM25 weighting with document frequencies counted over those sentences, plus a small bonus for a better-ranked
 * passage), in document order within each passage, each with its source marker [n]. Returns null when no sentence
 * shares a content term with the question. Deterministic: ties go to the better passage, then the earlier sentence.
 */
export function extractiveAnswer(input: ExtractiveInput): ExtractiveAnswer | null {
  const language = baseLanguage(input.language);
  const maxSentences = Math.max(1, Math.floor(input.maxSentences ?? 2));
  const maxPassages = Math.max(1, Math.floor(input.maxPassages ?? 3));
  const maxSentenceChars = Math.max(40, Math.floor(input.maxSentenceChars ?? 320));
  const wanted = new Set(terms(input.question, language));
  if (wanted.size === 0) return null;

  const passages = input.passages.slice(0, maxPassages);
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  passages.forEach((passage, p) => {
    analysedSentences(passage, language).forEach(({ text, key, terms: sentenceTerms }, index) => {
      // Overlapping chunks repeat sentences; the better-ranked copy is kept.
      if (seen.has(key)) return;
      seen.add(key);
      candidates.push({ passage: p, source: passage, index, text, terms: sentenceTerms, score: 0 });
    });
  });
  if (candidates.length === 0) return null;

  const documentFrequency = new Map<string, number>();
  for (const candidate of candidates) {
    for (const term of new Set(candidate.terms)) {
      if (wanted.has(term)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    }
  }
  const total = candidates.length;
  const averageLength = candidates.reduce((sum, c) => sum + c.terms.length, 0) / total || 1;
  for (const candidate of candidates) {
    const frequency = new Map<string, number>();
    for (const term of candidate.terms)
      if (wanted.has(term)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
    let score = 0;
    for (const [term, tf] of frequency) {
      const df = documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (total - df + 0.5) / (df + 0.5));
      score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * candidate.terms.length) / averageLength));
    }
    candidate.score = score > 0 ? score + RANK_BONUS / (candidate.passage + 1) : 0;
  }

  const chosen = candidates
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || a.passage - b.passage || a.index - b.index)
    .slice(0, maxSentences);
  if (chosen.length === 0) return null;

  // Passages appear in the order of their best sentence; a passage's sentences keep their document order.
  const passageOrder = [...new Set(chosen.map((c) => c.passage))];
  const ordered = passageOrder.flatMap((p) =>
    chosen.filter((c) => c.passage === p).sort((a, b) => a.index - b.index),
  );
  const sources: AnswerSource[] = [];
  const citations: ExtractiveCitation[] = ordered.map((candidate) => {
    const passage = candidate.source;
    const n = passageOrder.indexOf(candidate.passage) + 1;
    if (!sources.some((s) => s.n === n)) sources.push(toSource(passage, n));
    return {
      n,
      chunkId: passage.chunkId,
      sentence: truncateSentence(candidate.text, wanted, language, maxSentenceChars),
    };
  });
  return {
    answer: citations.map((c) => `${c.sentence} [${c.n}]`).join(' '),
    sources,
    usedChunkIds: sources.map((s) => s.chunkId),
    citations,
  };
}
