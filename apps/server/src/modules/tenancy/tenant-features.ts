import { and, type Column, eq, getTableName, gt, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
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
 * features in the same statement. Whoever keeps the answer keeps it only until tenantFeaturesChangeInMsSql's moment
 * or a write to subscriptions (principalsChanged and the database's notification), so a revoked one counts at once.
 */
export function tenantFeaturesSql(tenantId: Column): SQL<string[]> {
  // Always table-qualified: drizzle leaves columns bare in single-table selects, which would bind inside.
  const start = sql`${sql.identifier(getTableName(tenantId.table))}.${sql.identifier(tenantId.name)}`;
  return sql<string[]>`coalesce((
  select array_agg(distinct ${subscriptions.code}) from ${subscriptions}
  where ${subscriptions.tenantId} = ${start} and ${isCurrentSubscriptionSql()}
), '{}'::text[])`;
}

/**
 * Milliseconds from now until one of the tenant's active subscriptions next starts or ends (null when none
 * will), so that whoever keeps tenantFeaturesSql's answer knows when it stops being true without a write.
 */
export function tenantFeaturesChangeInMsSql(tenantId: Column): SQL<number | null> {
  const start = sql`${sql.identifier(getTableName(tenantId.table))}.${sql.identifier(tenantId.name)}`;
  return sql<number | null>`(
  select (extract(epoch from min(moment.at) - now()) * 1000)::float8
  from ${subscriptions} cross join lateral (values (${subscriptions.startsAt}), (${subscriptions.endsAt})) as moment(at)
  where ${subscriptions.tenantId} = ${start} and ${subscriptions.status} = 'active' and moment.at > now()
)`;
}

/** Whether the tenant holds a current subscription with `code` (any code when none is given). */
export async function tenantHoldsFeature(db: Db, tenantId: string, code?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.tenantId, tenantId),
        code === undefined ? undefined : eq(subscriptions.code, code),
        isCurrentSubscriptionSql(),
      ),
    )
    .limit(1);
  return row !== undefined;
}
