import { AUTH_MESSAGES } from '@omnibot/contracts';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError } from 'better-auth/api';
import { admin } from 'better-auth/plugins';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { authAccounts, authSessions, authUsers, authVerifications, tenants, users } from '../../db/schema';
import type { Env } from '../../env';
import type { Mailer } from '../../lib/mailer';
import { tenantHoldsFeature } from '../tenancy/tenant-features';
import { tenantUsableSql } from '../tenancy/tenant-usable';
import { resetPasswordMail, verificationMail } from './auth-mails';
import { trustedOrigins } from './continue-url';
import { tenantForEmail } from './email-domains';

export const AUTH_BASE_PATH = '/api/auth';
const SESSION_COOKIE_PREFIX = 'omnibot';

/** Splits a display name into first name and the rest (the header shows both). */
function splitName(name: string): { firstname: string; lastname: string } {
  const parts = name.trim().split(/\s+/);
  return { firstname: parts[0] ?? '', lastname: parts.slice(1).join(' ') };
}

export function createAuth(options: {
  env: Env;
  db: Db;
  mailer: Mailer;
  secret: string;
  logger: FastifyBaseLogger;
}) {
  const { env, db, mailer } = options;
  return betterAuth({
    appName: env.PRODUCT_NAME,
    baseURL: env.PUBLIC_URL,
    basePath: AUTH_BASE_PATH,
    secret: options.secret,
    trustedOrigins: trustedOrigins(env.PUBLIC_URL, env.TRUSTED_ORIGINS),
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        user: authUsers,
        session: authSessions,
        account: authAccounts,
        verification: authVerifications,
      },
    }),
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 10,
      maxPasswordLength: 128,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, url }) => {
        mailer.send(resetPasswordMail(env.PRODUCT_NAME, user.email, user.name, url));
      },
      onPasswordReset: async ({ user }) => {
        await db
          .update(users)
          .set({ mustChangePassword: false, updatedAt: new Date() })
          .where(eq(users.id, user.id));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: false,
      autoSignInAfterVerification: false,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: async ({ user, url }) => {
        mailer.send(verificationMail(env.PRODUCT_NAME, user.email, user.name, url));
      },
    },
    session: { expiresIn: 7 * 24 * 60 * 60, updateAge: 24 * 60 * 60 },
    // Our own database-backed limits guard the endpoints that matter (see auth.routes.ts).
    rateLimit: { enabled: false },
    // The origin check stays on in every NODE_ENV (better-auth skips it under test otherwise).
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      ipAddress: { disableIpTracking: false },
      disableOriginCheck: false,
    },
    databaseHooks: {
      user: {
        create: {
          // Self-registration joins the tenant owning the e-mail's domain, as a user.
          after: async (user, context) => {
            if (context?.path !== '/sign-up/email') return;
            const tenant = await tenantForEmail(db, user.email);
            if (!tenant) return;
            await db.insert(users).values({
              id: user.id,
              tenantId: tenant.tenantId,
              email: user.email.toLowerCase(),
              username: user.name,
              role: 'user',
              info: splitName(user.name),
              createdBy: user.id,
              updatedBy: user.id,
            });
          },
        },
      },
      session: {
        create: {
          // Disabled users, users of a tenant that is not usable (it or an ancestor is inactive), and users of
          // a tenant whose subscriptions have all lapsed get no session (the platform tenant is exempt from the
          // subscription rule: its staff must be able to fix things).
          before: async (session) => {
            const [row] = await db
              .select({
                isActive: users.isActive,
                tenantId: tenants.tenantId,
                tenantType: tenants.type,
                tenantUsable: tenantUsableSql(users.tenantId),
              })
              .from(users)
              .innerJoin(tenants, eq(tenants.tenantId, users.tenantId))
              .where(eq(users.id, session.userId))
              .limit(1);
            if (row && (!row.isActive || !row.tenantUsable)) {
              throw new APIError('FORBIDDEN', { code: 'USER_DISABLED', message: AUTH_MESSAGES.userDisabled });
            }
            if (row && row.tenantType !== '1' && !(await tenantHoldsFeature(db, row.tenantId))) {
              throw new APIError('FORBIDDEN', {
                code: 'NO_ACTIVE_SUBSCRIPTION',
                message: AUTH_MESSAGES.noActiveSubscription,
              });
            }
          },
        },
      },
    },
    plugins: [admin()],
    telemetry: { enabled: false },
    logger: {
      log: (level, message) => {
        const log = options.logger.child({ component: 'better-auth' });
        if (level === 'error') log.error(message);
        else if (level === 'warn') log.warn(message);
        else log.debug(message);
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
