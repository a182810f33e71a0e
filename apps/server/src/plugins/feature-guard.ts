import { type FeatureCode, SUBSCRIPTION_CATALOGUE } from '@omnibot/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Db } from '../db/client';
import type { Auth } from '../modules/auth/auth';
import { subscriptions } from '../db/schema';
import { isCurrentSubscriptionSql } from '../modules/tenancy/tenant-features';
import { AppError } from '../lib/errors';
import { requirePrincipal } from './principal';

/** Whether the tenant holds a current subscription with `code` (any code when none is given). */
export async function tenantHoldsFeature(db: Db, tenantId: string, code?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.tenantId, tenantId),
        code === undefined ? undefined : eq(subscriptions.code, code),
        isCurrentSubscriptionSql(),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * `preHandler` for the routes of a feature: 403 unless the principal's tenant holds a current subscription with
 * `code`. Put it after `requirePrincipal`; without a principal it refuses (fails closed).
 */
export function requireFeature(code: FeatureCode) {
  const message = `Your organisation has no ${SUBSCRIPTION_CATALOGUE[code].name} subscription.`;
  return async (request: FastifyRequest) => {
    const principal = request.principal;
    if (!principal) throw new AppError(401, 'unauthenticated', 'Sign in to continue.');
    // The features read with the principal on this request spare a statement; otherwise they are read now.
    const holds =
      request.tenantFeatures === null
        ? await tenantHoldsFeature(request.server.database.db, principal.tenantId, code)
        : request.tenantFeatures.includes(code);
    if (!holds) {
      throw new AppError(403, 'forbidden', message);
    }
  };
}

/** The guard of a feature's tenant routes: a session or API credential whose tenant holds `code`. */
export const requireFeatureCaller = (auth: Auth, db: Db, code: FeatureCode): onRequestHookHandler[] => [
  requirePrincipal(auth, db, { credentials: true }),
  requireFeature(code),
];
