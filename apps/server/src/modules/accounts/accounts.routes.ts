import {
  AccountCreatedSchema,
  AccountListSchema,
  AccountLookupQuerySchema,
  AccountLookupSchema,
  AccountParentQuerySchema,
  AccountResultSchema,
  CreateAccountBodySchema,
  UpdateAccountBodySchema,
  NoQuerySchema,
} from '@omnibot/contracts';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Env } from '../../env';
import { actorOf } from '../../lib/audit';
import { badRequest } from '../../lib/errors';
import { principalOf } from '../../lib/principal';
import { type Identity, requirePrincipal } from '../auth/principal';
import type { Mailer } from '../../lib/mailer';
import { ACCOUNT_NOT_FOUND } from '../tenancy/tenant-access';
import { presentAccount, presentSubscription } from './accounts.presenter';
import {
  type AccountsContext,
  createTenant,
  listChildren,
  readAccount,
  updateTenant,
} from './accounts.service';
import { credentialRoutes } from './credentials.routes';
import { type AccountRouteOptions, assertAppId, TAGS, TenantParamsSchema } from './route-kit';
import { subscriptionRoutes } from './subscriptions.routes';
import { userRoutes } from './users.routes';

const tenantRoutes: FastifyPluginAsyncZod<AccountRouteOptions> = async (app, { ctx, guard }) => {
  const { db } = ctx;

  app.get(
    '/v1/Account',
    {
      onRequest: guard,
      schema: {
        tags: TAGS,
        summary: "A tenant's children (default: the caller's tenant); administrators and masters only",
        querystring: AccountParentQuerySchema,
        response: { 200: AccountListSchema },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const rows = await listChildren(db, principal, request.query.tenant_id ?? principal.tenantId);
      if (rows.length === 0) return { code: 404 as const, message: 'No accounts' };
      return { code: 200 as const, items: rows.map(presentAccount) };
    },
  );

  app.post(
    '/v1/Account',
    {
      onRequest: guard,
      schema: {
        tags: TAGS,
        summary:
          'Create a child tenant of the caller (or of ?tenant_id=), with its credential and subscriptions',
        querystring: AccountParentQuerySchema,
        body: CreateAccountBodySchema,
        response: { 201: AccountCreatedSchema },
      },
    },
    async (request, reply) => {
      const created = await createTenant(ctx, actorOf(request), request.query.tenant_id, request.body);
      return reply.status(201).send({
        code: 201 as const,
        account: presentAccount(created.tenant),
        credential: created.credential,
        subscriptions: created.subscriptions.map(presentSubscription),
      });
    },
  );

  app.get(
    '/v1/Account/:tenant_id',
    {
      onRequest: guard,
      schema: {
        tags: TAGS,
        summary: 'An account (tenant) as a one-item list; ?type=domain&data= finds one by domain',
        params: TenantParamsSchema,
        querystring: AccountLookupQuerySchema,
        response: { 200: AccountLookupSchema },
      },
    },
    async (request) => {
      const { tenant_id } = request.params;
      const { type, data } = request.query;
      let domain: string | undefined;
      if (type === 'domain') {
        if (!data) throw badRequest('querystring.data: a domain is required');
        domain = data;
      }
      const tenant = await readAccount(db, principalOf(request), tenant_id, domain);
      return tenant ? [presentAccount(tenant)] : [{ code: 404, message: ACCOUNT_NOT_FOUND }];
    },
  );

  app.put(
    '/v1/Account/:tenant_id',
    {
      onRequest: guard,
      schema: {
        tags: TAGS,
        summary: 'Replace name, address and info; is_active only by a parent administrator or a master',
        params: TenantParamsSchema,
        querystring: NoQuerySchema,
        body: UpdateAccountBodySchema,
        response: { 200: AccountResultSchema },
      },
    },
    async (request) => {
      const updated = await updateTenant(ctx, actorOf(request), request.params.tenant_id, request.body);
      return { code: 200 as const, account: presentAccount(updated) };
    },
  );
};

/** The account service (`/v1/Account...`): session cookie or API credential, plus X-App-Id. */
export function accountRoutes(app: FastifyInstance, deps: { identity: Identity; mailer: Mailer; env: Env }) {
  const { identity, mailer, env } = deps;
  void app.register(async (scope) => {
    const ctx: AccountsContext = { db: identity.db, auth: identity.auth, env, mailer };
    const guard: onRequestHookHandler[] = [
      async (request) => assertAppId(request.headers),
      requirePrincipal(identity, { credentials: true }),
    ];
    await scope.register(tenantRoutes, { ctx, guard });
    await scope.register(credentialRoutes, { ctx, guard });
    await scope.register(subscriptionRoutes, { ctx, guard });
    await scope.register(userRoutes, { ctx, guard });
  });
}
