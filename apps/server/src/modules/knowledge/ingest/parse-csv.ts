import { BlockSink } from './blocks';
import { rowText } from './html-blocks';
import { normaliseInline } from './normalise';
import type { ParsedDocument } from './types';

/** RFC 4180 records: quoted fields may hold the delimiter, doubled quotes and line breaks; CRLF or LF ends a record. */
export function parseCsvRecords(text: string, delimiter = ','): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        field += c;
      }
      i++;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
    } else if (c === delimiter) {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      if (c === '\r' && text[i + 1] === '\n') i++;
    } else {
      field += c;
    }
    i++;
  }
  if (field !== '' || record.length) {
    record.push(field);
    records.push(record);
  }
  return records.filter((r) => r.some((cell) => cell.trim() !== ''));
}

/** The delimiter (comma, semicolon or tab) that occurs most often outside quotes in the first line. */
export function sniffDelimiter(text: string): string {
  const firstLine = (text.split(/\r?\n/, 1)[0] ?? '').replace(/"[^"]*"/g, '');
  let best = ',';
  let bestCount = 0;
  for (const candidate of [',', ';', '\t']) {
    const count = firstLine.split(candidate).length - 1;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

/** CSV: the first record names the columns; every other record becomes one "Column: value; …" table row. */
export function parseCsv(text: string, options: { delimiter?: string } = {}): ParsedDocument {
  const records = parseCsvRecords(text, options.delimiter ?? sniffDelimiter(text));
  const sink = new BlockSink();
  const [headerRecord, ...rows] = records;
  if (headerRecord) {
    const header = headerRecord.map((name, i) => normaliseInline(name) || `Column ${i + 1}`);
    for (const row of rows) sink.add('table-row', rowText(header, row.map(normaliseInline)));
  }
  return { format: 'csv', title: null, blocks: sink.blocks };
}
