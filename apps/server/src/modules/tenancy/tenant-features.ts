import { and, type Column, eq, getTableName, gt, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import { subscriptions } from '../../db/schema';

/** A subscription counts while it is active and now lies between starts_at and ends_at. */
export const isCurrentSubscriptionSql = () =>
  and(
    eq(subscriptions.status, 'active'),
    lte(subscriptions.startsAt, sql`now()`),
    or(isNull(subscriptions.endsAt), gt(subscriptions.endsAt, sql`now()`)),
  );

/**
 * The codes of the tenant's current subscriptions (isCurrentSubscriptionSql) as a text array,
 * usable as a column in any select, so that a request that already reads its principal learns the tenant's
 * features in the same statement. Read per request, never cached: a revoked subscription counts at once.
 */
export function tenantFeaturesSql(tenantId: Column): SQL<string[]> {
  // Always table-qualified: drizzle leaves columns bare in single-table selects, which would bind inside.
  const start = sql`${sql.identifier(getTableName(tenantId.table))}.${sql.identifier(tenantId.name)}`;
  return sql<string[]>`coalesce((
  select array_agg(distinct ${subscriptions.code}) from ${subscriptions}
  where ${subscriptions.tenantId} = ${start} and ${isCurrentSubscriptionSql()}
), '{}'::text[])`;
}
