import { AUTH_ERROR_CODES, AUTH_MESSAGES, type Role } from '@omnibot/contracts';
import { fromNodeHeaders } from 'better-auth/node';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { tenants, users } from '../db/schema';
import { AppError } from '../lib/errors';
import type { Auth } from '../modules/auth/auth';

/** Who is calling: a signed-in user (session cookie). API credentials join in the tenancy module. */
export interface UserPrincipal {
  kind: 'user';
  userId: string;
  email: string;
  name: string;
  tenantId: string;
  tenantType: string;
  role: Role;
  mustChangePassword: boolean;
}

export type Principal = UserPrincipal;

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** The route stays open to a user who still has to replace a one-time password. */
    allowPendingPasswordChange?: boolean;
  }
}

const noSession = () => new AppError(401, 'unauthenticated', 'Sign in to continue.');

export async function resolveUserPrincipal(
  auth: Auth,
  db: Db,
  request: FastifyRequest,
): Promise<UserPrincipal | null> {
  const session = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
  if (!session) return null;
  const [row] = await db
    .select({ user: users, tenantType: tenants.type, tenantActive: tenants.isActive })
    .from(users)
    .innerJoin(tenants, eq(tenants.tenantId, users.tenantId))
    .where(eq(users.id, session.user.id))
    .limit(1);
  if (!row)
    throw new AppError(
      403,
      'auth/no-profile',
      'Your account has no profile in any organisation. Contact your administrator.',
    );
  if (!row.user.isActive || !row.tenantActive) {
    throw new AppError(403, AUTH_ERROR_CODES.userDisabled, AUTH_MESSAGES.userDisabled);
  }
  return {
    kind: 'user',
    userId: row.user.id,
    email: row.user.email,
    name: session.user.name,
    tenantId: row.user.tenantId,
    tenantType: row.tenantType,
    role: row.user.role as Role,
    mustChangePassword: row.user.mustChangePassword,
  };
}

/** `preHandler` that requires a principal; use on every /v1 route that is not public. */
export function requirePrincipal(auth: Auth, db: Db) {
  return async (request: FastifyRequest) => {
    const principal = await resolveUserPrincipal(auth, db, request);
    if (!principal) throw noSession();
    if (principal.mustChangePassword && !request.routeOptions.config.allowPendingPasswordChange) {
      throw new AppError(403, AUTH_ERROR_CODES.passwordChangeRequired, AUTH_MESSAGES.passwordChangeRequired);
    }
    request.principal = principal;
  };
}

export function registerPrincipal(app: FastifyInstance) {
  app.decorateRequest('principal', null);
}
