import { type Column, getTableName, type SQL, sql } from 'drizzle-orm';

/**
 * The codes of the tenant's current subscriptions (active, now between starts_at and ends_at) as a text array,
 * usable as a column in any select, so that a request that already reads its principal learns the tenant's
 * features in the same statement. Read per request, never cached: a revoked subscription counts at once.
 */
export function tenantFeaturesSql(tenantId: Column): SQL<string[]> {
  // Always table-qualified: drizzle leaves columns bare in single-table selects, which would bind inside.
  const start = sql`${sql.identifier(getTableName(tenantId.table))}.${sql.identifier(tenantId.name)}`;
  return sql<string[]>`coalesce((
  select array_agg(distinct s.code) from subscriptions s
  where s.tenant_id = ${start} and s.status = 'active' and s.starts_at <= now()
    and (s.ends_at is null or s.ends_at > now())
), '{}'::text[])`;
}
