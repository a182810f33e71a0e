import {
  AGENT_READ_ONLY_MESSAGE,
  AUTH_ERROR_CODES,
  AUTH_MESSAGES,
  canConfigure,
  type Role,
} from '@omnibot/contracts';
import { fromNodeHeaders } from 'better-auth/node';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Db, preparedQuery } from '../../db/client';
import { credentials, tenants, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type CredentialPrincipal, noSession, type Principal, type UserPrincipal } from '../../lib/principal';
import { tenantFeaturesChangeInMsSql, tenantFeaturesSql } from '../tenancy/tenant-features';
import { tenantUsableSql } from '../tenancy/tenant-usable';
import type { Auth } from './auth';
import { CredentialCache } from './credential-cache';
import { credentialSecretMatches } from './credential-secrets';

// One answer for every failure, so a caller never learns which half of a credential was wrong.
const badCredential = () => new AppError(401, 'unauthenticated', 'Invalid API credential.');

/** The principal with the codes of its tenant's current subscriptions, read in the same statement. */
export interface ResolvedPrincipal<P extends Principal> {
  principal: P;
  features: readonly string[];
}

/**
 * What resolving a caller needs, built once by the app: the session library, the database and, when caching
 * is on, the process's cache of resolved API credentials.
 */
export interface Identity {
  auth: Auth;
  db: Db;
  credentialCache: CredentialCache<ResolvedPrincipal<CredentialPrincipal>> | null;
}

export async function resolveUserPrincipal(
  identity: Identity,
  request: FastifyRequest,
): Promise<UserPrincipal | null> {
  return (await resolveUser(identity, request))?.principal ?? null;
}

async function resolveUser(
  { auth, db }: Identity,
  request: FastifyRequest,
): Promise<ResolvedPrincipal<UserPrincipal> | null> {
  const session = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
  if (!session) return null;
  const [row] = await db
    .select({
      user: users,
      tenantType: tenants.type,
      tenantUsable: tenantUsableSql(users.tenantId),
      features: tenantFeaturesSql(users.tenantId),
    })
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
  if (!row.user.isActive || !row.tenantUsable) {
    throw new AppError(403, AUTH_ERROR_CODES.userDisabled, AUTH_MESSAGES.userDisabled);
  }
  return {
    principal: {
      kind: 'user',
      userId: row.user.id,
      email: row.user.email,
      name: session.user.name,
      tenantId: row.user.tenantId,
      tenantType: row.tenantType,
      role: row.user.role as Role,
      mustChangePassword: row.user.mustChangePassword,
    },
    features: row.features,
  };
}

/** Resolves `Authorization: Basic base64(key:secret)`; throws 401 for anything but a valid, active credential. */
async function resolveCredential(
  { auth, db, credentialCache: cache }: Identity,
  authorization: string,
): Promise<ResolvedPrincipal<CredentialPrincipal>> {
  if (!cache?.active) return (await readCredential(auth, db, authorization)).resolved;
  const cacheKey = CredentialCache.keyOf(authorization);
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const ticket = cache.ticket();
  const readAt = Date.now();
  const { resolved, featuresChangeInMs } = await readCredential(auth, db, authorization);
  cache.set(
    cacheKey,
    resolved,
    ticket,
    readAt,
    featuresChangeInMs === null ? null : readAt + featuresChangeInMs,
  );
  return resolved;
}

interface ReadCredential {
  resolved: ResolvedPrincipal<CredentialPrincipal>;
  /** Milliseconds until the features change by themselves (a subscription starts or ends); null for never. */
  featuresChangeInMs: number | null;
}

/** Reads and checks the credential in one statement; throws 401/403 like resolveCredential. */
async function readCredential(auth: Auth, db: Db, authorization: string): Promise<ReadCredential> {
  const match = /^Basic ([A-Za-z0-9+/]{1,600}={0,2})$/i.exec(authorization.trim());
  const encoded = match?.[1];
  const decoded = encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  const key = colon > 0 ? decoded.slice(0, colon) : '';
  const secret = colon > 0 ? decoded.slice(colon + 1) : '';
  const [row] = /^[a-z0-9]{1,64}$/.test(key)
    ? await preparedQuery(db, 'credential_principal', (on, name) =>
        on
          .select({
            credential: credentials,
            tenantType: tenants.type,
            tenantUsable: tenantUsableSql(credentials.tenantId),
            features: tenantFeaturesSql(credentials.tenantId),
            featuresChangeInMs: tenantFeaturesChangeInMsSql(credentials.tenantId),
          })
          .from(credentials)
          .innerJoin(tenants, eq(tenants.tenantId, credentials.tenantId))
          .where(eq(credentials.key, sql.placeholder('key')))
          .limit(1)
          .prepare(name),
      ).execute({ key })
    : [];
  const { secret: serverSecret } = await auth.$context;
  // The hash is computed and compared even for an unknown key, so both failures cost the same.
  const matches = credentialSecretMatches(serverSecret, secret, row?.credential.secretHash ?? '');
  if (!row || !matches || secret.length === 0) throw badCredential();
  if (!row.tenantUsable) throw new AppError(403, 'auth/tenant-disabled', 'This organisation is deactivated.');
  // Frozen: a cached resolution is shared by every request that repeats the credential.
  const resolved: ResolvedPrincipal<CredentialPrincipal> = Object.freeze({
    principal: Object.freeze({
      kind: 'credential',
      credentialId: row.credential.id,
      key: row.credential.key,
      tenantId: row.credential.tenantId,
      tenantType: row.tenantType,
      role: 'administrator',
    }),
    features: Object.freeze([...row.features]),
  });
  const change = row.featuresChangeInMs;
  return { resolved, featuresChangeInMs: change === null ? null : Number(change) };
}

const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * Agents answer visitors: on a route that is not a read they are refused (403) unless the route allows agents.
 * Least privilege by default, so a new route never lets an agent change configuration by accident.
 */
function assertRoleMayCall(request: FastifyRequest, principal: Principal, agentsCheckedByRoute: boolean) {
  if (canConfigure(principal.role) || agentsCheckedByRoute || READ_METHODS.has(request.method)) return;
  if (request.routeOptions.config.allowAgent) return;
  throw new AppError(403, 'forbidden', AGENT_READ_ONLY_MESSAGE);
}

/**
 * `onRequest`/`preHandler` that requires a principal; use on every /v1 route that is not public. Sessions
 * always work; `credentials: true` also accepts a tenant API credential (an Authorization header then wins).
 * `allowAgent: true` leaves agents' writes to the routes' own checks (the files module answers with its codes).
 */
export function requirePrincipal(
  identity: Identity,
  options: { credentials?: boolean; allowAgent?: boolean } = {},
) {
  return async (request: FastifyRequest) => {
    const authorization = request.headers.authorization;
    if (options.credentials && authorization !== undefined) {
      const resolved = await resolveCredential(identity, authorization);
      request.principal = resolved.principal;
      request.tenantFeatures = resolved.features;
      return;
    }
    const resolved = await resolveUser(identity, request);
    if (!resolved) throw noSession();
    const { principal } = resolved;
    if (principal.mustChangePassword && !request.routeOptions.config.allowPendingPasswordChange) {
      throw new AppError(403, AUTH_ERROR_CODES.passwordChangeRequired, AUTH_MESSAGES.passwordChangeRequired);
    }
    assertRoleMayCall(request, principal, options.allowAgent === true);
    request.principal = principal;
    request.tenantFeatures = resolved.features;
  };
}

export function registerPrincipal(app: FastifyInstance) {
  app.decorateRequest('principal', null);
  app.decorateRequest('tenantFeatures', null);
}
