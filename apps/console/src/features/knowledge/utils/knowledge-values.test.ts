import { describe, expect, it } from 'vitest';
import { languageOption } from './knowledge-values';

describe('languageOption', () => {
  it('keeps a listed language, maps a code to its stemming language and anything else to Other', () => {
    expect(languageOption({ language: 'German', text_search_config: 'german' })).toBe('german');
    expect(languageOption({ language: 'de', text_search_config: 'german' })).toBe('german');
    expect(languageOption({ language: 'ja', text_search_config: 'simple' })).toBe('other');
  });
});
