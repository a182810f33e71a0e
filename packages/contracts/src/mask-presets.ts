// Masking presets without zod, so the browser widget can use them without carrying the schema library.

/** A four-digit PIN standing alone: not part of a longer number, a date, a phone number or a decimal. */
export const PIN_PATTERN = String.raw`(?<![\d\-/.,])\d{4}(?![\d\-/]|[.,:]\d)`;
/** A social security number: 3-2-4 digits with optional hyphens, not part of a longer number. */
export const SSN_PATTERN = String.raw`(?<![\d\-])\d{3}-?\d{2}-?\d{4}(?![\d\-])`;
/**
 * A payment card number candidate: 13 to 19 digits written as one run, in groups of four (4-4-4-1..7) or as 4-6-4/5,
 * separated by one space or hyphen used throughout. Only candidates that pass the Luhn check are masked.
 */
const CARD_PATTERN = String.raw`(?<![\p{L}\p{N}\-])(?:\d{4}([ \-])\d{4}\1\d{4}\1\d{1,7}|\d{4}([ \-])\d{6}\2\d{4,5}|\d{13,19})(?![\p{L}\p{N}]|[\-.,]\d)`;
/** An e-mail address: a local part, @, and a domain of dot-separated labels ending in a name of letters. */
const EMAIL_PATTERN = String.raw`(?<![\p{L}\p{N}._%+\-])[\p{L}\p{N}._%+\-]{1,64}@(?:[\p{L}\p{N}](?:[\p{L}\p{N}\-]{0,61}[\p{L}\p{N}])?\.){1,10}\p{L}{2,24}(?![\p{L}\p{N}\-]|\.[\p{L}\p{N}])`;
/**
 * A phone number candidate: an optional international prefix (+ or 00 and a country code), an optional area code in
 * parentheses, then digit groups separated by one space, dot or hyphen. Candidates that are dates, addresses,
 * decimals, grouped thousands or fewer than 7 digits are left alone (see isPhoneNumber).
 */
const PHONE_PATTERN = String.raw`(?<![\p{L}\p{N}+/.,:_\-])(?:(?:\+|00)\d{1,3}[ .\-]?)?(?:\(\d{1,5}\)[ .\-]?)?\d{1,12}(?:[ .\-]\d{1,12}){0,6}(?![\p{L}\p{N}_]|[.,/:\-]\d)`;
/** An IBAN candidate: country letters, two check digits, then blocks of four (spaced or not). Checked with mod-97. */
const IBAN_PATTERN = String.raw`(?<![\p{L}\p{N}])[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]{4}){2,7}(?: ?[A-Za-z0-9]{1,4})?(?![\p{L}\p{N}])`;

export const MASK_PRESET_IDS = ['pin', 'ssn', 'card', 'email', 'phone', 'iban'] as const;
export type MaskPresetId = (typeof MASK_PRESET_IDS)[number];

/** A kind of sensitive text the product knows how to find, beyond what a regular expression alone can check. */
interface MaskPreset {
  id: MaskPresetId;
  /** The pattern's name in a new configuration. */
  name: string;
  /** How the default disclaimer names it. */
  disclaimerName: string;
  /** What the console shows beside it. */
  description: string;
  regExpression: string;
  /** A match is masked only when this accepts it (a checksum, or rules a regular expression cannot say simply). */
  accepts?: (match: string) => boolean;
}

const digitsOf = (text: string) => text.replace(/\D/gu, '');

/** Whether a run of digits passes the Luhn checksum that every payment card number carries. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/u.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Whether a text is a payment card number: 13 to 19 digits passing the Luhn check. */
export function isCardNumber(text: string): boolean {
  const digits = digitsOf(text);
  return digits.length >= 13 && digits.length <= 19 && passesLuhn(digits);
}

/** Whether a text is an IBAN: 15 to 34 letters and digits (spaces ignored) whose ISO 7064 mod-97 remainder is 1. */
export function isIban(text: string): boolean {
  const compact = text.replace(/ /gu, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/u.test(compact)) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

const DATE_SHAPES = [/^\d{4}$/u, /^\d{1,2}$/u, /^\d{1,2}$/u];

/** Three groups joined by one of . / - that read as a date: year-month-day, day.month.year or month/day/year. */
function looksLikeDate(groups: string[], separators: string[]): boolean {
  if (groups.length !== 3 || new Set(separators).size !== 1 || separators[0] === ' ') return false;
  const lengths = groups.map((group) => group.length);
  const yearFirst = DATE_SHAPES.every((shape, index) => shape.test(groups[index] ?? ''));
  const yearLast = (lengths[0] ?? 0) <= 2 && (lengths[1] ?? 0) <= 2 && [2, 4].includes(lengths[2] ?? 0);
  return yearFirst || yearLast;
}

/**
 * Whether a phone-number candidate is one: 7 to 15 digits (the international maximum), and, unless it starts with
 * + or 00 or has an area code in parentheses, not a date, an IP address, a decimal or thousands grouped with dots;
 * a plain run of digits counts only from 10 digits (a national number with its area code).
 */
export function isPhoneNumber(text: string): boolean {
  const digits = digitsOf(text);
  if (digits.length < 7 || digits.length > 15) return false;
  if (/^(?:\+|00)/u.test(text) || text.includes('(')) return true;
  const groups = text.split(/[ .-]/u);
  const separators = text.match(/[ .-]/gu) ?? [];
  if (groups.length === 1) return digits.length >= 10;
  if (looksLikeDate(groups, separators)) return false;
  const dotted = separators.every((separator) => separator === '.');
  if (dotted && groups.length === 4 && groups.every((group) => group.length <= 3)) return false;
  if (dotted && groups.length === 2) return false;
  if (
    dotted &&
    (groups[0]?.length ?? 0) <= 3 &&
    !(groups[0] ?? '').startsWith('0') &&
    groups.slice(1).every((group) => group.length === 3)
  ) {
    return false;
  }
  return true;
}

export const MASK_PRESETS: Readonly<Record<MaskPresetId, MaskPreset>> = {
  pin: {
    id: 'pin',
    name: 'PIN',
    disclaimerName: 'PIN',
    description: 'Four digits standing alone, such as 4821.',
    regExpression: PIN_PATTERN,
  },
  ssn: {
    id: 'ssn',
    name: 'SSN',
    disclaimerName: 'SSN',
    description: 'Social security numbers: 3-2-4 digits, such as 123-45-6789.',
    regExpression: SSN_PATTERN,
  },
  card: {
    id: 'card',
    name: 'Card number',
    disclaimerName: 'Credit Card',
    description: 'Payment card numbers that pass the Luhn check, such as 4111 1111 1111 1111.',
    regExpression: CARD_PATTERN,
    accepts: isCardNumber,
  },
  email: {
    id: 'email',
    name: 'E-mail',
    disclaimerName: 'E-mail',
    description: 'E-mail addresses, such as jane@example.com.',
    regExpression: EMAIL_PATTERN,
  },
  phone: {
    id: 'phone',
    name: 'Phone number',
    disclaimerName: 'Phone Number',
    description: 'International and national phone numbers, such as +44 20 7946 0958 or (555) 123-4567.',
    regExpression: PHONE_PATTERN,
    accepts: isPhoneNumber,
  },
  iban: {
    id: 'iban',
    name: 'IBAN',
    disclaimerName: 'IBAN',
    description: 'Bank account numbers (IBAN) with a valid checksum, such as DE89 3704 0044 0532 0130 00.',
    regExpression: IBAN_PATTERN,
    accepts: isIban,
  },
};

/** The order presets are applied in: the longest and most specific first, so a PIN never takes part of a card. */
export const MASK_PRESET_APPLY_ORDER: readonly MaskPresetId[] = [
  'email',
  'iban',
  'card',
  'phone',
  'ssn',
  'pin',
];
/** The order the disclaimer names them in, as the product's wording does (SSN, PIN, Credit Card …). */
const DISCLAIMER_ORDER: readonly MaskPresetId[] = ['ssn', 'pin', 'card', 'email', 'phone', 'iban'];

const DISCLAIMER_LEAD = 'Please do not submit sensitive information';
/** The disclaimer of older configurations, which named card numbers before they could be masked. */
export const LEGACY_DISCLAIMER = `${DISCLAIMER_LEAD} such as SSN, PIN, Credit Card etc.`;

/** The preset a pattern stands for: its `preset`, or the preset whose regular expression it repeats exactly. */
export function presetOf(pattern: {
  regExpression: string;
  preset?: MaskPresetId | undefined;
}): MaskPreset | null {
  if (pattern.preset !== undefined) return MASK_PRESETS[pattern.preset];
  return (
    MASK_PRESET_IDS.map((id) => MASK_PRESETS[id]).find(
      (preset) => preset.regExpression === pattern.regExpression,
    ) ?? null
  );
}

/**
 * The disclaimer that names what the patterns mask, in the product's wording: "Please do not submit sensitive
 * information such as SSN, PIN etc.", or without examples when no preset is among them.
 */
export function maskingDisclaimer(
  patterns: readonly { regExpression: string; preset?: MaskPresetId | undefined }[],
): string {
  const present = new Set(patterns.map((pattern) => presetOf(pattern)?.id));
  const names = DISCLAIMER_ORDER.filter((id) => present.has(id)).map((id) => MASK_PRESETS[id].disclaimerName);
  return names.length === 0 ? `${DISCLAIMER_LEAD}.` : `${DISCLAIMER_LEAD} such as ${names.join(', ')} etc.`;
}

/** Whether a disclaimer is one the product wrote (the legacy one or any maskingDisclaimer), not the tenant's own. */
export function isGeneratedDisclaimer(text: string): boolean {
  if (text === LEGACY_DISCLAIMER || text === `${DISCLAIMER_LEAD}.`) return true;
  const prefix = `${DISCLAIMER_LEAD} such as `;
  if (!text.startsWith(prefix) || !text.endsWith(' etc.')) return false;
  const names = text.slice(prefix.length, -' etc.'.length).split(', ');
  const ids = names.map((name) => DISCLAIMER_ORDER.find((id) => MASK_PRESETS[id].disclaimerName === name));
  return ids.every((id) => id !== undefined) && new Set(ids).size === ids.length;
}
