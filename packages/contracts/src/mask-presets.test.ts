import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MASK_PATTERNS,
  isCardNumber,
  isGeneratedDisclaimer,
  isIban,
  isPhoneNumber,
  LEGACY_DISCLAIMER,
  MASK_PRESET_IDS,
  MaskPatternSchema,
  maskingDisclaimer,
  maskText,
  passesLuhn,
  PIN_PATTERN,
  presetOf,
  presetPattern,
} from './masks';
import { publicWidgetConfig, shownDisclaimer, WidgetConfigSchema } from './widget-config';

const only = (id: (typeof MASK_PRESET_IDS)[number]) => (text: string) => maskText(text, [presetPattern(id)]);
const stars = (text: string) => '*'.repeat([...text].length);

describe('the card number preset', () => {
  const mask = only('card');
  it.each([
    ['card 4111 1111 1111 1111 please', '4111 1111 1111 1111'],
    ['4111-1111-1111-1111', '4111-1111-1111-1111'],
    ['visa 4012888888881881.', '4012888888881881'],
    ['mastercard 5555555555554444', '5555555555554444'],
    ['amex 3782 822463 10005', '3782 822463 10005'],
    ['amex 378282246310005', '378282246310005'],
    ['diners 3056 930902 5904', '3056 930902 5904'],
    ['discover 6011111111111117', '6011111111111117'],
  ])('masks %j', (input, card) => {
    expect(mask(input)).toBe(input.replace(card, stars(card)));
  });

  it.each([
    'order 1234567812345678',
    'order 1234 5678 1234 5678',
    'almost 4111 1111 1111 1112',
    'too short 411111111111',
    'too long 41111111111111111111',
    'mixed separators 4111 1111-1111 1111',
    'inside a word x4111111111111111',
    'a decimal 4111111111111111.5',
    'no digits here',
  ])('leaves %j as it is', (input) => {
    expect(mask(input)).toBe(input);
  });

  it('checks the Luhn sum of 13 to 19 digits', () => {
    expect(passesLuhn('4111111111111111')).toBe(true);
    expect(passesLuhn('4111111111111112')).toBe(false);
    expect(passesLuhn('41a1')).toBe(false);
    expect(isCardNumber('4111 1111 1111 1111')).toBe(true);
    expect(isCardNumber('0000000000')).toBe(false);
  });
});

describe('the e-mail preset', () => {
  const mask = only('email');
  it.each([
    ['write to jane.doe@example.com today', 'jane.doe@example.com'],
    ['first+tag@mail.sub.example.co.uk', 'first+tag@mail.sub.example.co.uk'],
    ['Mail me: a_b@example.org.', 'a_b@example.org'],
    ['(support@xn--bcher-kva.example)', 'support@xn--bcher-kva.example'],
    ['José.Núñez@correo.es', 'José.Núñez@correo.es'],
  ])('masks %j', (input, address) => {
    expect(mask(input)).toBe(input.replace(address, stars(address)));
  });

  it.each([
    'the @example.com handle',
    'jane@ is not done',
    'jane@localhost',
    'name@example',
    'price 3@4.50',
    'user@-example.com',
  ])('leaves %j as it is', (input) => {
    expect(mask(input)).toBe(input);
  });
});

describe('the phone number preset', () => {
  const mask = only('phone');
  it.each([
    ['call +44 20 7946 0958 now', '+44 20 7946 0958'],
    ['+1 (555) 123-4567', '+1 (555) 123-4567'],
    ['US (555) 123-4567', '(555) 123-4567'],
    ['US 555-123-4567', '555-123-4567'],
    ['US 555.123.4567', '555.123.4567'],
    ['local 555-1234', '555-1234'],
    ['Berlin 030 1234567', '030 1234567'],
    ['mobile 0171 2345678', '0171 2345678'],
    ['Paris 06 12 34 56 78', '06 12 34 56 78'],
    ['from abroad 0049 30 1234567', '0049 30 1234567'],
    ['compact +4930123456', '+4930123456'],
    ['plain 5551234567', '5551234567'],
    ['Madrid 612 345 678', '612 345 678'],
  ])('masks %j', (input, phone) => {
    expect(mask(input)).toBe(input.replace(phone, stars(phone)));
  });

  it.each([
    'on 2024-01-15',
    'on 15.01.2024',
    'on 01/15/2024',
    'on 15-01-24',
    'pin 1234',
    'zip 12345',
    'six 123456',
    'amount 1500000',
    'thousands 1.234.567',
    'server 192.168.100.200',
    'pi 3.14159265',
    'at 12:30',
    'order 1234567812345678',
    'ratio 1234:5678',
    'version 2.10.3',
  ])('leaves %j as it is', (input) => {
    expect(mask(input)).toBe(input);
  });

  it('counts 7 to 15 digits only', () => {
    expect(isPhoneNumber('+1 234')).toBe(false);
    expect(isPhoneNumber('+1 234 567 890 123 456')).toBe(false);
    expect(isPhoneNumber('+1 234 567')).toBe(true);
  });
});

describe('the IBAN preset', () => {
  const mask = only('iban');
  it.each([
    ['pay to DE89 3704 0044 0532 0130 00 please', 'DE89 3704 0044 0532 0130 00'],
    ['DE89370400440532013000', 'DE89370400440532013000'],
    ['GB82 WEST 1234 5698 7654 32', 'GB82 WEST 1234 5698 7654 32'],
    ['fr: FR14 2004 1010 0505 0001 3M02 606.', 'FR14 2004 1010 0505 0001 3M02 606'],
    ['lower case nl91abna0417164300', 'nl91abna0417164300'],
  ])('masks %j', (input, iban) => {
    expect(mask(input)).toBe(input.replace(iban, stars(iban)));
  });

  it.each([
    'wrong check DE89 3704 0044 0532 0130 01',
    'too short DE89 3704 0044',
    'a product code AB12 CDEF GHIJ KLMN',
    'part of a word XDE89370400440532013000',
  ])('leaves %j as it is', (input) => {
    expect(mask(input)).toBe(input);
  });

  it('checks mod-97', () => {
    expect(isIban('NL91ABNA0417164300')).toBe(true);
    expect(isIban('NL91ABNA0417164301')).toBe(false);
    expect(isIban('NL91')).toBe(false);
  });
});

describe('presets together', () => {
  const all = MASK_PRESET_IDS.map(presetPattern);

  it('masks each kind in one message, the most specific first, so a PIN never takes part of a card', () => {
    const input =
      'card 4111 1111 1111 1111, mail jo@example.com, call +44 20 7946 0958, pin 4821, ssn 123-45-6789';
    expect(maskText(input, all)).toBe(
      'card *******************, mail **************, call ****************, pin ****, ssn ***********',
    );
    expect(maskText(input, [...all].reverse())).toBe(maskText(input, all));
  });

  it('leaves an order number that fails Luhn when only cards are masked, and runs custom patterns after presets', () => {
    const patterns = [presetPattern('card'), { name: 'Order', regExpression: String.raw`ORD-\d{5}` }];
    expect(maskText('order 1234567812345678 ref ORD-12345', patterns)).toBe(
      'order 1234567812345678 ref *********',
    );
  });

  it('treats a stored pattern repeating a preset expression as that preset', () => {
    expect(maskText('pin 4821', [{ name: 'Mine', regExpression: PIN_PATTERN }])).toBe('pin ****');
  });

  it('runs every preset over long adversarial messages quickly', () => {
    const inputs = [
      '1'.repeat(4000),
      '1 '.repeat(2000),
      '12-'.repeat(1333),
      '+1 '.repeat(1333),
      'a@'.repeat(2000),
      'a.'.repeat(1999) + '@',
      `${'a'.repeat(64)}@${'b.'.repeat(1900)}`,
      'DE89 '.repeat(800),
      '4111 '.repeat(800),
      '(1) '.repeat(1000),
    ];
    const started = performance.now();
    for (const input of inputs) maskText(input, all);
    // Catastrophic backtracking takes minutes on these; linear matching takes milliseconds.
    expect(performance.now() - started).toBeLessThan(5000);
  });
});

describe('the mask pattern schema with presets', () => {
  it('takes a preset with its own expression or none, and refuses another expression for it', () => {
    expect(MaskPatternSchema.parse({ name: 'IBAN', preset: 'iban' })).toEqual({
      name: 'IBAN',
      regExpression: '',
      preset: 'iban',
    });
    expect(MaskPatternSchema.parse(presetPattern('card'))).toEqual(presetPattern('card'));
    const other = MaskPatternSchema.safeParse({
      name: 'Cards',
      regExpression: String.raw`\d{16}`,
      preset: 'card',
    });
    expect(other.error?.issues[0]).toMatchObject({
      path: ['regExpression'],
      message: expect.stringMatching(/leave its regular expression empty/) as string,
    });
    expect(maskText('card 4111111111111111', [MaskPatternSchema.parse({ name: 'C', preset: 'card' })])).toBe(
      'card ****************',
    );
  });

  it('reads a stored PIN or SSN expression as its preset', () => {
    const parsed = MaskPatternSchema.parse({ name: 'PIN', regExpression: PIN_PATTERN });
    expect(presetOf(parsed)?.id).toBe('pin');
  });

  it('refuses an unknown preset and still checks a custom expression', () => {
    const unknown = MaskPatternSchema.safeParse({ name: 'X', preset: 'passport' });
    expect(unknown.error?.issues[0]?.message).toMatch(/A mask preset is one of: pin, ssn, card/);
    const unsafe = MaskPatternSchema.safeParse({ name: 'X', regExpression: '(a+)+' });
    expect(unsafe.error?.issues[0]).toMatchObject({ path: ['regExpression'] });
  });
});

describe('the disclaimer names only what is masked', () => {
  it.each([
    [DEFAULT_MASK_PATTERNS, 'Please do not submit sensitive information such as SSN, PIN etc.'],
    [
      MASK_PRESET_IDS.map(presetPattern),
      'Please do not submit sensitive information such as SSN, PIN, Credit Card, E-mail, Phone Number, IBAN etc.',
    ],
    [
      [presetPattern('iban'), presetPattern('card')],
      'Please do not submit sensitive information such as Credit Card, IBAN etc.',
    ],
    [
      [{ name: 'Order', regExpression: String.raw`ORD-\d{5}` }],
      'Please do not submit sensitive information.',
    ],
  ])('for %j', (patterns, expected) => {
    expect(maskingDisclaimer(patterns)).toBe(expected);
    expect(isGeneratedDisclaimer(expected)).toBe(true);
  });

  it('tells generated disclaimers from a tenant’s own', () => {
    expect(isGeneratedDisclaimer(LEGACY_DISCLAIMER)).toBe(true);
    expect(isGeneratedDisclaimer('Please do not submit sensitive information such as SSN, SSN etc.')).toBe(
      false,
    );
    expect(isGeneratedDisclaimer('Please do not submit sensitive information such as passwords etc.')).toBe(
      false,
    );
    expect(isGeneratedDisclaimer('No secrets, please.')).toBe(false);
  });

  it('is what the widget shows while the stored one is generated, and the tenant’s own otherwise', () => {
    const withCards = WidgetConfigSchema.parse({
      masking: { patterns: [presetPattern('card'), presetPattern('email')] },
      feedback: { disclaimer: LEGACY_DISCLAIMER },
    });
    expect(shownDisclaimer(withCards)).toBe(
      'Please do not submit sensitive information such as Credit Card, E-mail etc.',
    );
    expect(publicWidgetConfig(withCards).feedback.disclaimer).toBe(shownDisclaimer(withCards));
    const defaults = WidgetConfigSchema.parse({ masking: { patterns: [presetPattern('phone')] } });
    expect(publicWidgetConfig(defaults).feedback.disclaimer).toBe(
      'Please do not submit sensitive information such as Phone Number etc.',
    );
    const own = WidgetConfigSchema.parse({ feedback: { disclaimer: 'No secrets, please.' } });
    expect(publicWidgetConfig(own).feedback.disclaimer).toBe('No secrets, please.');
  });
});
