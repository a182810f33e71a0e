import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { type Identity, requirePrincipal } from '../auth/principal';

/**
 * requirePrincipal (session or API credential), answering storage/unauthenticated when nobody is signed in. The
 * files service refuses agents' writes itself (assertCanWrite), with the storage codes.
 */
export function requireFilesPrincipal(identity: Identity) {
  const guard = requirePrincipal(identity, { credentials: true, allowAgent: true });
  return async (request: FastifyRequest) => {
    try {
      await guard(request);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 401) {
        throw new AppError(401, 'storage/unauthenticated', error.message, error.headers);
      }
      throw error;
    }
  };
}
