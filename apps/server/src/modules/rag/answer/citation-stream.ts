import { mapCitations, type MappedCitations } from './citations';
import type { Passage } from './types';

// The longest marker worth waiting for ("[1, 2, 3, … 12]"); an unclosed bracket older than this is plain text.
const MARKER_WAIT_CHARS = 64;
const ANY_MARKER = /[ \t]?\[\s*\d{1,4}(?:\s*[-–,;]\s*\d{1,4})*\s*\]/g;

/** The answer text without its [n] markers (and the space before each). */
export const withoutMarkers = (text: string) => text.replace(ANY_MARKER, '');

/**
 * Where the text can be cut without splitting a marker that may still be arriving. Whitespace before the cut
 * waits too: a marker takes the space before it when it is dropped, and the final text has no trailing space.
 */
function safeEnd(raw: string): number {
  let end = raw.length;
  const open = raw.lastIndexOf('[');
  if (open !== -1 && raw.indexOf(']', open) === -1 && raw.length - open <= MARKER_WAIT_CHARS) end = open;
  while (end > 0 && /\s/u.test(raw[end - 1] ?? '')) end -= 1;
  return end;
}

export interface CitationStream {
  /** Takes the next piece of the model's text; returns the text that can be shown now (maybe empty). */
  push(piece: string): string;
  /**
   * Ends the text: the citations of the whole answer, the final text (without leading or trailing whitespace),
   * and what is left to show; `rest` is null
   * when the text already shown is not a start of the final text (the client must then start over).
   */
  finish(): { mapped: MappedCitations; text: string; rest: string | null };
  /** The text shown so far. */
  readonly shown: string;
}

/**
 * Rewrites a streamed answer's [n] markers as mapCitations does for the whole text, piece by piece: text is
 * held back only while a marker may be incomplete, so what is shown is always the start of the final answer.
 * With `keepMarkers` false the markers are removed (the sources are still known).
 */
export function createCitationStream(passages: Passage[], options: { keepMarkers: boolean }): CitationStream {
  let raw = '';
  let shown = '';
  const render = (text: string) => {
    const mapped = mapCitations(text, passages);
    return { mapped, text: options.keepMarkers ? mapped.text : withoutMarkers(mapped.text) };
  };
  return {
    get shown() {
      return shown;
    },
    push(piece) {
      // The answer starts at its first visible character.
      raw = `${raw}${piece}`.trimStart();
      const { text } = render(raw.slice(0, safeEnd(raw)));
      if (!text.startsWith(shown)) return '';
      const delta = text.slice(shown.length);
      shown = text;
      return delta;
    },
    finish() {
      const { mapped, text } = render(raw.trimEnd());
      const rest = text.startsWith(shown) ? text.slice(shown.length) : null;
      return { mapped, text, rest };
    },
  };
}
