import { describe, expect, it } from 'vitest';
import { parseCsvRecords, parseQaCsv } from './qa-csv';

describe('parseCsvRecords', () => {
  it('reads quoted fields with commas, line breaks and doubled quotes, and CRLF record ends', () => {
    const { records, unclosedQuoteLine } = parseCsvRecords(
      'a,"b, c"\r\n"line one\r\nline two","say ""hi"""\r\nlast,row',
    );
    expect(unclosedQuoteLine).toBeNull();
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b, c'] },
      { line: 2, fields: ['line one\r\nline two', 'say "hi"'] },
      { line: 4, fields: ['last', 'row'] },
    ]);
  });

  it('drops a byte-order mark, accepts LF and lone CR, and ignores a final line break', () => {
    expect(parseCsvRecords('\uFEFFx,y\ny,z\rz,w\n').records).toEqual([
      { line: 1, fields: ['x', 'y'] },
      { line: 2, fields: ['y', 'z'] },
      { line: 3, fields: ['z', 'w'] },
    ]);
  });

  it('reports the line where a quoted field is left open', () => {
    const { records, unclosedQuoteLine } = parseCsvRecords('a,b\nc,"never\nclosed');
    expect(records).toEqual([{ line: 1, fields: ['a', 'b'] }]);
    expect(unclosedQuoteLine).toBe(2);
  });

  it('keeps empty quoted fields empty', () => {
    expect(parseCsvRecords('"",""').records).toEqual([{ line: 1, fields: ['', ''] }]);
  });
});

describe('parseQaCsv', () => {
  it('detects and skips a header row and reads the pairs', () => {
    const result = parseQaCsv('\uFEFFQuestion,Answer\r\nOpen on Sunday?,"No, closed."\r\n');
    expect(result).toEqual({
      pairs: [{ line: 2, question: 'Open on Sunday?', answer: 'No, closed.' }],
      problems: [],
    });
  });

  it('reads rows without a header, and a header in the other order swaps the columns', () => {
    expect(parseQaCsv('Gift cards?,Yes').pairs).toEqual([
      { line: 1, question: 'Gift cards?', answer: 'Yes' },
    ]);
    expect(parseQaCsv('answer,question\nYes,Gift cards?').pairs).toEqual([
      { line: 2, question: 'Gift cards?', answer: 'Yes' },
    ]);
  });

  it('names the line of every row that gives no pair, and keeps the good ones', () => {
    const csv = [
      'question,answer',
      'Parking?,Behind the shop',
      'Only a question',
      ',No question',
      'No answer,   ',
      'Too,many,columns',
      'Trailing commas?,Ignored,,',
      '',
      '"Multi',
      'line?","Yes"',
      'Open,"quote',
    ].join('\n');
    const result = parseQaCsv(csv);
    expect(result.pairs).toEqual([
      { line: 2, question: 'Parking?', answer: 'Behind the shop' },
      { line: 7, question: 'Trailing commas?', answer: 'Ignored' },
      { line: 9, question: 'Multi\nline?', answer: 'Yes' },
    ]);
    expect(result.problems).toEqual([
      { line: 3, message: 'Expected 2 columns (question, answer), found 1' },
      { line: 4, message: 'The question is required' },
      { line: 5, message: 'The answer is required' },
      { line: 6, message: 'Expected 2 columns (question, answer), found 3' },
      { line: 11, message: 'A quoted field is not closed; everything after its opening quote was ignored' },
    ]);
  });

  it('applies the length limits of a single Q&A source', () => {
    const result = parseQaCsv(`${'q'.repeat(2001)},answer`);
    expect(result.pairs).toEqual([]);
    expect(result.problems).toEqual([{ line: 1, message: 'The question must be at most 2000 characters' }]);
  });

  it('gives nothing for empty input', () => {
    expect(parseQaCsv('')).toEqual({ pairs: [], problems: [] });
    expect(parseQaCsv('\r\n\r\n')).toEqual({ pairs: [], problems: [] });
  });
});
