import {
  AUTH_ERROR_CODES,
  AUTH_MESSAGES,
  ChangePasswordBodySchema,
  SessionAnswerSchema,
} from '@omnibot/contracts';
import { APIError } from 'better-auth/api';
import { fromNodeHeaders } from 'better-auth/node';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { type Identity, resolveUserPrincipal } from '../auth/principal';
import { LIMITS, type RateLimits } from '../auth/rate-limits';
import { isStrongPassword } from '../auth/password-policy';

const ResultSchema = z.object({ code: z.number(), message: z.string() });

export function sessionRoutes(app: FastifyInstance, deps: { identity: Identity; limits: RateLimits }) {
  const { identity, limits } = deps;
  const { auth, db } = identity;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/session',
    {
      schema: {
        tags: ['identity'],
        summary: 'The signed-in user and their tenant; null without a session',
        response: { 200: SessionAnswerSchema },
      },
    },
    async (request) => {
      // A disabled user or one without a profile still gets its 403: only the absence of a session is an answer.
      const p = await resolveUserPrincipal(identity, request);
      if (!p) return null;
      return {
        user_id: p.userId,
        email: p.email,
        name: p.name,
        tenant_id: p.tenantId,
        role: p.role,
        must_change_password: p.mustChangePassword,
      };
    },
  );

  // Password update results are 200 on success, 404 "No user is signed in.", otherwise an error code.
  r.post(
    '/v1/me/password',
    {
      schema: {
        tags: ['identity'],
        summary: "Change the signed-in user's password (other sessions are signed out)",
        body: ChangePasswordBodySchema,
        response: { 200: ResultSchema },
      },
    },
    async (request, reply) => {
      const principal = await resolveUserPrincipal(identity, request);
      if (!principal) throw new AppError(404, AUTH_ERROR_CODES.noCurrentUser, AUTH_MESSAGES.noCurrentUser);
      // Wrong current passwords are limited like sign-in failures, so a stolen session cannot guess the password.
      await limits.assertAllowed(LIMITS.passwordChangeFailuresPerUser, principal.userId);
      await limits.assertAllowed(LIMITS.passwordChangeFailuresPerIp, request.ip);
      const { currentPassword, newPassword } = request.body;
      if (!isStrongPassword(newPassword, [principal.email, principal.name])) {
        throw new AppError(400, AUTH_ERROR_CODES.weakPassword, AUTH_MESSAGES.weakPassword);
      }
      try {
        const { headers } = await auth.api.changePassword({
          body: { currentPassword, newPassword, revokeOtherSessions: true },
          headers: fromNodeHeaders(request.headers),
          returnHeaders: true,
        });
        const cookies = headers.getSetCookie();
        if (cookies.length) void reply.header('set-cookie', cookies);
      } catch (error) {
        if (error instanceof APIError && error.body?.code === 'INVALID_PASSWORD') {
          await limits.record(LIMITS.passwordChangeFailuresPerUser, principal.userId);
          await limits.record(LIMITS.passwordChangeFailuresPerIp, request.ip);
          throw new AppError(400, AUTH_ERROR_CODES.wrongCurrentPassword, AUTH_MESSAGES.wrongCurrentPassword);
        }
        throw error;
      }
      await db
        .update(users)
        .set({ mustChangePassword: false, updatedAt: new Date(), updatedBy: principal.userId })
        .where(eq(users.id, principal.userId));
      await limits.clear(LIMITS.passwordChangeFailuresPerUser, principal.userId);
      return { code: 200, message: 'Your password was changed.' };
    },
  );
}
