import { isSafeText } from '@omnibot/contracts';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';
import { unsafeText } from './json-body';

/** Longest query string accepted (Node's own header limit keeps real request lines under 16 kB). */
const QUERY_MAX_LENGTH = 16 * 1024;

const badEncoding = () =>
  new AppError(400, 'invalid_url', 'The URL has a malformed %-escape or is not valid UTF-8.');

/** Decodes one %-encoded URL part strictly: a malformed escape or invalid UTF-8 throws, nothing is replaced. */
function decodeStrict(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw badEncoding();
  }
}

/**
 * Every request's path and query string, checked before routing decodes them leniently: an over-long query
 * answers 414; a malformed %-escape, invalid UTF-8, NUL or an unpaired surrogate answers 400.
 */
function assertSafeUrl(url: string) {
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  const query = mark === -1 ? '' : url.slice(mark + 1);
  if (query.length > QUERY_MAX_LENGTH) {
    throw new AppError(
      414,
      'uri_too_long',
      `The query string is longer than ${QUERY_MAX_LENGTH} characters.`,
    );
  }
  if (!isSafeText(decodeStrict(path))) throw unsafeText();
  for (const pair of query.split('&')) {
    if (!isSafeText(decodeStrict(pair.replaceAll('+', ' ')))) throw unsafeText();
  }
}

/** Applies assertSafeUrl to every route (API, auth, files and the console alike). */
export function registerSafeUrl(app: FastifyInstance) {
  app.addHook('onRequest', (request, _reply, done) => {
    assertSafeUrl(request.url);
    done();
  });
}
