import { describe, expect, it } from 'vitest';
import { normaliseLanguage, parseChatTranslation } from './translator';

describe('reading a chat model translation', () => {
  it.each([
    ['{"detected": "fr", "text": "hello"}', { detected: 'fr', text: 'hello' }],
    ['```json\n{"detected": "de"}\n```', { detected: 'de' }],
    [
      'Here you go: {"detected": "es", "text": "hi {there}"} Hope it helps.',
      { detected: 'es', text: 'hi {there}' },
    ],
  ])('finds the JSON object in %j', (answer, expected) => {
    expect(parseChatTranslation(answer)).toEqual(expected);
  });

  it.each([
    'French',
    '{"language": "fr"}',
    '{"detected": 42}',
    '{"detected": "fr", "text": 3}',
    '{"detected": "fr"',
    '} {',
    '',
  ])('gives null for %j', (answer) => {
    expect(parseChatTranslation(answer)).toBeNull();
  });
});

describe('normaliseLanguage', () => {
  it.each([
    ['EN', 'en'],
    [' fr ', 'fr'],
    ['pt_br', 'pt-BR'],
    ['zh-Hans', 'zh-Hans'],
  ])('reads %j as %j', (input, expected) => {
    expect(normaliseLanguage(input)).toBe(expected);
  });

  it.each([['French'], [''], [42], [null], ['e'], ['en; drop table'], ['x'.repeat(40)]])(
    'refuses %j',
    (input) => {
      expect(normaliseLanguage(input)).toBeNull();
    },
  );
});
