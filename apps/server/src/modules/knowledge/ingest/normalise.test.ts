import { describe, expect, it } from 'vitest';
import { cleanText, contentHash, normaliseCode, normaliseInline } from './normalise';

describe('text normalisation', () => {
  it('removes NUL, other control characters, soft hyphens, zero-width marks and lone surrogates', () => {
    expect(normaliseInline('a\u0000b\u0007c\u00ADd\u200Be\uFEFF')).toBe('abcde');
    expect(normaliseInline('x\uD800y\uDC00z')).toBe('xyz');
    // A proper surrogate pair (an emoji) stays.
    expect(normaliseInline('ok \uD83D\uDE00')).toBe('ok \uD83D\uDE00');
  });

  it('collapses whitespace but keeps ligatures and composes accents', () => {
    expect(normaliseInline('  e\u0301t\u00e9 \t\n\u00a0 ﬁne  ')).toBe('\u00e9t\u00e9 ﬁne');
  });

  it('keeps code line breaks and indentation', () => {
    expect(normaliseCode('\n\tif (x) {\r\n    y();   \n}\n\n')).toBe('  if (x) {\n    y();\n}');
    expect(cleanText('a\r\nb\rc')).toBe('a\nb\nc');
  });

  it('hashes the normalised text, so whitespace-only differences give the same hash', () => {
    expect(contentHash('Hello   world\n')).toBe(contentHash('Hello world'));
    expect(contentHash('Hello world')).not.toBe(contentHash('Hello, world'));
    expect(contentHash('Hello world')).toMatch(/^[0-9a-f]{64}$/);
  });
});
