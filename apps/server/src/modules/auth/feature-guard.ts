import { type FeatureCode, SUBSCRIPTION_CATALOGUE } from '@omnibot/contracts';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import { noSession } from '../../lib/principal';
import { tenantHoldsFeature } from '../tenancy/tenant-features';
import { type Identity, requirePrincipal } from './principal';

/**
 * `preHandler` for the routes of a feature: 403 unless the principal's tenant holds a current subscription with
 * `code`. Put it after `requirePrincipal`; without a principal it refuses (fails closed).
 */
export function requireFeature(db: Db, code: FeatureCode) {
  const message = `Your organisation has no ${SUBSCRIPTION_CATALOGUE[code].name} subscription.`;
  return async (request: FastifyRequest) => {
    const principal = request.principal;
    if (!principal) throw noSession();
    // The features read with the principal on this request spare a statement; otherwise they are read now.
    const holds =
      request.tenantFeatures === null
        ? await tenantHoldsFeature(db, principal.tenantId, code)
        : request.tenantFeatures.includes(code);
    if (!holds) {
      throw new AppError(403, 'forbidden', message);
    }
  };
}

/** The guard of a feature's tenant routes: a session or API credential whose tenant holds `code`. */
export const requireFeatureCaller = (identity: Identity, code: FeatureCode): onRequestHookHandler[] => [
  requirePrincipal(identity, { credentials: true }),
  requireFeature(identity.db, code),
];
