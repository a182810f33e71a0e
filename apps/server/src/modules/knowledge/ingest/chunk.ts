import { contentHash, wordCount } from './normalise';
import type { BlockKind, ParsedDocument } from './types';

/**
 * Sizes are measured in words (runs of non-space characters): about 0.75 of a typical English token count.
 * A chunk holds at most `targetWords` words, except that one heading line may push it over.
 */
export interface ChunkOptions {
  /** Upper size of a chunk in words; default 350. */
  targetWords?: number;
  /** Share of `targetWords` repeated from the end of the previous chunk of the same section; default 0.15. */
  overlap?: number;
  /** A chunk with fewer words than this is not closed at a new section but continues into it; default targetWords / 8. */
  minWords?: number;
}

export interface Chunk {
  ordinal: number;
  text: string;
  /** The heading path the chunk's own content starts under. */
  headingPath: string[];
  /** Page of the chunk's first text (PDF only), else null. */
  page: number | null;
  charCount: number;
  wordCount: number;
  /** sha256 of the normalised text, to recognise unchanged chunks on re-ingestion. */
  hash: string;
}

const DEFAULT_TARGET_WORDS = 350;
const DEFAULT_OVERLAP = 0.15;
// Text without spaces (long URLs, encoded data) is cut at this many characters per word of the target.
const CHARS_PER_WORD_CAP = 10;

interface Unit {
  kind: BlockKind;
  text: string;
  words: number;
  level?: number;
  headingPath: string[];
  page?: number;
  /** Increases at every heading of level 1 or 2: overlap never crosses a section. */
  section: number;
  /** Repeated from the previous chunk. */
  overlap?: boolean;
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

export function sentences(text: string): string[] {
  return Array.from(segmenter.segment(text), (s) => s.segment.trim()).filter(Boolean);
}

/** Splits a unit that is larger than the target into pieces of whole sentences (or of words, for a giant sentence). */
function splitLarge(unit: Unit, targetWords: number): Unit[] {
  const maxChars = targetWords * CHARS_PER_WORD_CAP;
  if (unit.words <= targetWords && unit.text.length <= maxChars) return [unit];
  const marker = markerWords(unit.kind);
  const budget = Math.max(1, targetWords - marker);
  const pieces: string[] = [];
  for (const sentence of unit.kind === 'code' ? unit.text.split('\n') : sentences(unit.text)) {
    let rest = sentence;
    while (rest.length > maxChars) {
      pieces.push(rest.slice(0, maxChars));
      rest = rest.slice(maxChars);
    }
    const words = rest.split(/\s+/).filter(Boolean);
    for (let i = 0; i < words.length; i += budget) pieces.push(words.slice(i, i + budget).join(' '));
  }
  const separator = unit.kind === 'code' ? '\n' : ' ';
  const grouped: Unit[] = [];
  let current: string[] = [];
  let currentWords = 0;
  let currentChars = 0;
  const push = () => {
    if (current.length)
      grouped.push({ ...unit, text: current.join(separator), words: currentWords + marker });
    current = [];
    currentWords = 0;
    currentChars = 0;
  };
  for (const piece of pieces) {
    const words = wordCount(piece);
    if (current.length && (currentWords + words > budget || currentChars + piece.length > maxChars)) push();
    current.push(piece);
    currentWords += words;
    currentChars += piece.length + 1;
  }
  push();
  return grouped;
}

/** A list item is rendered with a "- " marker, which counts as a word of the chunk. */
const markerWords = (kind: BlockKind) => (kind === 'list-item' ? 1 : 0);

function unitLine(unit: Unit): string {
  if (unit.kind === 'list-item') return `${'  '.repeat(Math.max(0, (unit.level ?? 1) - 1))}- ${unit.text}`;
  return unit.text;
}

const isRow = (kind: BlockKind) => kind === 'list-item' || kind === 'table-row';

function joinUnits(units: Unit[]): string {
  let text = '';
  units.forEach((unit, i) => {
    const previous = units[i - 1];
    if (previous) text += isRow(previous.kind) && isRow(unit.kind) ? '\n' : '\n\n';
    text += unitLine(unit);
  });
  return text;
}

/**
 * Cuts a parsed document into chunks for retrieval. Follows the structure: a list item or table row is never split
 * unless it alone exceeds the target (then by sentences); a heading of level 1 or 2 starts a new chunk unless the
 * current one is still below `minWords`; each chunk starts with the last sentences of the previous chunk of the same
 * section (the overlap). The heading path is a separate field; the text carries no prefix. Deterministic.
 */
export function chunk(document: ParsedDocument, options: ChunkOptions = {}): Chunk[] {
  const targetWords = Math.max(1, Math.floor(options.targetWords ?? DEFAULT_TARGET_WORDS));
  const overlapWords = Math.floor(
    targetWords * Math.min(0.5, Math.max(0, options.overlap ?? DEFAULT_OVERLAP)),
  );
  const minWords = options.minWords ?? Math.round(targetWords / 8);
  const chunks: Chunk[] = [];
  let current: Unit[] = [];
  let section = 0;

  const maxChars = targetWords * CHARS_PER_WORD_CAP;
  const sizeOf = (units: Unit[]) => units.reduce((sum, u) => sum + u.words, 0);
  const charsOf = (units: Unit[]) => units.reduce((sum, u) => sum + u.text.length, 0);
  const contentWords = (units: Unit[]) =>
    units.reduce((sum, u) => sum + (u.kind === 'heading' || u.overlap ? 0 : u.words), 0);

  const emit = () => {
    const own = current.filter((u) => !u.overlap);
    if (!own.some((u) => u.kind !== 'heading')) return;
    // The headings that open the chunk form its path and are left out of its text.
    let lead = 0;
    while (own[lead]?.kind === 'heading') lead++;
    const first = own[lead > 0 ? lead - 1 : 0];
    const headingPath = first?.headingPath ?? [];
    const body = current.filter((u) => {
      if (u.overlap || u.kind !== 'heading') return true;
      const ownIndex = own.indexOf(u);
      return !(ownIndex >= 0 && ownIndex < lead && headingPath.includes(u.text));
    });
    const text = joinUnits(body);
    chunks.push({
      ordinal: chunks.length,
      text,
      headingPath,
      page: current.find((u) => u.page !== undefined)?.page ?? null,
      charCount: text.length,
      wordCount: wordCount(text),
      hash: contentHash(text),
    });
  };

  /** The last whole sentences of the current chunk's content in `section` that fit within the overlap budget. */
  const tail = (inSection: number): Unit[] => {
    if (overlapWords === 0) return [];
    const taken: Unit[] = [];
    let budget = overlapWords;
    for (let i = current.length - 1; i >= 0; i--) {
      const unit = current[i];
      if (!unit || unit.section !== inSection) break;
      if (unit.kind === 'heading') continue;
      const parts = unit.kind === 'code' ? [unit.text] : sentences(unit.text);
      const kept: string[] = [];
      for (let j = parts.length - 1; j >= 0; j--) {
        const words = wordCount(parts[j] ?? '');
        if (words > budget) break;
        kept.unshift(parts[j] ?? '');
        budget -= words;
      }
      if (kept.length) {
        const text = kept.join(' ');
        taken.unshift({ ...unit, text, words: wordCount(text) + markerWords(unit.kind), overlap: true });
      }
      if (kept.length < parts.length) break;
    }
    return taken;
  };

  for (const block of document.blocks) {
    if (block.kind === 'heading' && (block.level ?? 1) <= 2) {
      section++;
      if (contentWords(current) >= minWords) {
        emit();
        current = [];
      }
    }
    const base: Unit = {
      kind: block.kind,
      text: block.text,
      words: wordCount(block.text) + markerWords(block.kind),
      headingPath: block.headingPath,
      section,
      ...(block.level !== undefined ? { level: block.level } : {}),
      ...(block.page !== undefined ? { page: block.page } : {}),
    };
    for (const unit of splitLarge(base, targetWords)) {
      const full =
        sizeOf(current) + unit.words > targetWords || charsOf(current) + unit.text.length > maxChars;
      if (contentWords(current) > 0 && full) {
        // Headings at the end of a full chunk belong to the text that follows them.
        const headings: Unit[] = [];
        while (current.at(-1)?.kind === 'heading' && !current.at(-1)?.overlap)
          headings.unshift(current.pop() as Unit);
        const carried = tail(unit.section);
        emit();
        const next = [...carried, ...headings];
        const fits = sizeOf(next) + unit.words <= targetWords && charsOf(next) + unit.text.length <= maxChars;
        current = fits ? next : headings;
      }
      current.push(unit);
    }
  }
  emit();
  return chunks;
}
