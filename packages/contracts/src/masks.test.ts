import { describe, expect, it } from 'vitest';
import { DEFAULT_MASK_PATTERNS, MaskPatternSchema, maskText, regexSafetyProblem } from './masks';

const mask = (text: string) => maskText(text, DEFAULT_MASK_PATTERNS);

describe('maskText with the default PIN and SSN patterns', () => {
  it.each([
    ['my pin is 1234', 'my pin is ****'],
    ['1234', '****'],
    ['PIN:1234.', 'PIN:****.'],
    ['pin (1234)', 'pin (****)'],
    ['ssn 123-45-6789', 'ssn ***********'],
    ['ssn 123456789', 'ssn *********'],
    ['mixed 123-456789', 'mixed **********'],
    ['two: 1111 and 2222', 'two: **** and ****'],
    ['ssn 123-45-6789 pin 9876', 'ssn *********** pin ****'],
  ])('masks %j', (input, expected) => {
    expect(mask(input)).toBe(expected);
  });

  it.each([
    '12345',
    '123',
    'order 1234567890',
    'date 2024-01-05',
    'date 05/01/2024',
    'phone 555-123-4567',
    'phone 555.123.4567',
    'price 12.3456',
    'time 12:34',
    'ratio 1234:5',
    'ssn-like with too many digits 1234-56-7890',
    'ten digits 1234567890',
    'no digits at all',
  ])('leaves %j as it is', (input) => {
    expect(mask(input)).toBe(input);
  });

  it('uses the given mask character and keeps the length of the match', () => {
    expect(maskText('pin 1234', DEFAULT_MASK_PATTERNS, '#')).toBe('pin ####');
  });

  it('applies custom patterns in order and skips an unsafe one instead of running it', () => {
    const patterns = [
      { name: 'Card', regExpression: String.raw`\b\d{4}[ -]?\d{4}[ -]?\d{4}[ -]?\d{4}\b` },
      { name: 'Evil', regExpression: '(a+)+$' },
    ];
    expect(maskText('card 4111 1111 1111 1111 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!', patterns)).toBe(
      'card ******************* aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!',
    );
  });
});

describe('maskText on long adversarial messages', () => {
  it('runs the default patterns and an accepted two-quantifier pattern over 4,000 characters quickly', () => {
    const patterns = [...DEFAULT_MASK_PATTERNS, { name: 'E-mail', regExpression: String.raw`\w+@\w+` }];
    const inputs = ['1'.repeat(4000), '12-'.repeat(1333), 'a'.repeat(4000), '1234 '.repeat(800)];
    const started = performance.now();
    for (const input of inputs) maskText(input, patterns);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(maskText('1234 '.repeat(800), patterns)).toBe('**** '.repeat(800));
  });
});

describe('regexSafetyProblem', () => {
  it.each([
    ['the PIN pattern', DEFAULT_MASK_PATTERNS[0]?.regExpression ?? ''],
    ['the SSN pattern', DEFAULT_MASK_PATTERNS[1]?.regExpression ?? ''],
    ['a fixed repeat of a group', String.raw`(?:\d{4}-){3}\d{4}`],
    ['a simple quantifier', String.raw`\d+`],
    ['an optional group', String.raw`\d{3}(?:-\d{2})?`],
    ['an alternation that is not repeated', 'cat|dog'],
    ['a quantifier inside a character class', String.raw`[+*]\d{2}`],
    ['two unbounded quantifiers', String.raw`\w+@\w+`],
  ])('accepts %s', (_name, source) => {
    expect(regexSafetyProblem(source)).toBeNull();
  });

  it.each([
    ['(a+)+', /Nested quantifiers/],
    ['(a*)*b', /Nested quantifiers|empty/],
    [String.raw`(\d+)*x`, /Nested quantifiers/],
    [String.raw`(?:\w+\s?)+$`, /Nested quantifiers/],
    ['((ab)+c)+', /Nested quantifiers/],
    ['([a-z]+){2,}', /Nested quantifiers/],
    ['(a|aa)+', /repeated alternation/],
    [String.raw`\d+\d+\d+x`, /At most 2 unbounded quantifiers/],
    [String.raw`a{1,100}b{0,50}c*d`, /At most 2 unbounded quantifiers/],
    ['(a?){30}a{30}', /Nested quantifiers/],
    [String.raw`(a)\1`, /Back-references/],
    ['(?<x>a)\\k<x>', /Back-references/],
    ['a*', /empty text/],
    ['(', /not a valid regular expression/],
    ['[z-a]', /not a valid regular expression/],
    ['', /empty/],
    ['a'.repeat(201), /longer than 200/],
  ])('refuses %j', (source, problem) => {
    expect(regexSafetyProblem(source)).toMatch(problem);
  });

  it('the mask pattern schema refuses an unsafe pattern with the reason and a nameless one', () => {
    const unsafe = MaskPatternSchema.safeParse({ name: 'Evil', regExpression: '(a+)+' });
    expect(unsafe.success).toBe(false);
    expect(unsafe.error?.issues[0]?.message).toMatch(/Nested quantifiers/);
    const nameless = MaskPatternSchema.safeParse({ name: ' ', regExpression: String.raw`\d{4}` });
    expect(nameless.error?.issues[0]?.message).toBe('A mask pattern needs a name.');
  });
});
