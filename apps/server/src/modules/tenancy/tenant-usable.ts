import { type Column, getTableName, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';

/**
 * True when the tenant and every ancestor are active; false for a missing tenant. One indexed recursive
 * lookup up the parent chain (primary key per step), usable as a column in any select so that a request that
 * already reads the tenant pays no extra round trip.
 */
export function tenantUsableSql(tenantId: Column | string): SQL<boolean> {
  // Always table-qualified: drizzle leaves columns bare in single-table selects, which would bind inside.
  const start =
    typeof tenantId === 'string'
      ? sql`${tenantId}`
      : sql`${sql.identifier(getTableName(tenantId.table))}.${sql.identifier(tenantId.name)}`;
  return sql<boolean>`(
  with recursive chain as (
    select t.parent_tenant_id, t.is_active, 0 as depth from tenants t where t.tenant_id = ${start}
    union all
    select p.parent_tenant_id, p.is_active, chain.depth + 1 from tenants p
      join chain on p.tenant_id = chain.parent_tenant_id where chain.depth < 32
  )
  select coalesce(bool_and(chain.is_active), false) from chain
)`;
}

/** A tenant is usable only when it and every ancestor are active. */
export async function isTenantUsable(db: Db, tenantId: string): Promise<boolean> {
  const result = await db.execute(sql`select ${tenantUsableSql(tenantId)} as usable`);
  return rowsOf<{ usable: boolean }>(result)[0]?.usable === true;
}
