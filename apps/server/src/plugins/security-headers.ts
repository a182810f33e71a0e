import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Sets helmet's security headers (CSP, HSTS, frame and referrer rules and the rest) on every reply. The
 * middleware is built once: building it parses every CSP directive, which done per request cost about as much
 * CPU as a database query. Routes that need another policy (the widget's frame-ancestors) overwrite the header.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const apply = helmet(options);
  app.addHook('onRequest', (request, reply, done) => {
    apply(request.raw, reply.raw, (error?: unknown) => {
      done(error instanceof Error ? error : undefined);
    });
  });
}
