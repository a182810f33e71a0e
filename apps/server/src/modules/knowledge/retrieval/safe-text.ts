// PostgreSQL text cannot hold NUL, and jsonb refuses unpaired UTF-16 surrogates: both become a space.
// eslint-disable-next-line no-control-regex -- NUL is exactly what must be found
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text with the characters PostgreSQL cannot store replaced, so any input is a valid parameter. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, ' ');
}
