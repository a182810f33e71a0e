import { randomBytes } from 'node:crypto';
import { emailDomain } from '@omnibot/contracts';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/client';
import { seedPlatform } from './db/seed';
import { authUsers, systemSettings, users } from './db/schema';
import type { Env } from './env';
import { theRow } from './lib/rows';
import type { Auth } from './modules/auth/auth';

/** The installation's session-signing secret: AUTH_SECRET, or one generated on first start and kept in the database. */
export async function loadAuthSecret(db: Db, env: Env): Promise<string> {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  await db
    .insert(systemSettings)
    .values({ key: 'auth_secret', value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const row = theRow(await db.select().from(systemSettings).where(eq(systemSettings.key, 'auth_secret')));
  return row.value;
}

/** A password that passes the strength policy: 20 characters from a 62-letter alphabet (~119 bits). */
function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  return [...randomBytes(20)].map((byte) => alphabet[byte % alphabet.length]).join('');
}

/**
 * First start: the platform tenant (its domain is the master's) and the master user. Both are created once;
 * a restart never resets them.
 */
export async function bootstrap(deps: { db: Db; env: Env; auth: Auth; logger: FastifyBaseLogger }) {
  const { db, env, auth, logger } = deps;
  const seed = await seedPlatform(
    db,
    env.PLATFORM_TENANT_NAME ?? env.COMPANY_NAME,
    emailDomain(env.ADMIN_EMAIL),
  );
  if (seed.created) logger.info({ tenantId: seed.platform.tenantId }, 'created the platform tenant');

  const [master] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'master')).limit(1);
  if (master) return seed;
  const email = env.ADMIN_EMAIL.toLowerCase();
  const [existing] = await db
    .select({ id: authUsers.id })
    .from(authUsers)
    .where(sql`lower(${authUsers.email}) = ${email}`);
  if (existing) {
    logger.warn(
      { email },
      'an account with ADMIN_EMAIL exists without a master profile; no master user was created',
    );
    return seed;
  }
  const password = env.ADMIN_PASSWORD ?? generatePassword();
  const context = await auth.$context;
  const user = await context.internalAdapter.createUser(
    { email, name: 'Platform Administrator', emailVerified: true },
    { method: 'admin' },
  );
  await context.internalAdapter.linkAccount({
    userId: user.id,
    providerId: 'credential',
    accountId: user.id,
    password: await context.password.hash(password),
  });
  await db.insert(users).values({
    id: user.id,
    tenantId: seed.platform.tenantId,
    email,
    username: 'Platform Administrator',
    role: 'master',
    mustChangePassword: !env.ADMIN_PASSWORD,
    info: { firstname: 'Platform', lastname: 'Administrator' },
    createdBy: 'system',
    updatedBy: 'system',
  });
  if (env.ADMIN_PASSWORD) {
    logger.info({ email }, `created the master user ${email} with the password from ADMIN_PASSWORD`);
  } else {
    // Printed once, on purpose: the first sign-in must replace it.
    logger.warn(
      { email, oneTimePassword: password },
      `created the master user: sign in as ${email} with the one-time password ${password} (you must change it at first sign-in)`,
    );
  }
  return seed;
}
