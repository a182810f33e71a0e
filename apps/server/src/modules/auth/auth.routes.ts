import {
  AUTH_ERROR_CODES,
  AUTH_MESSAGES,
  EmailSchema,
  PASSWORD_MIN_LENGTH,
  RegisterBodySchema,
  SignInBodySchema,
} from '@omnibot/contracts';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authUsers } from '../../db/schema';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import { AUTH_BASE_PATH, type Auth } from './auth';
import { assertContinueUrl, trustedOrigins } from './continue-url';
import { isAllowedEmailDomain, tenantForEmail } from './email-domains';
import { isStrongPassword } from './password-policy';
import { LIMITS, type RateLimits } from './rate-limits';

type Body = Record<string, unknown>;

// Only these better-auth endpoints are reachable; users, roles and passwords are managed through /v1.
const OPEN_PATHS = new Set([
  '/sign-in/email',
  '/sign-up/email',
  '/sign-out',
  '/get-session',
  '/verify-email',
  '/send-verification-email',
  '/request-password-reset',
  '/reset-password',
]);
const isOpenPath = (path: string) => OPEN_PATHS.has(path) || /^\/reset-password\/[\w-]+$/.test(path);

const fail = (status: number, key: keyof typeof AUTH_ERROR_CODES & keyof typeof AUTH_MESSAGES) =>
  new AppError(status, AUTH_ERROR_CODES[key], AUTH_MESSAGES[key]);

/** better-auth error codes mapped to our auth error codes and their user-facing messages. */
const TRANSLATIONS: Record<string, AppError> = {
  INVALID_EMAIL_OR_PASSWORD: fail(401, 'wrongCredentials'),
  INVALID_PASSWORD: fail(401, 'wrongCredentials'),
  USER_NOT_FOUND: fail(401, 'wrongCredentials'),
  INVALID_EMAIL: fail(400, 'invalidEmail'),
  EMAIL_NOT_VERIFIED: fail(403, 'emailNotVerified'),
  BANNED_USER: fail(403, 'userDisabled'),
  USER_DISABLED: fail(403, 'userDisabled'),
  NO_ACTIVE_SUBSCRIPTION: fail(403, 'noActiveSubscription'),
  USER_ALREADY_EXISTS: fail(422, 'emailInUse'),
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: fail(422, 'emailInUse'),
  PASSWORD_TOO_SHORT: fail(400, 'weakPassword'),
  PASSWORD_TOO_LONG: fail(400, 'weakPassword'),
  INVALID_TOKEN: fail(400, 'invalidResetToken'),
};

/**
 * Whether `password` is the password of the account of `email`, with the work better-auth's sign-in does: a
 * password is hashed for an unknown address too, so both take about as long.
 */
async function passwordMatches(auth: Auth, email: string, password: string): Promise<boolean> {
  const context = await auth.$context;
  const found = await context.internalAdapter.findUserByEmail(email, { includeAccounts: true });
  const account = found?.accounts.find(
    (item) => item.providerId === 'credential' && item.accountId === found.user.id,
  );
  if (!account?.password) {
    await context.password.hash(password);
    return false;
  }
  return context.password.verify({ hash: account.password, password });
}

function parseEmail(body: Body | undefined): string {
  const parsed = EmailSchema.safeParse(body?.email);
  if (!parsed.success) throw fail(400, 'invalidEmail');
  return parsed.data.toLowerCase();
}

export function authRoutes(app: FastifyInstance, deps: { auth: Auth; db: Db; env: Env; limits: RateLimits }) {
  const { auth, db, env, limits } = deps;
  const origins = trustedOrigins(env.PUBLIC_URL, env.TRUSTED_ORIGINS);

  /** A verification callback: a path on this server, or an absolute URL on a trusted origin. */
  const assertCallback = (value: unknown) =>
    assertContinueUrl(
      typeof value === 'string' && /^\/(?![/\\])/.test(value) ? `${env.PUBLIC_URL}${value}` : value,
      origins,
    );

  /** Checks made before better-auth sees the request; each may throw a catalogue error. */
  const before: Record<string, (request: FastifyRequest, body: Body | undefined) => Promise<void>> = {
    async '/sign-in/email'(request, body) {
      const parsed = SignInBodySchema.safeParse(body);
      if (!parsed.success)
        throw parsed.error.issues.some((i) => i.path[0] === 'email')
          ? fail(400, 'invalidEmail')
          : fail(401, 'wrongCredentials');
      const email = parsed.data.email.toLowerCase();
      await limits.assertAllowed(LIMITS.signInFailuresPerEmail, email);
      await limits.assertAllowed(LIMITS.signInFailuresPerIp, request.ip);
      if (!(await isAllowedEmailDomain(db, env, email))) {
        // Only the holder of the password learns that its domain is not allowed: to anybody else a domain no
        // tenant owns answers like a wrong password of a known one (same answer, same hashing, same failure count).
        if (await passwordMatches(auth, email, parsed.data.password)) throw fail(403, 'domainNotAllowed');
        await recordSignInFailure(request, email);
        throw fail(401, 'wrongCredentials');
      }
    },
    async '/sign-up/email'(_request, body) {
      const email = parseEmail(body);
      if (body?.callbackURL !== undefined) assertCallback(body.callbackURL);
      const parsed = RegisterBodySchema.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        if (issue?.path[0] === 'password') throw fail(400, 'weakPassword');
        throw new AppError(
          400,
          'invalid_argument',
          `body.${String(issue?.path[0] ?? 'body')}: ${issue?.message ?? 'is invalid'}`,
        );
      }
      if (!(await tenantForEmail(db, email))) throw fail(403, 'domainNotAllowed');
      // better-auth answers a fake success here; we report the address as taken.
      const [taken] = await db
        .select({ id: authUsers.id })
        .from(authUsers)
        .where(eq(authUsers.email, email))
        .limit(1);
      if (taken) throw fail(422, 'emailInUse');
      if (!isStrongPassword(parsed.data.password, [email, parsed.data.name])) throw fail(400, 'weakPassword');
      await limits.assertAllowed(LIMITS.verificationMailsPerAddress, email);
      await limits.record(LIMITS.verificationMailsPerAddress, email);
    },
    async '/send-verification-email'(_request, body) {
      const email = parseEmail(body);
      if (body?.callbackURL !== undefined) assertCallback(body.callbackURL);
      await limits.assertAllowed(LIMITS.verificationMailsPerAddress, email);
      await limits.record(LIMITS.verificationMailsPerAddress, email);
    },
    async '/request-password-reset'(_request, body) {
      const email = parseEmail(body);
      assertContinueUrl(body?.redirectTo, origins);
      await limits.assertAllowed(LIMITS.resetMailsPerAddress, email);
      await limits.record(LIMITS.resetMailsPerAddress, email);
    },
    async '/reset-password'(request, body) {
      if (request.method !== 'POST') return;
      const password = typeof body?.newPassword === 'string' ? body.newPassword : '';
      if (password.length < PASSWORD_MIN_LENGTH || !isStrongPassword(password))
        throw fail(400, 'weakPassword');
    },
  };

  app.route({
    method: ['GET', 'POST'],
    url: `${AUTH_BASE_PATH}/*`,
    schema: { hide: true },
    async handler(request, reply) {
      const url = new URL(request.url, env.PUBLIC_URL);
      const path = url.pathname.slice(AUTH_BASE_PATH.length);
      if (!isOpenPath(path))
        throw new AppError(404, 'not_found', `No route for ${request.method} ${url.pathname}`);
      const body = request.body && typeof request.body === 'object' ? (request.body as Body) : undefined;
      await before[path]?.(request, body);

      const response = await auth.handler(
        new Request(url, {
          method: request.method,
          headers: fromNodeHeaders(request.headers),
          body: request.method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
        }),
      );
      await after(path, request, body, response.status);
      return relay(reply, response, path);
    },
  });

  async function recordSignInFailure(request: FastifyRequest, email: string) {
    await limits.record(LIMITS.signInFailuresPerEmail, email);
    await limits.record(LIMITS.signInFailuresPerIp, request.ip);
  }

  async function after(path: string, request: FastifyRequest, body: Body | undefined, status: number) {
    if (path !== '/sign-in/email') return;
    const email = typeof body?.email === 'string' ? body.email.toLowerCase() : '';
    if (status === 401) {
      await recordSignInFailure(request, email);
    } else if (status === 200) {
      await limits.clear(LIMITS.signInFailuresPerEmail, email);
    }
  }

  /** Copies better-auth's answer to Fastify, with errors turned into `{ code, message }` from the catalogue. */
  async function relay(reply: FastifyReply, response: Response, path: string) {
    const cookies = response.headers.getSetCookie();
    if (cookies.length) void reply.header('set-cookie', cookies);
    const location = response.headers.get('location');
    if (location && response.status >= 300 && response.status < 400)
      return reply.redirect(location, response.status);

    const text = await response.text();
    if (response.status >= 400) {
      let code = '';
      let message = '';
      try {
        ({ code = '', message = '' } = JSON.parse(text) as { code?: string; message?: string });
      } catch {
        // Not JSON: treated as an unexpected failure below.
      }
      const known = TRANSLATIONS[code];
      if (known) throw known;
      if (response.status < 500) {
        throw new AppError(
          response.status,
          `auth/${code.toLowerCase().replaceAll('_', '-') || 'error'}`,
          message || 'Request refused',
        );
      }
      reply.log.error({ status: response.status, code, path }, 'identity provider failed');
      throw new AppError(500, AUTH_ERROR_CODES.internal, AUTH_MESSAGES.internal);
    }
    // Answers that could tell whether an address exists are normalised.
    if (path === '/request-password-reset')
      return reply.send({ status: true, message: AUTH_MESSAGES.resetSuccess });
    if (path === '/send-verification-email') return reply.send({ status: true });
    if (path === '/sign-up/email')
      return reply.send({ status: true, message: AUTH_MESSAGES.registrationSuccess });
    // The session token travels only in the httpOnly cookie, never in a body that scripts can read.
    if (path === '/sign-in/email') {
      const { user } = JSON.parse(text) as { user: { id: string; email: string; name: string } };
      return reply.send({ status: true, user: { id: user.id, email: user.email, name: user.name } });
    }
    const type = response.headers.get('content-type');
    if (type) void reply.type(type);
    return reply.status(response.status).send(text === '' ? null : text);
  }
}
