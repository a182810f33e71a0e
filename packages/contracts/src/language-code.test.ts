import { describe, expect, it } from 'vitest';
import { LANGUAGE_CODE_MAX, isLanguageCode } from './language-code';

describe('isLanguageCode', () => {
  it.each(['en', 'fil', 'pt-BR', 'pt_br', 'zh-Hant-TW', `en-${'x'.repeat(8)}`])('accepts %s', (code) => {
    expect(isLanguageCode(code)).toBe(true);
  });

  it.each(['', 'e', 'English', 'EN', 'en-', 'en;<script>', 'en-x', `en-${'x'.repeat(9)}`, 3, null])(
    'refuses %j',
    (code) => {
      expect(isLanguageCode(code)).toBe(false);
    },
  );

  it(`refuses a well-formed code longer than ${String(LANGUAGE_CODE_MAX)} characters`, () => {
    const code = (length: number) => `en${'-abcdefgh'.repeat(4)}`.slice(0, length);
    expect(isLanguageCode(code(LANGUAGE_CODE_MAX))).toBe(true);
    expect(isLanguageCode(code(LANGUAGE_CODE_MAX + 1))).toBe(false);
  });
});
