import {
  childType,
  type CreateAccountBody,
  type FeatureCode,
  SUBSCRIPTION_CATALOGUE,
  type UpdateAccountBody,
} from '@omnibot/contracts';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { authSessions, authUsers, credentials, subscriptions, tenants, users } from '../../db/schema';
import type { Env } from '../../env';
import { type Actor, writeAudit } from '../../lib/audit';
import { AppError, conflict, forbidden } from '../../lib/errors';
import { shortId } from '../../lib/ids';
import { theRow } from '../../lib/rows';
import { isUniqueViolation } from '../../lib/unique-violation';
import type { Mailer } from '../../lib/mailer';
import { tenantHoldsFeature } from '../tenancy/tenant-features';
import { principalsChanged } from '../tenancy/principals-changed';
import { isCurrentSubscriptionSql } from '../tenancy/tenant-features';
import { actorId, type Principal } from '../../lib/principal';
import type { Auth } from '../auth/auth';
import {
  canManage,
  canReachTenant,
  descendantIds,
  isSameOrAncestor,
  manageableTenant,
  readableTenant,
} from '../tenancy/tenant-access';
import { hashCredentialSecret, newCredentialKey, newCredentialSecret } from '../auth/credential-secrets';

/** What the account services need. */
export interface AccountsContext {
  db: Db;
  auth: Auth;
  env: Env;
  mailer: Mailer;
}

const domainTaken = () => conflict('Another organisation already uses this domain.', 'domain_taken');

/** Drops empty values, so an empty field is absent (and an empty domain claims nothing). */
function compact<T extends Record<string, string | undefined>>(value: T | undefined): Partial<T> {
  return Object.fromEntries(
    Object.entries(value ?? {}).filter(([, item]) => item !== undefined && item !== ''),
  ) as Partial<T>;
}

async function assertDomainFree(db: Db, domain: string | undefined, exceptTenantId?: string) {
  if (!domain) return;
  const [other] = await db
    .select({ tenantId: tenants.tenantId })
    .from(tenants)
    .where(
      and(
        sql`lower(${tenants.info}->>'domain') = ${domain.toLowerCase()}`,
        exceptTenantId ? ne(tenants.tenantId, exceptTenantId) : undefined,
      ),
    )
    .limit(1);
  if (other) throw domainTaken();
}

/** The codes a tenant currently holds. */
async function currentCodes(db: Db, tenantId: string): Promise<Set<string>> {
  const rows = await db
    .select({ code: subscriptions.code })
    .from(subscriptions)
    .where(and(eq(subscriptions.tenantId, tenantId), isCurrentSubscriptionSql()));
  return new Set(rows.map((row) => row.code));
}

/** A tenant's children, when the principal may manage the tenant (users and agents see none). */
export async function listChildren(db: Db, principal: Principal, tenantId: string) {
  if (!canManage(principal)) return [];
  const parent = await readableTenant(db, principal, tenantId);
  if (!parent) return [];
  return db.select().from(tenants).where(eq(tenants.parentTenantId, tenantId)).orderBy(asc(tenants.name));
}

/** The tenant whose info.domain is `domain`, inside the subtree of `tenantId` and within the principal's reach. */
async function findTenantByDomain(db: Db, principal: Principal, tenantId: string, domain: string) {
  const scope = await readableTenant(db, principal, tenantId);
  if (!scope) return undefined;
  const [found] = await db
    .select()
    .from(tenants)
    .where(sql`lower(${tenants.info}->>'domain') = ${domain.trim().toLowerCase()}`)
    .limit(1);
  if (!found) return undefined;
  const inScope =
    (await isSameOrAncestor(db, scope.tenantId, found.tenantId)) &&
    (await canReachTenant(db, principal, found.tenantId));
  return inScope ? found : undefined;
}

/** A readable tenant, or with `domain` the tenant holding it inside that one's subtree; undefined otherwise. */
export async function readAccount(db: Db, principal: Principal, tenantId: string, domain?: string) {
  return domain === undefined
    ? readableTenant(db, principal, tenantId)
    : findTenantByDomain(db, principal, tenantId, domain);
}

const catalogueNames = (codes: string[]) =>
  codes.map((code) => SUBSCRIPTION_CATALOGUE[code as FeatureCode]?.name ?? code).join(', ');

/**
 * Creates a child of `parentId` (default: the caller's tenant) with type childType(parent), its API credential
 * (the secret is returned here, once) and a subscription for each requested code the parent holds.
 */
export async function createTenant(
  ctx: AccountsContext,
  actor: Actor,
  parentId: string | undefined,
  body: CreateAccountBody,
) {
  const { db } = ctx;
  const { principal } = actor;
  const parent = await manageableTenant(db, principal, parentId ?? principal.tenantId);
  const whose = parent.tenantId === principal.tenantId ? 'Your organisation' : 'This organisation';
  if (parent.type === '3') throw forbidden('A client organisation cannot create organisations.');
  if (parent.type === '2' && !(await tenantHoldsFeature(db, parent.tenantId, 'subtenant'))) {
    throw forbidden(`${whose} has no ${SUBSCRIPTION_CATALOGUE.subtenant.name} subscription.`);
  }
  const codes = [...new Set(body.subscriptions)];
  const held = await currentCodes(db, parent.tenantId);
  const missing = codes.filter((code) => !held.has(code));
  if (missing.length > 0) {
    throw new AppError(
      403,
      'subscription_not_held',
      `${whose} cannot pass on subscriptions it does not hold: ${catalogueNames(missing)}.`,
    );
  }
  const info = compact(body.info);
  await assertDomainFree(db, info.domain);

  const tenantId = shortId();
  const key = newCredentialKey();
  const secret = newCredentialSecret();
  const { secret: serverSecret } = await ctx.auth.$context;
  const by = actorId(principal);
  try {
    const created = await db.transaction(async (tx) => {
      const tenant = theRow(
        await tx
          .insert(tenants)
          .values({
            tenantId,
            parentTenantId: parent.tenantId,
            name: body.name,
            type: childType(parent.type),
            address: compact(body.address),
            info,
            createdBy: by,
            updatedBy: by,
          })
          .returning(),
      );
      await tx.insert(credentials).values({
        tenantId,
        key,
        secretHash: hashCredentialSecret(serverSecret, secret),
        secretLast4: secret.slice(-4),
        createdBy: by,
        updatedBy: by,
      });
      const subscriptionRows = await tx
        .insert(subscriptions)
        .values(
          codes.map((code) => ({
            tenantId,
            code,
            info: { code, ...SUBSCRIPTION_CATALOGUE[code] },
            createdBy: by,
            updatedBy: by,
          })),
        )
        .returning();
      await writeAudit(tx, actor, {
        tenantId,
        action: 'tenant.create',
        target: `tenant:${tenantId}`,
        details: { parent_tenant_id: parent.tenantId, type: tenant.type, subscriptions: codes },
      });
      await writeAudit(tx, actor, {
        tenantId,
        action: 'credential.create',
        target: `credential:${key}`,
        details: { key },
      });
      return {
        tenant,
        credential: { key, secret },
        subscriptions: subscriptionRows.sort((a, b) => a.code.localeCompare(b.code)),
      };
    });
    principalsChanged(db);
    return created;
  } catch (error) {
    if (isUniqueViolation(error)) throw domainTaken();
    throw error;
  }
}

/**
 * Replaces name, address and info. `is_active` changes only when a parent's administrator (any ancestor's) or a
 * master sends it; deactivating also ends the sessions of the users of the tenant and of all its descendants.
 */
export async function updateTenant(
  ctx: AccountsContext,
  actor: Actor,
  tenantId: string,
  body: UpdateAccountBody,
) {
  const { db } = ctx;
  const { principal } = actor;
  const tenant = await manageableTenant(db, principal, tenantId);
  const isActive = body.is_active ?? tenant.isActive;
  if (isActive !== tenant.isActive) {
    const fromAbove = principal.role === 'master' || tenant.tenantId !== principal.tenantId;
    if (!fromAbove) {
      throw forbidden('Only the parent organisation can activate or deactivate this organisation.');
    }
    if (tenant.type === '1') throw forbidden('The platform organisation cannot be deactivated.');
  }
  const info = compact(body.info);
  await assertDomainFree(db, info.domain, tenant.tenantId);
  try {
    const changed = await db.transaction(async (tx) => {
      const updated = theRow(
        await tx
          .update(tenants)
          .set({
            name: body.name,
            address: compact(body.address),
            info,
            isActive,
            updatedBy: actorId(principal),
            updatedAt: new Date(),
          })
          .where(eq(tenants.tenantId, tenant.tenantId))
          .returning(),
      );
      if (!isActive && tenant.isActive) {
        // The whole subtree stops being usable, so every session in it ends.
        const subtree = [tenant.tenantId, ...(await descendantIds(tx, tenant.tenantId))];
        const members = tx.select({ id: users.id }).from(users).where(inArray(users.tenantId, subtree));
        await tx.delete(authSessions).where(inArray(authSessions.userId, members));
      }
      await writeAudit(tx, actor, {
        tenantId: tenant.tenantId,
        action: 'tenant.update',
        target: `tenant:${tenant.tenantId}`,
        details: isActive === tenant.isActive ? {} : { is_active: isActive },
      });
      return updated;
    });
    principalsChanged(db);
    return changed;
  } catch (error) {
    if (isUniqueViolation(error)) throw domainTaken();
    throw error;
  }
}

/** A tenant's user looked up by e-mail or id, with whether the e-mail is verified. */
export async function findProfile(db: Db, tenantId: string, by: 'email' | 'user_id', value: string) {
  const match = by === 'email' ? eq(users.email, value.toLowerCase()) : eq(users.id, value);
  const [row] = await db
    .select({ user: users, emailVerified: authUsers.emailVerified })
    .from(users)
    .innerJoin(authUsers, eq(authUsers.id, users.id))
    .where(and(eq(users.tenantId, tenantId), match))
    .limit(1);
  return row;
}

export async function findCredential(db: Db, tenantId: string) {
  const [row] = await db.select().from(credentials).where(eq(credentials.tenantId, tenantId)).limit(1);
  return row;
}
