import { describe, expect, it } from 'vitest';
import { fixture } from './fixtures/load';
import { parseDocx } from './parse-docx';
import { ParseError } from './parse-error';

describe('Word parsing', () => {
  it('turns heading styles, bullet lists and tables into blocks with heading paths', async () => {
    const document = await parseDocx(fixture('handbook.docx'));
    expect(document.title).toBe('Staff handbook');
    expect(document.blocks.map((b) => [b.kind, b.text, b.headingPath.join(' > ')])).toEqual([
      ['heading', 'Staff handbook', 'Staff handbook'],
      ['paragraph', 'Welcome to the company. This handbook explains how we work together.', 'Staff handbook'],
      ['heading', 'Leave', 'Staff handbook > Leave'],
      ['paragraph', 'Every employee has twenty-five days of paid leave a year.', 'Staff handbook > Leave'],
      ['list-item', 'Ask your manager two weeks ahead.', 'Staff handbook > Leave'],
      ['list-item', 'Record the days in the leave calendar.', 'Staff handbook > Leave'],
      ['heading', 'Offices', 'Staff handbook > Offices'],
      ['table-row', 'City: Lisbon; Opening hours: 8:00 to 17:00', 'Staff handbook > Offices'],
      ['table-row', 'City: Oslo; Opening hours: 9:00 to 16:00', 'Staff handbook > Offices'],
      ['paragraph', 'Questions go to the people team.', 'Staff handbook > Offices'],
    ]);
    expect(document.blocks.filter((b) => b.kind === 'heading').map((b) => b.level)).toEqual([1, 2, 2]);
  });

  it('fails a damaged archive with parse/corrupt', async () => {
    const damaged = fixture('handbook.docx').subarray(0, 400);
    const error = await parseDocx(damaged).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).code).toBe('parse/corrupt');
  });
});
