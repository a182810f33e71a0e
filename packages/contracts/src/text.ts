import { z } from 'zod';

export const SAFE_TEXT_MESSAGE = 'Text may not contain NUL characters or unpaired UTF-16 surrogates.';

// Without the `u` flag a regex sees UTF-16 code units, so it can find a surrogate that has no partner.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text a database can store as sent: no U+0000 and no unpaired surrogate (never replaced, always refused). */
export function isSafeText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/** A string that refuses NUL and unpaired surrogates; every text field of a request body or query uses it. */
export const safeString = () => z.string().refine(isSafeText, SAFE_TEXT_MESSAGE);

export const SafeTextSchema = safeString();
