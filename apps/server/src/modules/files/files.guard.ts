import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import { requirePrincipal } from '../../plugins/principal';
import type { Auth } from '../auth/auth';

/**
 * requirePrincipal (session or API credential), answering storage/unauthenticated when nobody is signed in. The
 * files service refuses agents' writes itself (assertCanWrite), with the storage codes.
 */
export function requireFilesPrincipal(auth: Auth, db: Db) {
  const guard = requirePrincipal(auth, db, { credentials: true, allowAgent: true });
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
