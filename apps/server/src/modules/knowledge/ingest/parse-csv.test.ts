import { describe, expect, it } from 'vitest';
import { fixture } from './fixtures/load';
import { parseCsv, parseCsvRecords, sniffDelimiter } from './parse-csv';

describe('CSV parsing', () => {
  it('turns each row into "Column: value" text, with quoted commas, escaped quotes and embedded line breaks', () => {
    const document = parseCsv(fixture('products.csv').toString('utf8'));
    expect(document.blocks.map((b) => [b.kind, b.text])).toEqual([
      [
        'table-row',
        'sku: A-100; name: Kettle; description: Boils 1.7 litres, switches off by itself; price: 39.90',
      ],
      [
        'table-row',
        'sku: A-200; name: Toaster "Deluxe"; description: Two slots, bagel setting; price: 49.00',
      ],
      ['table-row', 'sku: A-300; name: Blender; price: 89.50'],
    ]);
  });

  it('follows RFC 4180 for quotes, CRLF and a last record without a line break', () => {
    expect(parseCsvRecords('a,"b ""c""",d\r\n"x\r\ny",,z')).toEqual([
      ['a', 'b "c"', 'd'],
      ['x\r\ny', '', 'z'],
    ]);
    expect(parseCsvRecords('a,b\n\n1,2\n')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });

  it('detects semicolon and tab delimiters from the header line', () => {
    expect(sniffDelimiter('name;price\nTea;3,50')).toBe(';');
    expect(sniffDelimiter('name\tprice\n')).toBe('\t');
    expect(parseCsv('name;price\nTea;3,50').blocks[0]?.text).toBe('name: Tea; price: 3,50');
  });
});
