import { and, asc, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import { authUsers, credentials, subscriptions, tenants, users } from '../../db/schema';
import type { Principal } from '../../plugins/principal';

/** True when `ancestorId` is `tenantId` itself or one of its ancestors. */
export async function isSameOrAncestor(db: Db, ancestorId: string, tenantId: string): Promise<boolean> {
  const result = await db.execute(sql`
    with recursive chain as (
      select tenant_id, parent_tenant_id, 0 as depth from ${tenants} where tenant_id = ${tenantId}
      union all
      select t.tenant_id, t.parent_tenant_id, chain.depth + 1 from ${tenants} t
        join chain on t.tenant_id = chain.parent_tenant_id where chain.depth < 32
    )
    select 1 as found from chain where tenant_id = ${ancestorId} limit 1`);
  return rowsOf(result).length > 0;
}

/**
 * Whether the principal may see tenant `tenantId`: a master sees every tenant, an administrator its own tenant
 * and its descendants, anybody else only their own tenant.
 */
export async function canReachTenant(db: Db, principal: Principal, tenantId: string): Promise<boolean> {
  if (principal.role === 'master') return true;
  if (principal.tenantId === tenantId) return true;
  if (principal.role !== 'administrator') return false;
  return isSameOrAncestor(db, principal.tenantId, tenantId);
}

export async function findTenant(db: Db, tenantId: string) {
  const [row] = await db.select().from(tenants).where(eq(tenants.tenantId, tenantId)).limit(1);
  return row;
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

export async function listSubscriptions(db: Db, tenantId: string) {
  return db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.tenantId, tenantId))
    .orderBy(asc(subscriptions.code));
}
