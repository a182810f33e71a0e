import { describe, expect, it } from 'vitest';
import { fixture, parseFailure as failure } from './fixtures/load';
import { linesOf, paragraphsOf, parsePdf, type TextRun } from './parse-pdf';

describe('PDF parsing', () => {
  it('keeps each page’s sentence with its page number, and the title from the metadata', async () => {
    const document = await parsePdf(fixture('three-pages.pdf'));
    expect(document.format).toBe('pdf');
    expect(document.pageCount).toBe(3);
    expect(document.title).toBe('Harbour guide');
    const known = [
      [1, 'Page one says the harbour opens at dawn.'],
      [2, 'Page two says the ferry leaves at noon.'],
      [3, 'Page three says the lighthouse closes at dusk.'],
    ] as const;
    for (const [page, sentence] of known) {
      const block = document.blocks.find((b) => b.text.includes(sentence));
      expect(block?.page).toBe(page);
    }
    expect(document.blocks.every((b) => b.kind === 'paragraph' && b.page !== undefined)).toBe(true);
  });

  it('starts a paragraph at a wide vertical gap and joins the lines of one paragraph', async () => {
    const document = await parsePdf(fixture('three-pages.pdf'));
    expect(document.blocks.filter((b) => b.page === 1).map((b) => b.text)).toEqual([
      'Harbour guide',
      'Page one says the harbour opens at dawn. The ferry timetable changes with the seasons and the tides, so travellers check the notice board first.',
    ]);
  });

  it('fails a password-protected PDF with parse/encrypted and a reason, quickly', async () => {
    const started = Date.now();
    const error = await failure(parsePdf(fixture('encrypted.pdf')));
    expect(error.code).toBe('parse/encrypted');
    expect(error.message).toBe('The PDF is password-protected; upload a copy without a password.');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('fails a truncated PDF with parse/corrupt, quickly', async () => {
    const started = Date.now();
    const error = await failure(parsePdf(fixture('corrupt.pdf')));
    expect(error.code).toBe('parse/corrupt');
    expect(error.message).toMatch(/damaged/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('gives up with parse/corrupt when reading takes longer than the time limit', async () => {
    const error = await failure(parsePdf(fixture('three-pages.pdf'), { timeoutMs: 1 }));
    expect(error.code).toBe('parse/corrupt');
    expect(error.message).toMatch(/took too long/);
    // The same file reads fine with the default limit afterwards: the aborted task left nothing behind.
    expect((await parsePdf(fixture('three-pages.pdf'))).pageCount).toBe(3);
  });

  it('builds lines from baselines and joins a word broken by a hyphen at a line end', () => {
    const run = (str: string, y: number, hasEOL = false): TextRun => ({ str, y, height: 10, hasEOL });
    const lines = linesOf([
      run('Parcels leave the ware-', 700),
      run('house daily, in well-', 688),
      run('Known places.', 676, true),
      run('A new paragraph', 640),
      run(' after a gap.', 640),
    ]);
    expect(lines.map((l) => l.text)).toEqual([
      'Parcels leave the ware-',
      'house daily, in well-',
      'Known places.',
      'A new paragraph after a gap.',
    ]);
    expect(paragraphsOf(lines)).toEqual([
      'Parcels leave the ware-house daily, in well- Known places.',
      'A new paragraph after a gap.',
    ]);
  });
});
