import { describe, expect, it } from 'vitest';
import { chunk, sentences } from './chunk';
import { fixture } from './fixtures/load';
import { BlockSink } from './blocks';
import { parse } from './parse';
import type { ParsedDocument } from './types';

/** "Sentence n about topic." numbered so every sentence is unique: 4 words each for a one-word topic. */
const para = (topic: string, count: number, from = 1) =>
  Array.from({ length: count }, (_, i) => `Sentence ${from + i} about ${topic}.`).join(' ');

function build(write: (sink: BlockSink) => void): ParsedDocument {
  const sink = new BlockSink();
  write(sink);
  return { format: 'markdown', title: null, blocks: sink.blocks };
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe('chunking', () => {
  it('keeps every chunk within the target size and loses no text', () => {
    const document = build((s) => {
      s.heading(1, 'Guide');
      for (let i = 0; i < 12; i++) s.add('paragraph', para(`topic${i}`, 4));
    });
    const chunks = chunk(document, { targetWords: 50, overlap: 0 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) expect(c.wordCount).toBeLessThanOrEqual(50);
    const joined = chunks.map((c) => c.text).join('\n\n');
    for (let i = 0; i < 12; i++) expect(joined).toContain(para(`topic${i}`, 4));
    expect(chunks.map((c) => c.ordinal)).toEqual(chunks.map((_, i) => i));
    expect(chunks.every((c) => c.charCount === c.text.length && /^[0-9a-f]{64}$/.test(c.hash))).toBe(true);
  });

  it('never splits a list item or table row that fits, and splits an oversized one at sentence ends', () => {
    const items = Array.from({ length: 9 }, (_, i) => `Item ${i} has exactly six words.`);
    const giant = para('giant', 20);
    const document = build((s) => {
      for (const item of items) s.add('list-item', item, { level: 1 });
      s.add('table-row', 'Name: Oslo; Hours: 9 to 16; Note: closed on public holidays and Sundays');
      s.add('list-item', giant, { level: 1 });
    });
    const chunks = chunk(document, { targetWords: 20, overlap: 0 });
    const lines = chunks.flatMap((c) => c.text.split('\n'));
    for (const item of items) expect(lines).toContain(`- ${item}`);
    expect(lines).toContain('Name: Oslo; Hours: 9 to 16; Note: closed on public holidays and Sundays');
    const pieces = chunks.filter((c) => c.text.includes('about giant.'));
    // 20 sentences of 4 words: 4 per piece (16 words and the list marker stay within 20), so 5 pieces.
    expect(pieces.length).toBe(5);
    for (const piece of pieces) {
      expect(piece.wordCount).toBeLessThanOrEqual(20);
      expect(piece.text).toMatch(/^- Sentence \d+ about giant\..*\.$/s);
    }
    expect(pieces.map((p) => p.text.replace(/^- /, '')).join(' ')).toBe(giant);
  });

  it('starts a new chunk at a level 1 or 2 heading, with the heading in the path and not in the text', () => {
    const document = build((s) => {
      s.heading(1, 'Handbook');
      s.add('paragraph', para('welcome', 3));
      s.heading(2, 'Leave');
      s.add('paragraph', para('leave', 2));
      s.heading(3, 'Sick leave');
      s.add('paragraph', para('sickness', 1));
      s.heading(2, 'Offices');
      s.add('paragraph', para('offices', 2));
    });
    const chunks = chunk(document, { targetWords: 200, minWords: 5 });
    expect(chunks.map((c) => [c.headingPath.join(' > '), c.text])).toEqual([
      ['Handbook', para('welcome', 3)],
      ['Handbook > Leave', `${para('leave', 2)}\n\nSick leave\n\n${para('sickness', 1)}`],
      ['Handbook > Offices', para('offices', 2)],
    ]);
  });

  it('lets a section that is still trivial run on into the next heading', () => {
    const document = build((s) => {
      s.heading(1, 'Handbook');
      s.add('paragraph', 'Short intro.');
      s.heading(2, 'Leave');
      s.add('paragraph', para('leave', 2));
    });
    const chunks = chunk(document, { targetWords: 200, minWords: 5 });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.headingPath).toEqual(['Handbook']);
    expect(chunks[0]?.text).toBe(`Short intro.\n\nLeave\n\n${para('leave', 2)}`);
  });

  it('repeats the last sentences of the previous chunk in the same section, but not across sections', () => {
    const document = build((s) => {
      s.heading(1, 'One');
      s.add('paragraph', para('alpha', 4));
      s.add('paragraph', para('beta', 4));
      s.heading(2, 'Two');
      s.add('paragraph', para('gamma', 4));
    });
    // 30 words per chunk, overlap budget 0.34 × 30 = 10 words: the two last 4-word sentences.
    const chunks = chunk(document, { targetWords: 30, overlap: 0.34 });
    expect(chunks.map((c) => c.text)).toEqual([
      para('alpha', 4),
      `${para('alpha', 2, 3)}\n\n${para('beta', 4)}`,
      para('gamma', 4),
    ]);
    expect(chunks[1]?.headingPath).toEqual(['One']);
    // Without overlap, nothing repeats.
    expect(chunk(document, { targetWords: 30, overlap: 0 }).map((c) => c.text)).toEqual([
      para('alpha', 4),
      para('beta', 4),
      para('gamma', 4),
    ]);
  });

  it('moves a heading that would end a full chunk to the chunk of its own text', () => {
    const document = build((s) => {
      s.heading(1, 'Guide');
      s.add('paragraph', para('alpha', 4));
      s.heading(3, 'Details');
      s.add('paragraph', para('beta', 4));
    });
    const chunks = chunk(document, { targetWords: 20, overlap: 0 });
    expect(chunks.map((c) => [c.headingPath.join(' > '), c.text])).toEqual([
      ['Guide', para('alpha', 4)],
      ['Guide > Details', para('beta', 4)],
    ]);
  });

  it('gives each chunk the page its text starts on', async () => {
    const document = await parse(fixture('three-pages.pdf'), { filename: 'harbour.pdf' });
    const chunks = chunk(document, { targetWords: 30, overlap: 0 });
    expect(chunks.map((c) => c.page)).toEqual([1, 2, 3]);
    expect(chunks[1]?.text).toContain('Page two says the ferry leaves at noon.');
    expect(chunk(document, { targetWords: 1000 }).map((c) => c.page)).toEqual([1]);
  });

  it('cuts text without spaces at a character limit', () => {
    const blob = 'x'.repeat(2_500);
    const chunks = chunk(
      build((s) => s.add('paragraph', blob)),
      { targetWords: 100, overlap: 0 },
    );
    expect(chunks.map((c) => c.charCount)).toEqual([1000, 1000, 500]);
  });

  it('is deterministic, and chunks the structured fixtures along their sections', async () => {
    const document = await parse(fixture('handbook.docx'), { filename: 'handbook.docx' });
    const first = chunk(document, { targetWords: 20 });
    expect(chunk(document, { targetWords: 20 })).toEqual(first);
    expect(first.map((c) => c.headingPath.at(-1))).toEqual([
      'Staff handbook',
      'Leave',
      'Leave',
      'Offices',
      'Offices',
    ]);
    for (const c of first) expect(words(c.text)).toBeLessThanOrEqual(20);
  });

  it('splits sentences with the Unicode sentence rules', () => {
    expect(sentences('Smith arrived at 3.30 p.m. today. Was he late? Yes!')).toEqual([
      'Smith arrived at 3.30 p.m. today.',
      'Was he late?',
      'Yes!',
    ]);
  });
});
