import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/errors';

/**
 * JSON bodies for this plugin scope: invalid UTF-8 is refused (400) instead of being silently replaced with
 * U+FFFD and stored, an empty body counts as no body (the credential calls take none), and Fastify's own parser
 * does the rest (prototype-poisoning checks included).
 */
export function acceptStrictJson(scope: FastifyInstance) {
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
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
    void parseJson(request, text, done);
  });
}
