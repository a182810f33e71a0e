import { isSafeText, SAFE_TEXT_MESSAGE } from '@omnibot/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';

/** Deepest nesting of arrays and objects a JSON body may have. */
const JSON_MAX_DEPTH = 64;

export const unsafeText = () => new AppError(400, 'invalid_text', SAFE_TEXT_MESSAGE);
const inexactNumber = () =>
  new AppError(
    400,
    'invalid_number',
    'Numbers must be finite, not -0, and whole numbers at most 2^53 - 1 in size.',
  );

/** The nesting depth of JSON text, counted without recursion (brackets inside strings do not count). */
function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) {
      depth -= 1;
    }
  }
  return deepest;
}

/** A number JSON text can carry without loss: finite, not -0, and a safe integer when it is whole. */
const isExactNumber = (n: number) =>
  Number.isFinite(n) && !Object.is(n, -0) && (!Number.isInteger(n) || Number.isSafeInteger(n));

/** The first defect in a parsed JSON document: a key or string that is not safe text, or an inexact number. */
function findUnsafeValue(value: unknown): AppError | null {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (!isSafeText(item)) return unsafeText();
    } else if (typeof item === 'number') {
      if (!isExactNumber(item)) return inexactNumber();
    } else if (Array.isArray(item)) {
      for (const child of item as unknown[]) pending.push(child);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (!isSafeText(key)) return unsafeText();
        pending.push(child);
      }
    }
  }
  return null;
}

/**
 * The one JSON body parser of the whole app (every route, /api/auth included). Refused with 400, never altered:
 * invalid UTF-8, nesting deeper than JSON_MAX_DEPTH, NUL or unpaired surrogates in any key or string, and
 * numbers that do not survive JSON.parse exactly (1e400, 2^64, -0).
 * An empty body counts as no body; Fastify's own parser does the rest (prototype-poisoning checks included).
 */
export function registerJsonBody(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length === 0) {
      done(null, undefined);
      return;
    }
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      done(new AppError(400, 'invalid_utf8', 'The request body is not valid UTF-8.'), undefined);
      return;
    }
    if (jsonDepth(text, JSON_MAX_DEPTH) > JSON_MAX_DEPTH) {
      done(
        new AppError(400, 'json_too_deep', `The request body nests deeper than ${JSON_MAX_DEPTH} levels.`),
        undefined,
      );
      return;
    }
    void parseJson(request, text, (error, parsed) => {
      if (error) {
        done(error, undefined);
        return;
      }
      const defect = findUnsafeValue(parsed);
      if (defect) done(defect, undefined);
      else done(null, parsed);
    });
  });
}
