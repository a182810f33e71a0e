import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import { trustedOrigins } from './continue-url';

/** Methods that change state; tus uploads use POST, PATCH and DELETE too. */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const isV1 = (url: string) => url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?');

/** True when a cookie-carrying request comes from a page that is not ours. */
function isForeignRequest(request: FastifyRequest, allowed: ReadonlySet<string>): boolean {
  const origin = request.headers.origin;
  // Browsers send Origin on cross-site writes; without one, refuse only what Sec-Fetch-Site marks foreign.
  if (origin === undefined) {
    const site = request.headers['sec-fetch-site'];
    return site !== undefined && site !== 'same-origin' && site !== 'none';
  }
  return !allowed.has(origin);
}

/**
 * Cross-site request forgery guard for /v1: a state-changing call that carries a cookie must come from this
 * server's own origin (PUBLIC_URL) or TRUSTED_ORIGINS. Calls without a cookie (API credentials) are
 * unaffected; /api/auth has better-auth's own origin check.
 */
export function registerOriginCheck(app: FastifyInstance, env: Env) {
  const allowed: ReadonlySet<string> = new Set(trustedOrigins(env.PUBLIC_URL, env.TRUSTED_ORIGINS));
  app.addHook('onRequest', (request, _reply, done) => {
    // The matched route decides, so a %-encoded path cannot slip past the prefix test.
    const path = request.routeOptions.url ?? request.url;
    if (
      STATE_CHANGING.has(request.method) &&
      isV1(path) &&
      request.headers.cookie !== undefined &&
      isForeignRequest(request, allowed)
    ) {
      request.log.warn({ origin: request.headers.origin, url: request.url }, 'foreign origin refused');
      done(new AppError(403, 'origin_not_allowed', 'This request comes from a site that may not act here.'));
      return;
    }
    done();
  });
}
