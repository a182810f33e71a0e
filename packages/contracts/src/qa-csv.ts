import { CreateSourceBodySchema } from './knowledge';

/** One Q&A pair read from a CSV file; `line` is the line its record starts on (counting from 1). */
interface QaCsvPair {
  line: number;
  question: string;
  answer: string;
}

/** A record that gave no pair, and why in plain words. */
interface QaCsvProblem {
  line: number;
  message: string;
}

export interface QaCsvResult {
  pairs: QaCsvPair[];
  problems: QaCsvProblem[];
}

interface CsvRecord {
  line: number;
  fields: string[];
}

/**
 * Splits CSV text into records as RFC 4180 describes: comma-separated fields, double-quoted fields that may hold
 * commas, line breaks and "" for a quote, records ending in CRLF, LF or CR. A leading byte-order mark is dropped.
 * A quoted field left open reports the line it started on.
 */
export function parseCsvRecords(input: string): { records: CsvRecord[]; unclosedQuoteLine: number | null } {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let quoteLine = 0;
  let index = 0;
  const endRecord = () => {
    fields.push(field);
    records.push({ line: recordLine, fields });
    fields = [];
    field = '';
  };
  while (index < text.length) {
    const char = text.charAt(index);
    if (quoted) {
      if (char === '"') {
        if (text.charAt(index + 1) === '"') {
          field += '"';
          index += 2;
          continue;
        }
        quoted = false;
        index += 1;
        continue;
      }
      if (char === '\r' && text.charAt(index + 1) === '\n') {
        field += '\r\n';
        line += 1;
        index += 2;
        continue;
      }
      if (char === '\n' || char === '\r') line += 1;
      field += char;
      index += 1;
      continue;
    }
    if (char === '"' && field === '') {
      quoted = true;
      quoteLine = line;
      index += 1;
      continue;
    }
    if (char === ',') {
      fields.push(field);
      field = '';
      index += 1;
      continue;
    }
    if (char === '\r' || char === '\n') {
      index += char === '\r' && text.charAt(index + 1) === '\n' ? 2 : 1;
      endRecord();
      line += 1;
      recordLine = line;
      continue;
    }
    field += char;
    index += 1;
  }
  if (quoted) return { records, unclosedQuoteLine: quoteLine };
  if (field !== '' || fields.length > 0) endRecord();
  return { records, unclosedQuoteLine: null };
}

const QUESTION_HEADERS = new Set(['question', 'questions', 'q']);
const ANSWER_HEADERS = new Set(['answer', 'answers', 'a']);
/** Fields up to the last non-empty one: trailing empty columns (a spreadsheet's "a,b,,") do not count. */
function columnCount(fields: string[]): number {
  let count = fields.length;
  while (count > 2 && (fields[count - 1] ?? '').trim() === '') count -= 1;
  return count;
}

const headerName = (value: string | undefined) => (value ?? '').trim().toLowerCase();

/**
 * Reads Q&A pairs from CSV with a question column and an answer column. A first row naming the columns
 * ("question,answer" in either order) is recognised as a header and skipped; blank lines are ignored. Each
 * other row becomes a pair or a problem, checked by the same rules as a single Q&A source.
 */
export function parseQaCsv(input: string): QaCsvResult {
  const { records, unclosedQuoteLine } = parseCsvRecords(input);
  const pairs: QaCsvPair[] = [];
  const problems: QaCsvProblem[] = [];
  let questionAt = 0;
  let answerAt = 1;
  let rows = records.filter((record) => record.fields.some((value) => value.trim() !== ''));
  const first = rows[0];
  if (first && first.fields.length >= 2) {
    const [a, b] = first.fields.map(headerName);
    if (QUESTION_HEADERS.has(a ?? '') && ANSWER_HEADERS.has(b ?? '')) rows = rows.slice(1);
    else if (ANSWER_HEADERS.has(a ?? '') && QUESTION_HEADERS.has(b ?? '')) {
      questionAt = 1;
      answerAt = 0;
      rows = rows.slice(1);
    }
  }
  for (const { line, fields } of rows) {
    const columns = columnCount(fields);
    if (fields.length < 2 || columns > 2) {
      problems.push({ line, message: `Expected 2 columns (question, answer), found ${columns}` });
      continue;
    }
    const result = CreateSourceBodySchema.safeParse({
      type: 'qa',
      question: fields[questionAt],
      answer: fields[answerAt],
    });
    if (!result.success) {
      problems.push({ line, message: result.error.issues[0]?.message ?? 'The row is invalid' });
      continue;
    }
    if (result.data.type === 'qa') {
      pairs.push({ line, question: result.data.question, answer: result.data.answer });
    }
  }
  if (unclosedQuoteLine !== null) {
    problems.push({
      line: unclosedQuoteLine,
      message: 'A quoted field is not closed; everything after its opening quote was ignored',
    });
  }
  return { pairs, problems };
}
