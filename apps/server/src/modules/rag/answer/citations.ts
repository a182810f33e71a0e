import { splitSentences } from './text';
import { toSource, type AnswerSource, type Passage } from './types';

export interface MappedCitations {
  /** The answer with its markers renumbered to `sources`, ranges expanded, repeats and unknown numbers removed. */
  text: string;
  /** The cited passages only, in the order they are first cited, numbered 1, 2, 3… as the rewritten markers say. */
  sources: AnswerSource[];
  /** True when the answer cites no passage it was given. */
  uncited: boolean;
}

// [1], [1, 2], [1-3], [1–3] and mixes such as [1, 3-4]; anything else in brackets is left alone.
const MARKER = /[ \t]?\[(\s*\d{1,4}(?:\s*[-–]\s*\d{1,4})?(?:\s*[,;]\s*\d{1,4}(?:\s*[-–]\s*\d{1,4})?)*\s*)\]/g;

/**
 * Maps the [n] markers of a model's answer to the passages of its context block (1-based, in context order).
 * Sources are renumbered in first-cited order so the reader sees [1], [2]… whatever the context numbers were;
 * a marker whose numbers are all out of range disappears together with the space before it.
 */
export function mapCitations(answerText: string, passages: Passage[]): MappedCitations {
  const renumber = new Map<number, number>();
  const sources: AnswerSource[] = [];
  const text = answerText.replace(MARKER, (whole: string, inner: string) => {
    const cited: number[] = [];
    for (const part of inner.split(/[,;]/)) {
      const bounds = part.split(/[-–]/).map((value) => Number.parseInt(value.trim(), 10));
      const from = bounds[0];
      const to = bounds[1] ?? from;
      if (from === undefined || to === undefined || Number.isNaN(from) || Number.isNaN(to)) continue;
      // A range is clamped to the passages that exist, so [1-9999] costs no more than the context's size.
      const low = Math.max(1, Math.min(from, to));
      const high = Math.min(passages.length, Math.max(from, to));
      for (let index = low; index <= high; index++) {
        const passage = passages[index - 1];
        if (!passage) continue;
        let n = renumber.get(index);
        if (n === undefined) {
          n = sources.length + 1;
          renumber.set(index, n);
          sources.push(toSource(passage, n));
        }
        if (!cited.includes(n)) cited.push(n);
      }
    }
    if (cited.length === 0) return '';
    const lead = whole.startsWith(' ') || whole.startsWith('\t') ? (whole[0] ?? '') : '';
    return `${lead}[${cited.join(', ')}]`;
  });
  return { text, sources, uncited: sources.length === 0 };
}

export interface RenderedContext {
  /** The numbered context block: "[n] Title — Heading › Path" then the passage text, blocks separated by a blank line. */
  text: string;
  /** The passages in the block, in their numbered order: the list `mapCitations` needs. */
  passages: Passage[];
  /** True when a passage was shortened or left out to stay within `maxChars`. */
  truncated: boolean;
}

function header(passage: Passage, n: number): string {
  const path = passage.headingPath.filter((part) => part.trim() && part !== passage.title).join(' › ');
  const title = passage.title.trim();
  return `[${n}] ${[title, path].filter(Boolean).join(' — ')}`.trimEnd();
}

/** The longest start of `text` that fits in `budget` characters: whole sentences if any fit, else whole words. */
function fitText(text: string, budget: number): string {
  // The cut falls at the end of a sentence of the original text, so its line breaks stay as they were.
  let end = 0;
  let cursor = 0;
  for (const sentence of splitSentences(text)) {
    const at = text.indexOf(sentence, cursor);
    if (at < 0) break;
    cursor = at + sentence.length;
    if (cursor > budget) break;
    end = cursor;
  }
  if (end > 0) return text.slice(0, end);
  let kept = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = kept ? `${kept} ${word}` : word;
    if (next.length + 1 > budget) break;
    kept = next;
  }
  return kept ? `${kept}…` : '';
}

/**
 * Builds the numbered context block given to a model, best passage first, within `maxChars` characters in all.
 * The passage that does not fit whole is cut after its last whole sentence that fits (after a whole word when
 * not even one sentence fits) and the passages after it are left out.
 */
export function renderContext(passages: Passage[], options: { maxChars: number }): RenderedContext {
  const maxChars = Math.max(0, Math.floor(options.maxChars));
  const blocks: string[] = [];
  const included: Passage[] = [];
  let used = 0;
  let truncated = false;
  for (const passage of passages) {
    const n = included.length + 1;
    const head = header(passage, n);
    const body = passage.text.trim();
    const separator = blocks.length > 0 ? 2 : 0;
    const whole = `${head}\n${body}`;
    if (used + separator + whole.length <= maxChars) {
      blocks.push(whole);
      included.push(passage);
      used += separator + whole.length;
      continue;
    }
    truncated = true;
    const fitted = fitText(body, maxChars - used - separator - head.length - 1);
    if (fitted) {
      blocks.push(`${head}\n${fitted}`);
      included.push(passage);
    }
    break;
  }
  return { text: blocks.join('\n\n'), passages: included, truncated };
}
