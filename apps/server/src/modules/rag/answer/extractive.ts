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
  /**
   * A sentence is quoted whole up to this many characters; a longer one is shortened at clause boundaries, keeping
   * the clauses with question terms; default 640 (sentences that long are rare, and a cut loses what they say).
   */
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
const MAX_SENTENCE_CHARS = 640;
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

// Conjunctions that open a clause: a sentence may be shortened just before one. "And" and "or" are left out, as
// they join words as often as clauses ("two or three days").
const CONJUNCTIONS: Record<string, string> = {
  en: 'but yet because although though whereas while unless which',
  de: 'aber denn sondern weil obwohl während dass',
  fr: 'mais car donc puis parce lorsque tandis qui',
  es: 'pero sino porque aunque mientras pues que',
  it: 'ma oppure perché sebbene mentre quindi che',
  pt: 'mas porque embora enquanto pois que',
  nl: 'maar want omdat hoewel terwijl dus die',
};
const conjunctionPatterns = new Map(
  Object.entries(CONJUNCTIONS).map(([language, words]) => [
    language,
    new RegExp(`\\s(?=(?:${words.split(' ').join('|')})\\s)`, 'giu'),
  ]),
);
// After a comma, semicolon or colon and before a dash, each followed or set off by a space.
const CLAUSE_PUNCTUATION = /[,;:](?=\s)|\s(?=[-–—]{1,2}\s)/gu;
const DANGLING = /[\s,;:–—-]+$/u;
const LEADING_DASH = /^[-–—]+\s*/u;
/** A sentence whose question terms lie further apart than this many times the length limit is shortened further. */
const SPREAD_FACTOR = 2;

interface Span {
  start: number;
  end: number;
}

/**
 * The clauses of a sentence as ranges that cover it: cut after , ; : and before a dash, and with `conjunctions`
 * also before a conjunction (a weaker boundary, used only when the others leave too long a quote).
 */
function clausesOf(sentence: string, language: string, conjunctions: boolean): Span[] {
  const cuts = new Set<number>();
  for (const match of sentence.matchAll(CLAUSE_PUNCTUATION)) cuts.add(match.index + 1);
  const pattern = conjunctions ? conjunctionPatterns.get(language) : undefined;
  if (pattern) for (const match of sentence.matchAll(pattern)) cuts.add(match.index + 1);
  const ends = [...cuts].filter((cut) => cut > 0 && cut < sentence.length).sort((a, b) => a - b);
  const spans: Span[] = [];
  let start = 0;
  for (const end of [...ends, sentence.length]) {
    if (sentence.slice(start, end).trim()) spans.push({ start, end });
    else if (spans.length > 0) spans[spans.length - 1] = { start: spans[spans.length - 1]?.start ?? 0, end };
    start = end;
  }
  return spans;
}

/**
 * The run of `units` no longer than `budget` characters (or a single longer unit) that holds the most distinct
 * wanted terms, the earliest of equals, grown by whole units while it fits: the unit before first, then after.
 */
function bestRun(
  units: readonly Span[],
  found: ReadonlyArray<ReadonlySet<string>>,
  budget: number,
): { from: number; to: number } {
  const size = (from: number, to: number) => (units[to - 1]?.end ?? 0) - (units[from]?.start ?? 0);
  let best = { from: 0, to: 1, count: -1 };
  for (let from = 0; from < units.length; from++) {
    const seen = new Set<string>();
    for (let to = from + 1; to <= units.length && (to === from + 1 || size(from, to) <= budget); to++) {
      for (const term of found[to - 1] ?? []) seen.add(term);
      if (seen.size > best.count) best = { from, to, count: seen.size };
    }
  }
  let { from, to } = best;
  for (;;) {
    if (from > 0 && size(from - 1, to) <= budget) from--;
    else if (to < units.length && size(from, to + 1) <= budget) to++;
    else break;
  }
  return { from, to };
}

/**
 * A sentence as quoted in an answer: whole when it has at most `maxChars` characters. A longer one is shortened at
 * clause boundaries only, never through the words that matched: the clauses (cut after a comma, semicolon or
 * colon, or before a dash) from the first to the last that holds a question term are kept whole, with the clauses
 * around them while they fit in `maxChars` (the one before first), even when they alone are longer. Only when they
 * span more than twice the limit do they give way to the run of clauses, now also cut before conjunctions, that
 * holds the most question terms within twice the limit, and a single clause that long to its words. An ellipsis
 * marks each end that was left out.
 */
export function shortenSentence(
  sentence: string,
  wanted: ReadonlySet<string>,
  language: string,
  maxChars: number,
): string {
  if (sentence.length <= maxChars) return sentence;
  const termsIn = (span: Span) =>
    new Set(terms(sentence.slice(span.start, span.end), language).filter((term) => wanted.has(term)));
  const clauses = clausesOf(sentence, language, false);
  const found = clauses.map(termsIn);
  const first = Math.max(
    0,
    found.findIndex((set) => set.size > 0),
  );
  const last = Math.max(
    first,
    found.findLastIndex((set) => set.size > 0),
  );
  const covering = (clauses[last]?.end ?? sentence.length) - (clauses[first]?.start ?? 0);
  const budget = SPREAD_FACTOR * maxChars;
  let span: Span;
  if (covering <= maxChars) {
    const { from, to } = bestRun(clauses, found, maxChars);
    span = { start: clauses[from]?.start ?? 0, end: clauses[to - 1]?.end ?? sentence.length };
  } else if (covering <= budget) {
    span = { start: clauses[first]?.start ?? 0, end: clauses[last]?.end ?? sentence.length };
  } else {
    const finer = clausesOf(sentence, language, true);
    const run = bestRun(finer, finer.map(termsIn), budget);
    span = { start: finer[run.from]?.start ?? 0, end: finer[run.to - 1]?.end ?? sentence.length };
    if (span.end - span.start > budget) {
      // One clause longer than twice the limit: its words are the units.
      const inner = sentence.slice(span.start, span.end);
      const offset = span.start;
      const words = Array.from(inner.matchAll(/\S+/g), (m) => ({
        start: offset + m.index,
        end: offset + m.index + m[0].length,
      }));
      const byWord = bestRun(words, words.map(termsIn), budget);
      span = { start: words[byWord.from]?.start ?? span.start, end: words[byWord.to - 1]?.end ?? span.end };
    }
  }
  const cutStart = span.start > 0;
  const cutEnd = span.end < sentence.length;
  let quoted = sentence.slice(span.start, span.end).trim();
  if (cutStart) quoted = quoted.replace(LEADING_DASH, '');
  if (cutEnd) quoted = quoted.replace(DANGLING, '');
  return `${cutStart ? '…' : ''}${quoted}${cutEnd ? '…' : ''}`;
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
  const maxSentenceChars = Math.max(40, Math.floor(input.maxSentenceChars ?? MAX_SENTENCE_CHARS));
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
      sentence: shortenSentence(candidate.text, wanted, language, maxSentenceChars),
    };
  });
  return {
    answer: citations.map((c) => `${c.sentence} [${c.n}]`).join(' '),
    sources,
    usedChunkIds: sources.map((s) => s.chunkId),
    citations,
  };
}
