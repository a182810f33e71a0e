import { describe, expect, it } from 'vitest';
import {
  clipText,
  extractiveSections,
  fitSummary,
  isSubstantive,
  sentimentOf,
  type TranscriptLine,
} from './extractive-summary';

const v = (text: string): TranscriptLine => ({ role: 'visitor', text, fallback: false });
const b = (text: string, fallback = false): TranscriptLine => ({ role: 'bot', text, fallback });
const a = (text: string): TranscriptLine => ({ role: 'agent', text, fallback: false });
const ALL = ['issue', 'answers', 'open', 'sentiment'] as const;

describe('isSubstantive', () => {
  it.each([
    ['Hello', false],
    ['thanks!', false],
    ['Good morning.', false],
    ['ok', false],
    ['Where is my parcel?', true],
    ['My invoice is wrong', true],
    ['Refund?', true],
  ])('%s -> %s', (text, expected) => expect(isSubstantive(text)).toBe(expected));
});

describe('sentimentOf', () => {
  it.each([
    [['This is great, thanks a lot'], 'positive'],
    [['This is terrible and useless'], 'negative'],
    [['That was not helpful'], 'negative'],
    [['Not bad at all'], 'positive'],
    [['Where is my parcel?'], 'neutral'],
    [['Thanks', 'but the app is broken and I am frustrated'], 'negative'],
  ] as const)('%j -> %s', (texts, expected) => expect(sentimentOf(texts)).toBe(expected));
});

describe('clipText', () => {
  const text = 'First sentence here. Second one follows. Third is the last one.';
  it('keeps text within the limit unchanged', () => expect(clipText(text, 200)).toBe(text));
  it('cuts at a whole sentence when one fits', () => {
    expect(clipText(text, 45)).toBe('First sentence here. Second one follows.');
    expect(clipText(text, 25)).toBe('First sentence here.');
  });
  it('cuts at a whole word with an ellipsis when no sentence fits', () => {
    expect(clipText(text, 12)).toBe('First…');
    expect(clipText(text, 12).length).toBeLessThanOrEqual(12);
  });
  it('never exceeds the limit, even for one long word', () => {
    for (let max = 1; max < 70; max += 1)
      expect(clipText(`${'x'.repeat(40)} ${text}`, max).length).toBeLessThanOrEqual(max);
  });
});

describe('extractiveSections', () => {
  const lines = [
    v('Hi'),
    b('Hello! How can I help?'),
    v('My parcel 123 has not arrived yet.'),
    b('Parcels arrive within three days. You can track yours under Orders. Anything else?'),
    v('Can I get a refund?'),
    b('Sorry, I do not know.', true),
  ];

  it('takes the issue from the first substantive messages, the answers to them, and the last unanswered question', () => {
    expect(extractiveSections(lines, ALL, { language: 'en', handoverReason: 'fallbacks' })).toEqual({
      issue: 'My parcel 123 has not arrived yet. Can I get a refund?',
      answers: 'Parcels arrive within three days. You can track yours under Orders.',
      open: '"Can I get a refund?" The bot could not answer once. The bot could not answer several times in a row.',
      sentiment: 'neutral',
    });
  });

  it('counts a question a person answered later as answered', () => {
    const sections = extractiveSections([...lines, a('Yes, I refund it now.')], ['open'], {
      language: 'en',
      handoverReason: null,
    });
    expect(sections).toEqual({ open: 'The bot could not answer once.' });
  });

  it('says so when nothing is there yet', () => {
    expect(extractiveSections([], ALL, { language: 'en', handoverReason: null })).toEqual({
      issue: 'The visitor has not written yet.',
      answers: 'The bot has not answered yet.',
      open: 'Nothing is left open.',
      sentiment: 'neutral',
    });
  });
});

describe('fitSummary', () => {
  const long = (word: string) =>
    Array.from({ length: 40 }, (_, i) => `${word} sentence number ${i}.`).join(' ');
  const sections = {
    issue: long('Issue'),
    answers: 'Short answer.',
    open: long('Open'),
    sentiment: 'negative' as const,
  };

  it('keeps a text that fits as it is', () => {
    const fitted = fitSummary({ issue: 'A.', sentiment: 'neutral' }, ALL, 200);
    expect(fitted.text).toBe('Issue: A.\nSentiment: neutral');
  });

  it.each([200, 333, 800])('keeps the whole text within %i characters at whole sentences', (max) => {
    const fitted = fitSummary(sections, ALL, max);
    expect(fitted.text.length).toBeLessThanOrEqual(max);
    expect(fitted.sections.answers).toBe('Short answer.');
    expect(fitted.sections.sentiment).toBe('negative');
    expect(fitted.sections.issue).toMatch(/^Issue sentence number 0\.( Issue sentence number \d+\.)*$/u);
    expect(fitted.sections.open).toMatch(/^Open sentence number 0\.( Open sentence number \d+\.)*$/u);
    // The short section leaves its share to the long ones: the room is used.
    expect(fitted.text.length).toBeGreaterThan(max - 40);
  });
});
