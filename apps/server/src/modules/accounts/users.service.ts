import { randomBytes } from 'node:crypto';
import {
  AUTH_ERROR_CODES,
  AUTH_MESSAGES,
  type CreateUserBody,
  EMAIL_DOMAIN_TAKEN,
  emailDomain,
  type Role,
  ROLE_RANK,
  type UpdateUserBody,
  type UserListQuery,
} from '@omnibot/contracts';
import { and, asc, count, desc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authSessions, authUsers, tenants, type TenantRow, users } from '../../db/schema';
import { AppError, forbidden, notFound } from '../../lib/errors';
import { theRow } from '../../lib/rows';
import { actorId, type Principal } from '../../lib/principal';
import { invitationMail } from '../auth/auth-mails';
import { domainOwner, isAllowedEmailDomain } from '../auth/email-domains';
import { type Actor, writeAudit } from '../../lib/audit';
import { isUniqueViolation } from '../../lib/unique-violation';
import { canManage, isSameOrAncestor, manageableTenant, readableTenant } from '../tenancy/tenant-access';
import { type AccountsContext, findProfile } from './accounts.service';

const USER_NOT_FOUND = 'User not found';
/** How long an invitation's set-password link works. */
const INVITATION_TTL_MS = 72 * 60 * 60 * 1000;

const ADMIN_ROLES: Role[] = ['master', 'administrator'];
const emailInUse = () => new AppError(409, AUTH_ERROR_CODES.emailInUse, AUTH_MESSAGES.emailInUse);
const escapeLike = (value: string) => value.replace(/[\\%_]/g, (char) => `\\${char}`);

function compact<T extends Record<string, string | undefined>>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, item]) => item !== undefined && item !== ''),
  ) as Partial<T>;
}

/** Nobody gives a role above their own; `master` exists only in the platform tenant (type "1"). */
function assertRoleGrantable(principal: Principal, role: Role, tenant: TenantRow) {
  if (role === 'master' && tenant.type !== '1') {
    throw new AppError(403, 'role_not_allowed', 'The master role exists only in the platform organisation.');
  }
  if (ROLE_RANK[role] > ROLE_RANK[principal.role]) {
    throw new AppError(403, 'role_not_allowed', 'You cannot give a role above your own.');
  }
}

/** A page of a tenant's users (administrators see all of them; users and agents only themselves). */
export async function listUsers(db: Db, principal: Principal, tenantId: string, query: UserListQuery) {
  if (!(await readableTenant(db, principal, tenantId))) return undefined;
  const conditions: Array<SQL | undefined> = [eq(users.tenantId, tenantId)];
  if (!canManage(principal)) {
    conditions.push(eq(users.id, principal.kind === 'user' ? principal.userId : ''));
  }
  if (query.q) {
    const pattern = `%${escapeLike(query.q)}%`;
    conditions.push(
      or(
        ilike(users.email, pattern),
        ilike(users.username, pattern),
        sql`${users.info}->>'firstname' ilike ${pattern}`,
        sql`${users.info}->>'lastname' ilike ${pattern}`,
      ),
    );
  }
  const where = and(...conditions);
  // Sorting by role follows rank: agent < user < administrator < master.
  const roleRank = sql`case ${users.role} when 'master' then 4 when 'administrator' then 3 when 'user' then 2 else 1 end`;
  const column = { email: users.email, created_at: users.createdAt, role: roleRank }[query.sort];
  const direction = query.order === 'desc' ? desc : asc;
  const [rows, [total]] = await Promise.all([
    db
      .select({ user: users, emailVerified: authUsers.emailVerified })
      .from(users)
      .innerJoin(authUsers, eq(authUsers.id, users.id))
      .where(where)
      .orderBy(direction(column), asc(users.email))
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { rows, total: total?.total ?? 0 };
}

/** A readable tenant's user by e-mail or id; users and agents may read their own profile only. */
export async function readProfile(
  db: Db,
  principal: Principal,
  tenantId: string,
  by: 'email' | 'user_id',
  value: string,
) {
  if (!(await readableTenant(db, principal, tenantId))) return undefined;
  const found = await findProfile(db, tenantId, by, value);
  const mayRead =
    found && (canManage(principal) || (principal.kind === 'user' && found.user.id === principal.userId));
  return mayRead ? found : undefined;
}

/** An address on a domain owned by a tenant outside the caller's subtree is that tenant's (masters excepted). */
async function assertDomainInReach(db: Db, principal: Principal, email: string) {
  if (principal.role === 'master') return;
  const owner = await domainOwner(db, email);
  if (owner && !(await isSameOrAncestor(db, principal.tenantId, owner.tenantId))) {
    throw new AppError(409, EMAIL_DOMAIN_TAKEN.code, EMAIL_DOMAIN_TAKEN.message);
  }
}

/**
 * Creates the person (better-auth user with an unusable random password, e-mail counted as verified since the
 * invitation proves it) and their profile, then mails an invitation whose link lets them choose a password.
 */
export async function createUser(ctx: AccountsContext, actor: Actor, tenantId: string, body: CreateUserBody) {
  const { db, env, auth } = ctx;
  const tenant = await manageableTenant(db, actor.principal, tenantId);
  assertRoleGrantable(actor.principal, body.role, tenant);
  const email = body.email.toLowerCase();
  await assertDomainInReach(db, actor.principal, email);
  const ownDomain = (tenant.info.domain ?? '').toLowerCase();
  const allowed = emailDomain(email) === ownDomain || (await isAllowedEmailDomain(db, env, email));
  if (!allowed) throw new AppError(403, AUTH_ERROR_CODES.domainNotAllowed, AUTH_MESSAGES.domainNotAllowed);
  const [taken] = await db.select({ id: authUsers.id }).from(authUsers).where(eq(authUsers.email, email));
  if (taken) throw emailInUse();

  const info = compact(body.info ?? {});
  const name =
    body.username ??
    ([info.firstname, info.lastname].filter(Boolean).join(' ') || email.slice(0, email.lastIndexOf('@')));
  const context = await auth.$context;
  let userId: string;
  try {
    const created = await context.internalAdapter.createUser(
      { email, name, emailVerified: true },
      { method: 'admin' },
    );
    userId = created.id;
  } catch (error) {
    if (isUniqueViolation(error)) throw emailInUse();
    throw error;
  }
  try {
    await context.internalAdapter.linkAccount({
      userId,
      providerId: 'credential',
      accountId: userId,
      // Nobody knows this password: the invitation link is the only way in.
      password: await context.password.hash(randomBytes(32).toString('base64url')),
    });
    const by = actorId(actor.principal);
    const row = await db.transaction(async (tx) => {
      const inserted = theRow(
        await tx
          .insert(users)
          .values({
            id: userId,
            tenantId: tenant.tenantId,
            email,
            username: body.username ?? null,
            role: body.role,
            address: compact(body.address ?? {}),
            info,
            createdBy: by,
            updatedBy: by,
          })
          .returning(),
      );
      await writeAudit(tx, actor, {
        tenantId: tenant.tenantId,
        action: 'user.create',
        target: `user:${userId}`,
        details: { email, role: body.role },
      });
      return inserted;
    });
    const token = randomBytes(24).toString('base64url');
    await context.internalAdapter.createVerificationValue({
      identifier: `reset-password:${token}`,
      value: userId,
      expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
    });
    const continueUrl = encodeURIComponent(`${env.PUBLIC_URL}/bot/password`);
    const url = `${env.PUBLIC_URL}/api/auth/reset-password/${token}?callbackURL=${continueUrl}`;
    ctx.mailer.send(invitationMail(env.PRODUCT_NAME, email, name, tenant.name, url));
    return { user: row, emailVerified: true };
  } catch (error) {
    await db.delete(authUsers).where(eq(authUsers.id, userId));
    throw error;
  }
}

/**
 * Updates a user. Anybody may edit their own names, phones and address; role and is_active need an
 * administrator (or master) who ranks at least as high as the user and the new role. A tenant keeps at least
 * one active administrator, and the platform at least one active master. Disabling bans the sign-in and ends
 * the user's sessions; enabling lifts the ban.
 */
export async function updateUser(
  ctx: AccountsContext,
  actor: Actor,
  tenantId: string,
  userId: string,
  body: UpdateUserBody,
) {
  const { db } = ctx;
  const { principal } = actor;
  const tenant = await readableTenant(db, principal, tenantId);
  const isSelf = principal.kind === 'user' && principal.userId === userId;
  const manages = canManage(principal);
  if (!tenant || (!isSelf && !manages)) throw notFound(USER_NOT_FOUND);
  const [target] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.tenantId, tenant.tenantId)))
    .limit(1);
  if (!target) throw notFound(USER_NOT_FOUND);

  const role = body.role ?? (target.role as Role);
  const isActive = body.is_active ?? target.isActive;
  const roleChanged = role !== target.role;
  const activeChanged = isActive !== target.isActive;
  if ((roleChanged || activeChanged) && !manages) {
    throw forbidden('Only an administrator can change roles or disable users.');
  }
  if (ROLE_RANK[target.role as Role] > ROLE_RANK[principal.role]) {
    throw forbidden('You cannot change a user whose role is above yours.');
  }
  if (roleChanged) assertRoleGrantable(principal, role, tenant);

  return db.transaction(async (tx) => {
    // One change at a time per tenant, so two demotions cannot both see "another administrator is left".
    await tx.execute(sql`select 1 from ${tenants} where tenant_id = ${tenant.tenantId} for update`);
    const wasAdmin = target.isActive && ADMIN_ROLES.includes(target.role as Role);
    const staysAdmin = isActive && ADMIN_ROLES.includes(role);
    if (wasAdmin && !staysAdmin) {
      const [others] = await tx
        .select({ n: count() })
        .from(users)
        .where(
          and(
            eq(users.tenantId, tenant.tenantId),
            ne(users.id, target.id),
            eq(users.isActive, true),
            inArray(users.role, ADMIN_ROLES),
          ),
        );
      if ((others?.n ?? 0) === 0) {
        throw new AppError(
          409,
          'last_administrator',
          'This is the last active administrator of the organisation. Make someone else an administrator first.',
        );
      }
    }
    if (target.role === 'master' && target.isActive && (role !== 'master' || !isActive)) {
      const [masters] = await tx
        .select({ n: count() })
        .from(users)
        .where(and(eq(users.role, 'master'), eq(users.isActive, true), ne(users.id, target.id)));
      if ((masters?.n ?? 0) === 0) {
        throw new AppError(
          409,
          'last_administrator',
          'This is the last active master. Appoint another master first.',
        );
      }
    }
    const updated = theRow(
      await tx
        .update(users)
        .set({
          username: body.username === undefined ? target.username : body.username,
          role,
          isActive,
          info: body.info ? compact(body.info) : target.info,
          address: body.address ? compact(body.address) : target.address,
          updatedBy: actorId(principal),
          updatedAt: new Date(),
        })
        .where(eq(users.id, target.id))
        .returning(),
    );
    if (body.username || activeChanged) {
      await tx
        .update(authUsers)
        .set({
          ...(body.username ? { name: body.username } : {}),
          ...(activeChanged ? { banned: !isActive } : {}),
          updatedAt: new Date(),
        })
        .where(eq(authUsers.id, target.id));
    }
    if (activeChanged && !isActive) await tx.delete(authSessions).where(eq(authSessions.userId, target.id));
    await writeAudit(tx, actor, {
      tenantId: tenant.tenantId,
      action: 'user.update',
      target: `user:${target.id}`,
      details: {
        ...(roleChanged ? { role: { from: target.role, to: role } } : {}),
        ...(activeChanged ? { is_active: isActive } : {}),
      },
    });
    const [verified] = await tx
      .select({ emailVerified: authUsers.emailVerified })
      .from(authUsers)
      .where(eq(authUsers.id, target.id));
    return { user: updated, emailVerified: verified?.emailVerified ?? false };
  });
}
