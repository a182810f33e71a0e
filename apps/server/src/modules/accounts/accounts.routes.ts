import {
  AccountLookupSchema,
  APP_ID_HEADER,
  CredentialStatusSchema,
  ProfileLookupSchema,
  SubscriptionListSchema,
} from '@omnibot/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import { requirePrincipal } from '../../plugins/principal';
import type { Auth } from '../auth/auth';
import { maskSecret, presentAccount, presentProfile, presentSubscription } from './accounts.presenter';
import {
  canReachTenant,
  findCredential,
  findProfile,
  findTenant,
  listSubscriptions,
} from './accounts.service';

const TenantParamsSchema = z.object({ tenant_id: z.string().min(1).max(64) });
const notFoundItem = (message: string) => [{ code: 404, message }];

/** Account-service calls carry an application identifier; it names the client, it authorises nothing. */
export function assertAppId(headers: Record<string, unknown>) {
  const value = headers[APP_ID_HEADER];
  if (typeof value !== 'string' || !/^[\w.-]{1,64}$/.test(value)) {
    throw new AppError(
      400,
      'invalid_argument',
      'The X-App-Id header is required (1-64 letters, digits, dots, dashes).',
    );
  }
}

/** The account service (`/v1/Account...`), spec section 7. */
export function accountRoutes(app: FastifyInstance, deps: { auth: Auth; db: Db }) {
  const { auth, db } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = {
    onRequest: async (request: { headers: Record<string, unknown> }) => assertAppId(request.headers),
    preHandler: requirePrincipal(auth, db),
  };
  const tags = ['account service'];

  r.get(
    '/v1/Account/:tenant_id',
    {
      ...guard,
      schema: {
        tags,
        summary: 'An account (tenant) as a one-item list',
        params: TenantParamsSchema,
        response: { 200: AccountLookupSchema },
      },
    },
    async (request) => {
      const { tenant_id } = request.params;
      const tenant = (await canReachTenant(db, request.principal!, tenant_id))
        ? await findTenant(db, tenant_id)
        : undefined;
      return tenant ? [presentAccount(tenant)] : notFoundItem('Account not found');
    },
  );

  r.get(
    '/v1/Account/:tenant_id/User/:key',
    {
      ...guard,
      schema: {
        tags,
        summary: "A tenant's user by e-mail (type=email) or id (type=user_id)",
        params: TenantParamsSchema.extend({ key: z.string().min(1).max(254) }),
        querystring: z.object({ type: z.enum(['email', 'user_id']) }),
        response: { 200: ProfileLookupSchema },
      },
    },
    async (request) => {
      const { tenant_id, key } = request.params;
      const principal = request.principal!;
      if (!(await canReachTenant(db, principal, tenant_id))) return notFoundItem('User not found');
      const found = await findProfile(db, tenant_id, request.query.type, key);
      // Users and agents may read their own profile only.
      const mayRead =
        found &&
        (principal.role === 'master' ||
          principal.role === 'administrator' ||
          found.user.id === principal.userId);
      return mayRead ? [presentProfile(found.user, found.emailVerified)] : notFoundItem('User not found');
    },
  );

  r.get(
    '/v1/Account/:tenant_id/credential',
    {
      ...guard,
      schema: {
        tags,
        summary: "The tenant's API credential, secret masked",
        params: TenantParamsSchema,
        response: { 200: CredentialStatusSchema },
      },
    },
    async (request) => {
      const { tenant_id } = request.params;
      const credential = (await canReachTenant(db, request.principal!, tenant_id))
        ? await findCredential(db, tenant_id)
        : undefined;
      if (!credential) return { code: 404 as const, message: 'No credential' };
      return { code: 200 as const, key: credential.key, secret: maskSecret(credential.secretLast4) };
    },
  );

  r.get(
    '/v1/Account/:tenant_id/Subscription',
    {
      ...guard,
      schema: {
        tags,
        summary: "The tenant's subscriptions",
        params: TenantParamsSchema,
        response: { 200: SubscriptionListSchema },
      },
    },
    async (request) => {
      const { tenant_id } = request.params;
      const rows = (await canReachTenant(db, request.principal!, tenant_id))
        ? await listSubscriptions(db, tenant_id)
        : [];
      if (rows.length === 0) return { code: 404 as const, message: 'No subscription' };
      return { code: 200 as const, items: rows.map(presentSubscription) };
    },
  );
}
