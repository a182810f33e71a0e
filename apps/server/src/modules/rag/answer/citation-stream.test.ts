import { describe, expect, it } from 'vitest';
import { mapCitations } from './citations';
import { createCitationStream, withoutMarkers } from './citation-stream';
import type { Passage } from './types';

const passages: Passage[] = ['a', 'b', 'c'].map((id) => ({
  chunkId: `chunk-${id}`,
  sourceId: `source-${id}`,
  text: `Text ${id}.`,
  score: 1,
  title: `Title ${id}`,
  headingPath: [],
}));

const ANSWERS = [
  'Returns take 30 days [3]. Refunds go to the card [1]. Both apply [3].',
  'One [2, 3]. Two [1-3]. Unknown [9]. Mixed [2, 9]. Brackets [see above] stay [x].',
  'No markers at all.',
  'Ends on a marker [2]',
  '\n  Leading and trailing space [1].\n\n',
  'Tabs\t[1] and an open [bracket that never closes, which is far longer than any marker could ever be at all.',
];

/** Feeds `text` in pieces of `size` characters; returns what was shown and how the stream ended. */
function feed(text: string, size: number, keepMarkers: boolean) {
  const stream = createCitationStream(passages, { keepMarkers });
  let shown = '';
  for (let at = 0; at < text.length; at += size) {
    const delta = stream.push(text.slice(at, at + size));
    shown += delta;
    expect(stream.shown).toBe(shown);
  }
  const end = stream.finish();
  return { shown, end };
}

describe('createCitationStream', () => {
  it('shows only starts of the final text, whatever the piece size, and ends on exactly mapCitations', () => {
    for (const text of ANSWERS) {
      const mapped = mapCitations(text.trim(), passages);
      for (const size of [1, 2, 3, 5, 8, 1000]) {
        for (const keepMarkers of [true, false]) {
          const { shown, end } = feed(text, size, keepMarkers);
          const whole = keepMarkers ? mapped.text : withoutMarkers(mapped.text);
          const expected = whole.trim();
          expect(end.text).toBe(expected);
          expect(end.rest).not.toBeNull();
          expect(shown + (end.rest ?? '')).toBe(expected);
          expect(end.mapped.sources).toEqual(mapped.sources);
        }
      }
    }
  });

  it('holds back a marker until it is closed, and the space before it', () => {
    const stream = createCitationStream(passages, { keepMarkers: true });
    expect(stream.push('Thirty days ')).toBe('Thirty days');
    expect(stream.push('[')).toBe('');
    expect(stream.push('3')).toBe('');
    expect(stream.push('].')).toBe(' [1].');
    expect(stream.finish()).toMatchObject({ text: 'Thirty days [1].', rest: '' });
  });

  it('removes markers and the space before them with keepMarkers off', () => {
    expect(withoutMarkers('A [1]. B [1, 2]. C\t[3]. D [see].')).toBe('A. B. C. D [see].');
  });
});
