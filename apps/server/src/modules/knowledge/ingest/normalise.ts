import { createHash } from 'node:crypto';

// NUL and other C0/C1 controls except tab and newline, soft hyphens, zero-width and byte-order marks.
// eslint-disable-next-line no-control-regex -- removing control characters is the purpose
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u200B\u2060\uFEFF]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Removes what the database refuses or what carries no text (NUL, lone surrogates, soft hyphens), keeping line structure. */
export function cleanText(text: string): string {
  return text
    .replace(LONE_SURROGATE, '')
    .normalize('NFC')
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(INVISIBLE, '');
}

/** Cleans the text and collapses all whitespace, line breaks included, to single spaces. */
export function normaliseInline(text: string): string {
  return cleanText(text)
    .replace(/[\s\u00A0]+/g, ' ')
    .trim();
}

/** Cleans a code block: keeps line breaks and indentation, drops trailing spaces and blank edges. */
export function normaliseCode(text: string): string {
  return cleanText(text)
    .replace(/\t/g, '  ')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
}

/** sha256 (hex) of the normalised text: equal for texts that differ only in whitespace or invisible characters. */
export function contentHash(text: string): string {
  return createHash('sha256').update(normaliseInline(text), 'utf8').digest('hex');
}

export function wordCount(text: string): number {
  const words = text.match(/\S+/g);
  return words ? words.length : 0;
}
