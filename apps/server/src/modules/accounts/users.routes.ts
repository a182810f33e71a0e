import {
  CreateUserBodySchema,
  EmailSchema,
  ProfileLookupSchema,
  UpdateUserBodySchema,
  UserListQuerySchema,
  UserListSchema,
  UserResultSchema,
  NoQuerySchema,
  UserLookupQuerySchema,
} from '@omnibot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/audit';
import { badRequest } from '../../lib/errors';
import { principalOf } from '../../lib/principal';
import { presentProfile } from './accounts.presenter';
import { type AccountRouteOptions, TAGS, TenantParamsSchema } from './route-kit';
import { createUser, listUsers, readProfile, updateUser } from './users.service';

const USER_ID = /^[A-Za-z0-9_-]{1,64}$/;
const notFoundItem = [{ code: 404, message: 'User not found' }];

export const userRoutes: FastifyPluginAsyncZod<AccountRouteOptions> = async (app, { ctx, guard }) => {
  const { db } = ctx;

  app.get(
    '/v1/Account/:tenant_id/User',
    {
      onRequest: guard,
      schema: {
        tags: TAGS,
        summary: "A page of the tenant's users (?page, page_size 1-100, q, sort, order)",
        params: TenantParamsSchema,
        querystring: UserListQuerySchema,
        response: { 200: UserListSchema },
      },
    },
    async (request) => {
      const { query } = request;
      const page = await listUsers(db, principalOf(request), request.params.tenant_id, query);
      if (!page) return { code: 404 as const, message: 'Account not found' };
      return {
        code: 200 as const,
        items: page.rows.map((row) => presentProfile(row.user, row.emailVerified)),
        total: page.total,
        page: query.page,
        page_size: query.page_size,
      };
    },
  );

  app.get(
    '/v1/Account/:tenant_id/User/:key',
    {
      onRequest: guard,
      schema: {
        tags: TAGS,
        summary: "A tenant's user by e-mail (type=email) or id (type=user_id)",
        params: TenantParamsSchema.extend({ key: z.string().min(1).max(254) }),
        querystring: UserLookupQuerySchema,
        response: { 200: ProfileLookupSchema },
      },
    },
    async (request) => {
      const { tenant_id, key } = request.params;
      const wellFormed =
        request.query.type === 'email' ? EmailSchema.safeParse(key).success : USER_ID.test(key);
      if (!wellFormed)
        throw badRequest(`params.key: not a valid ${request.query.type === 'email' ? 'e-mail' : 'user id'}`);
      const found = await readProfile(db, principalOf(request), tenant_id, request.query.type, key);
      return found ? [presentProfile(found.user, found.emailVerified)] : notFoundItem;
    },
  );

  app.post(
    '/v1/Account/:tenant_id/User',
    {
      onRequest: guard,
      schema: {
        tags: TAGS,
        summary: 'Create a user and mail an invitation with a set-password link (72 hours)',
        params: TenantParamsSchema,
        querystring: NoQuerySchema,
        body: CreateUserBodySchema,
        response: { 201: UserResultSchema },
      },
    },
    async (request, reply) => {
      const created = await createUser(ctx, actorOf(request), request.params.tenant_id, request.body);
      return reply
        .status(201)
        .send({ code: 201 as const, user: presentProfile(created.user, created.emailVerified) });
    },
  );

  app.put(
    '/v1/Account/:tenant_id/User/:id',
    {
      onRequest: guard,
      // Anybody edits their own profile; the service keeps roles and other users to administrators.
      config: { allowAgent: true },
      schema: {
        tags: TAGS,
        summary: 'Update a user: own profile for anybody; role and is_active for administrators',
        params: TenantParamsSchema.extend({ id: z.string().regex(USER_ID) }),
        querystring: NoQuerySchema,
        body: UpdateUserBodySchema,
        response: { 200: UserResultSchema },
      },
    },
    async (request) => {
      const { tenant_id, id } = request.params;
      const updated = await updateUser(ctx, actorOf(request), tenant_id, id, request.body);
      return { code: 200 as const, user: presentProfile(updated.user, updated.emailVerified) };
    },
  );
};
