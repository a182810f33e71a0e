import {
  type CaseSummarySection,
  type CaseSummarySections,
  type CaseSummarySentiment,
  caseSummaryText,
  type HandoverReason,
  type MessageRole,
} from '@omnibot/contracts';
import { splitSentences } from '../rag/answer/text';

/** One message of a transcript, already masked. */
export interface TranscriptLine {
  role: MessageRole;
  text: string;
  /** A bot message that was the fallback (the bot did not know). */
  fallback: boolean;
}

/** Messages that say nothing about the visitor's case. */
const SMALL_TALK =
  /^(hi|hey|hello|hallo|hola|bonjour|good (morning|afternoon|evening)|thanks?( you)?( very much)?|thank you|ok(ay)?|yes|no|yep|nope|bye|goodbye|danke|ja|nein|ciao|cheers|great|sure)$/u;
/** At most this many of the visitor's first substantive messages make the issue. */
const ISSUE_MESSAGES = 2;
/** At most this many of the bot's latest answers are quoted. */
const ANSWERS_QUOTED = 3;
/** The first sentences of an answer quoted, up to this many characters. */
const ANSWER_CHARS = 180;
const ANSWER_SENTENCES = 2;

const normalise = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s']/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();

/** Whether a visitor's message states something of their case (not a greeting, a thanks or a bare yes). */
export function isSubstantive(text: string): boolean {
  const plain = normalise(text);
  if (plain === '' || SMALL_TALK.test(plain)) return false;
  return text.includes('?') || plain.split(' ').length >= 3;
}

const ellipsis = '…';

/**
 * `text` within `max` characters: whole sentences while at least one fits, else whole words with an ellipsis; a
 * single word longer than the limit is cut.
 */
export function clipText(text: string, max: number, language = 'en'): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  if (max <= 1) return '';
  let kept = '';
  for (const sentence of splitSentences(trimmed, language)) {
    const next = kept === '' ? sentence : `${kept} ${sentence}`;
    if (next.length > max) break;
    kept = next;
  }
  if (kept !== '') return kept;
  let words = '';
  for (const word of trimmed.split(/\s+/u)) {
    const next = words === '' ? word : `${words} ${word}`;
    if (next.length + ellipsis.length > max) break;
    words = next;
  }
  if (words === '') return `${trimmed.slice(0, max - 1)}${ellipsis}`;
  return `${words.replace(/[\s,;:]+$/u, '')}${ellipsis}`;
}

const POSITIVE = new Set([
  'thanks',
  'thank',
  'great',
  'good',
  'perfect',
  'excellent',
  'helpful',
  'love',
  'awesome',
  'happy',
  'appreciate',
  'nice',
  'wonderful',
  'glad',
  'solved',
  'works',
  'fantastic',
  'pleased',
  'danke',
  'super',
  'toll',
]);
const NEGATIVE = new Set([
  'angry',
  'annoyed',
  'annoying',
  'frustrated',
  'frustrating',
  'terrible',
  'awful',
  'bad',
  'useless',
  'worst',
  'hate',
  'disappointed',
  'disappointing',
  'ridiculous',
  'unacceptable',
  'broken',
  'wrong',
  'upset',
  'complaint',
  'horrible',
  'furious',
  'stupid',
  'never',
  'schlecht',
  'ärgerlich',
]);
const NEGATIONS = new Set([
  'not',
  "don't",
  'dont',
  "isn't",
  "doesn't",
  "didn't",
  "wasn't",
  'no',
  'nicht',
  'kein',
]);

/**
 * The visitor's mood from a small lexicon: each positive word counts +1 and each negative one -1, flipped when one of
 * the two words before it negates it ("not helpful"); the sum's sign decides.
 */
export function sentimentOf(texts: readonly string[]): CaseSummarySentiment {
  let score = 0;
  for (const text of texts) {
    const words = normalise(text).split(' ');
    words.forEach((word, index) => {
      const polarity = POSITIVE.has(word) ? 1 : NEGATIVE.has(word) ? -1 : 0;
      if (polarity === 0) return;
      const negated = words.slice(Math.max(0, index - 2), index).some((before) => NEGATIONS.has(before));
      score += negated ? -polarity : polarity;
    });
  }
  if (score > 0) return 'positive';
  if (score < 0) return 'negative';
  return 'neutral';
}

/**
 * The first ANSWER_SENTENCES sentences of an answer up to ANSWER_CHARS, whole sentences only (else whole words),
 * leaving out the questions it ends with ("Anything else?").
 */
function quoteAnswer(text: string, language: string): string {
  const sentences = splitSentences(text.replace(/\s+/gu, ' '), language);
  const statements = sentences.filter((sentence) => !sentence.endsWith('?'));
  const kept = (statements.length > 0 ? statements : sentences).slice(0, ANSWER_SENTENCES);
  return clipText(kept.join(' '), ANSWER_CHARS, language);
}

/**
 * Whether a visitor's message at index `at` was answered: the bot's next message is no fallback, or a person wrote
 * after it.
 */
function answered(lines: readonly TranscriptLine[], at: number): boolean {
  let botAnswered: boolean | null = null;
  for (const line of lines.slice(at + 1)) {
    if (line.role === 'agent') return true;
    if (line.role === 'bot' && botAnswered === null) botAnswered = !line.fallback;
    if (botAnswered === true) return true;
  }
  return false;
}

/** The bot's answers to the visitor's substantive messages (greetings answered are left out). */
function answersToCase(lines: readonly TranscriptLine[]): TranscriptLine[] {
  const answers: TranscriptLine[] = [];
  let substantive = false;
  for (const line of lines) {
    if (line.role === 'visitor') substantive = isSubstantive(line.text);
    else if (line.role === 'bot' && !line.fallback && substantive) answers.push(line);
  }
  return answers;
}

const REASON_TEXT: Record<HandoverReason, string> = {
  visitor: 'The visitor asked for a person.',
  engine: 'The bot handed the conversation to a person.',
  fallbacks: 'The bot could not answer several times in a row.',
};

/**
 * The sections of a summary taken from the transcript itself: the visitor's issue (their first substantive
 * messages), what the bot answered (its answers' first sentences), what is still open (the last visitor question no
 * answer followed, the fallbacks, why it went to a person) and the visitor's sentiment.
 */
export function extractiveSections(
  lines: readonly TranscriptLine[],
  wanted: readonly CaseSummarySection[],
  context: { language: string; handoverReason: HandoverReason | null },
): CaseSummarySections {
  const visitor = lines.filter((line) => line.role === 'visitor');
  const substantive = visitor.filter((line) => isSubstantive(line.text));
  const sections: CaseSummarySections = {};
  if (wanted.includes('issue')) {
    const chosen = (substantive.length > 0 ? substantive : visitor).slice(0, ISSUE_MESSAGES);
    sections.issue =
      chosen.length === 0
        ? 'The visitor has not written yet.'
        : chosen.map((line) => line.text.replace(/\s+/gu, ' ').trim()).join(' ');
  }
  const fallbacks = lines.filter((line) => line.role === 'bot' && line.fallback).length;
  if (wanted.includes('answers')) {
    const answers = answersToCase(lines).slice(-ANSWERS_QUOTED);
    sections.answers =
      answers.length > 0
        ? answers.map((line) => quoteAnswer(line.text, context.language)).join(' ')
        : fallbacks > 0
          ? 'The bot could not answer.'
          : 'The bot has not answered yet.';
  }
  if (wanted.includes('open')) {
    let open: string | null = null;
    lines.forEach((line, index) => {
      if (line.role === 'visitor' && isSubstantive(line.text) && !answered(lines, index)) open = line.text;
    });
    const parts: string[] = [];
    if (open !== null) parts.push(`"${(open as string).replace(/\s+/gu, ' ').trim()}"`);
    if (fallbacks > 0) {
      parts.push(`The bot could not answer ${fallbacks === 1 ? 'once' : `${fallbacks} times`}.`);
    }
    if (context.handoverReason !== null) parts.push(REASON_TEXT[context.handoverReason]);
    sections.open = parts.length > 0 ? parts.join(' ') : 'Nothing is left open.';
  }
  if (wanted.includes('sentiment')) sections.sentiment = sentimentOf(visitor.map((line) => line.text));
  return sections;
}

const TEXT_SECTIONS = ['issue', 'answers', 'open'] as const;

/**
 * The summary within `maxChars` characters as a whole: when the labelled text is longer, the room left after the
 * labels and the sentiment is shared among the text sections (a short one leaves its share to the others) and each
 * is cut at a whole sentence, or a whole word.
 */
export function fitSummary(
  sections: CaseSummarySections,
  order: readonly CaseSummarySection[],
  maxChars: number,
  language = 'en',
): { sections: CaseSummarySections; text: string } {
  const whole = caseSummaryText(sections, order);
  if (whole.length <= maxChars) return { sections, text: whole };
  const present = TEXT_SECTIONS.filter((name) => order.includes(name) && (sections[name] ?? '') !== '');
  const emptied: CaseSummarySections = { ...sections };
  for (const name of present) emptied[name] = 'x';
  // The labels, separators and sentiment cost the same whatever the texts; one placeholder character each.
  const fixed = caseSummaryText(emptied, order).length - present.length;
  let room = Math.max(0, maxChars - fixed);
  const fitted: CaseSummarySections = { ...sections };
  const byLength = [...present].sort((a, b) => (sections[a] ?? '').length - (sections[b] ?? '').length);
  byLength.forEach((name, index) => {
    const share = Math.floor(room / (byLength.length - index));
    const value = clipText(sections[name] ?? '', share, language);
    fitted[name] = value;
    room -= value.length;
  });
  let text = caseSummaryText(fitted, order);
  if (text.length > maxChars) text = clipText(text, maxChars, language);
  return { sections: fitted, text };
}
