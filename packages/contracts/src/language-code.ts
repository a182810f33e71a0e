// Without zod, so the widget's loader and chat check a language code without carrying the schema library.

/** The form of a language code: en, fr, pt-BR (an underscore between its parts is accepted too). */
export const LANGUAGE_CODE = /^[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/;

/** The longest language code accepted anywhere. */
export const LANGUAGE_CODE_MAX = 35;

/** Whether a value is a language code such as en, fr or pt-BR, at most LANGUAGE_CODE_MAX characters long. */
export const isLanguageCode = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= LANGUAGE_CODE_MAX && LANGUAGE_CODE.test(value);
