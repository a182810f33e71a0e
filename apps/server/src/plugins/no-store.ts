import type { FastifyInstance } from 'fastify';

const PRIVATE_PREFIXES = ['/v1', '/api/auth'];
const isPrivateApi = (url: string) =>
  PRIVATE_PREFIXES.some(
    (prefix) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`),
  );

/**
 * API answers (sessions, accounts, credential secrets) are never stored by browsers or proxies; a route that
 * sets its own Cache-Control (signed file downloads) keeps it, and console assets are outside these paths.
 */
export function registerNoStore(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (isPrivateApi(request.url) && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
