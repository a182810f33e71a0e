import { describe, expect, it } from 'vitest';
import { mapCitations, renderContext } from './citations';
import { HELP_CENTRE } from './fixtures/help-centre';
import type { Passage } from './types';

const passages: Passage[] = ['a', 'b', 'c', 'd', 'e'].map((id, i) => ({
  chunkId: `chunk-${id}`,
  sourceId: `source-${id}`,
  text: `Text ${id}.`,
  score: 1 - i / 10,
  title: `Title ${id}`,
  url: i === 0 ? null : `https://docs.example.com/${id}`,
  headingPath: [`Heading ${id}`],
  page: i === 2 ? 7 : null,
}));

describe('mapCitations', () => {
  it('renumbers cited passages in first-cited order and rewrites the markers to match', () => {
    const result = mapCitations(
      'Returns take 30 days [3]. Refunds go to the card [1]. Both apply [3].',
      passages,
    );
    expect(result.text).toBe('Returns take 30 days [1]. Refunds go to the card [2]. Both apply [1].');
    expect(result.uncited).toBe(false);
    expect(result.sources).toEqual([
      {
        n: 1,
        chunkId: 'chunk-c',
        sourceId: 'source-c',
        title: 'Title c',
        url: 'https://docs.example.com/c',
        headingPath: ['Heading c'],
        page: 7,
      },
      {
        n: 2,
        chunkId: 'chunk-a',
        sourceId: 'source-a',
        title: 'Title a',
        url: null,
        headingPath: ['Heading a'],
        page: null,
      },
    ]);
  });

  it('expands lists and ranges, removes repeats within a marker and accepts an en dash or a reversed range', () => {
    const result = mapCitations('One [2, 4]. Two [3-5]. Three [2–3, 3]. Four [5-4].', passages);
    expect(result.text).toBe('One [1, 2]. Two [3, 2, 4]. Three [1, 3]. Four [2, 4].');
    expect(result.sources.map((s) => s.chunkId)).toEqual(['chunk-b', 'chunk-d', 'chunk-c', 'chunk-e']);
  });

  it('drops out-of-range numbers, and a marker left empty goes with the space before it', () => {
    const result = mapCitations('Known [0]. Also [9]. Mixed [2, 9]. Clamped [4-9999]. End [6-8].', passages);
    expect(result.text).toBe('Known. Also. Mixed [1]. Clamped [2, 3]. End.');
    expect(result.sources.map((s) => s.chunkId)).toEqual(['chunk-b', 'chunk-d', 'chunk-e']);
  });

  it('says uncited when no marker names a given passage, and leaves other brackets alone', () => {
    const none = mapCitations('I do not know [see above] and [x].', passages);
    expect(none).toEqual({ text: 'I do not know [see above] and [x].', sources: [], uncited: true });
    const outOfRange = mapCitations('Only [7].', passages);
    expect(outOfRange).toEqual({ text: 'Only.', sources: [], uncited: true });
    expect(mapCitations('Cited [1].', []).uncited).toBe(true);
  });
});

describe('renderContext', () => {
  it('numbers the passages in order with title and heading path, text below, blocks apart by a blank line', () => {
    const context = renderContext(HELP_CENTRE.slice(0, 2), { maxChars: 10_000 });
    const first = HELP_CENTRE[0];
    const second = HELP_CENTRE[1];
    expect(context.text).toBe(
      `[1] Account help — Account › Resetting your password\n${first?.text}\n\n` +
        `[2] Account help — Account › Two-factor authentication\n${second?.text}`,
    );
    expect(context.passages).toEqual(HELP_CENTRE.slice(0, 2));
    expect(context.truncated).toBe(false);
  });

  it('stays within maxChars, cutting the last passage after a whole sentence and leaving the rest out', () => {
    for (const maxChars of [200, 500, 800, 1234, 2000]) {
      const context = renderContext(HELP_CENTRE, { maxChars });
      expect(context.text.length).toBeLessThanOrEqual(maxChars);
      expect(context.truncated).toBe(true);
      const blocks = context.text.split('\n\n[');
      expect(blocks).toHaveLength(context.passages.length);
      const last = context.text.split('\n').at(-1) ?? '';
      expect(last).toMatch(/[.!?"]$/);
    }
    const tight = renderContext(HELP_CENTRE, { maxChars: 300 });
    expect(tight.passages.map((p) => p.chunkId)).toEqual(['c-password']);
    expect(tight.text).toBe(
      '[1] Account help — Account › Resetting your password\nResetting your password\n\n' +
        'If you forgot your password, open the sign-in page and choose "Forgot password". ' +
        'We send a reset link to the email address on your account. ' +
        'The link expires after 30 minutes, so request a new one if it no longer works.',
    );
  });

  it('falls back to whole words with an ellipsis when not even one sentence fits, and to nothing below a header', () => {
    const long: Passage = {
      chunkId: 'long',
      sourceId: 'long',
      title: 'Long',
      headingPath: [],
      score: 1,
      text: `${Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ')}.`,
    };
    const context = renderContext([long], { maxChars: 60 });
    expect(context.text).toMatch(/^\[1\] Long\nword0 word1 .*word\d+…$/);
    expect(context.text.length).toBeLessThanOrEqual(60);
    expect(context.passages).toEqual([long]);
    const none = renderContext([long], { maxChars: 5 });
    expect(none).toEqual({ text: '', passages: [], truncated: true });
    expect(renderContext([], { maxChars: 100 })).toEqual({ text: '', passages: [], truncated: false });
  });
});
