import { eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import { tenants, type TenantRow } from '../../db/schema';
import { forbidden, notFound } from '../../lib/errors';
import type { Principal } from '../../lib/principal';

export const ACCOUNT_NOT_FOUND = 'Account not found';

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

/** The ids of a tenant's descendants (not the tenant itself). */
export async function descendantIds(db: Db, tenantId: string): Promise<string[]> {
  const result = await db.execute(sql`
    with recursive tree as (
      select tenant_id, 0 as depth from ${tenants} where parent_tenant_id = ${tenantId}
      union all
      select t.tenant_id, tree.depth + 1 from ${tenants} t
        join tree on t.parent_tenant_id = tree.tenant_id where tree.depth < 32
    )
    select tenant_id from tree`);
  return rowsOf<{ tenant_id: string }>(result).map((row) => row.tenant_id);
}

/** The ids of tenant `tenantId` and its ancestors, as a subquery (`x in (...)`) for another module's statement. */
export const selfAndAncestorIdsSql = (tenantId: string) => sql`
    with recursive chain as (
      select tenant_id, parent_tenant_id, 0 as depth from ${tenants} where tenant_id = ${tenantId}
      union all
      select t.tenant_id, t.parent_tenant_id, chain.depth + 1 from ${tenants} t
        join chain on t.tenant_id = chain.parent_tenant_id where chain.depth < 32
    )
    select tenant_id from chain`;

/** Which of `tenantIds` are tenant `tenantId` or one of its descendants. */
export async function idsInSubtree(db: Db, tenantId: string, tenantIds: string[]): Promise<Set<string>> {
  if (tenantIds.length === 0) return new Set();
  const result = await db.execute(sql`
    with recursive tree as (
      select tenant_id, 0 as depth from ${tenants} where tenant_id = ${tenantId}
      union all
      select t.tenant_id, tree.depth + 1 from ${tenants} t
        join tree on t.parent_tenant_id = tree.tenant_id where tree.depth < 32
    )
    select tenant_id from tree
    where tenant_id in (${sql.join(
      tenantIds.map((id) => sql`${id}`),
      sql`, `,
    )})`);
  return new Set(rowsOf<{ tenant_id: string }>(result).map((row) => row.tenant_id));
}

/** Administrators, masters and API credentials may change things; users and agents only read. */
export const canManage = (principal: Principal) =>
  principal.role === 'master' || principal.role === 'administrator';

/**
 * Whether the principal may see tenant `tenantId`: a master sees every tenant, an administrator (or an API
 * credential) its own tenant and its descendants, anybody else only their own tenant.
 */
export async function canReachTenant(db: Db, principal: Principal, tenantId: string): Promise<boolean> {
  if (principal.role === 'master') return true;
  if (principal.tenantId === tenantId) return true;
  if (principal.role !== 'administrator') return false;
  return isSameOrAncestor(db, principal.tenantId, tenantId);
}

async function findTenant(db: Db, tenantId: string) {
  const [row] = await db.select().from(tenants).where(eq(tenants.tenantId, tenantId)).limit(1);
  return row;
}

/** The tenant when the principal may read it; undefined otherwise, so foreign and missing look the same. */
export async function readableTenant(db: Db, principal: Principal, tenantId: string) {
  return (await canReachTenant(db, principal, tenantId)) ? findTenant(db, tenantId) : undefined;
}

/** The tenant a write targets: 404 when the principal cannot see it, 403 when it may see but not change it. */
export async function manageableTenant(
  db: Db,
  principal: Principal,
  tenantId: string,
  missing = ACCOUNT_NOT_FOUND,
): Promise<TenantRow> {
  const tenant = await readableTenant(db, principal, tenantId);
  if (!tenant) throw notFound(missing);
  if (!canManage(principal)) throw forbidden('Only an administrator can change this organisation.');
  return tenant;
}
