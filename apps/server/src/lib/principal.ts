import type { Role } from '@omnibot/contracts';
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors';

/** A signed-in user (session cookie). */
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

/**
 * A tenant's API credential (HTTP Basic `key:secret`, server to server). It acts with administrator rights on
 * its own tenant and its descendants: it is what a tenant's administrators hand to their own systems, so it can
 * do what they can, and never more (no master rights, even for the platform tenant's credential).
 */
export interface CredentialPrincipal {
  kind: 'credential';
  credentialId: string;
  key: string;
  tenantId: string;
  tenantType: string;
  role: 'administrator';
}

export type Principal = UserPrincipal | CredentialPrincipal;

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    /**
     * The codes of the principal's tenant's current subscriptions, read in the statement that resolved the
     * principal (null until then). An API credential's may come from the credential cache, which forgets them
     * when a subscription starts or ends and on any write to credentials, tenants or subscriptions.
     */
    tenantFeatures: readonly string[] | null;
  }
  interface FastifyContextConfig {
    /** The route stays open to a user who still has to replace a one-time password. */
    allowPendingPasswordChange?: boolean;
    /** An agent may call the route although it is not a read (a search, an answer, its own profile). */
    allowAgent?: boolean;
  }
}

/** The answer to a request that needs a principal and has none. */
export const noSession = () => new AppError(401, 'unauthenticated', 'Sign in to continue.');

/** Who acted, for created_by/updated_by and the audit log. */
export const actorId = (principal: Principal) =>
  principal.kind === 'user' ? principal.userId : `credential:${principal.credentialId}`;

/** The principal of a route guarded by `requirePrincipal`; a route that forgot the guard answers 401, never acts anonymously. */
export function principalOf(request: FastifyRequest): Principal {
  const principal = request.principal;
  if (!principal) throw noSession();
  return principal;
}

/** The signed-in user of a route guarded by `requirePrincipal` without credentials. */
export function sessionUser(request: FastifyRequest): UserPrincipal {
  const principal = request.principal;
  if (principal?.kind !== 'user') throw noSession();
  return principal;
}
