import type { Subscription } from '@omnibot/contracts';
import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { getSubscriptionList } from '../../../lib/account-api';

/** `['subscriptions', tenantId]` prefixes the single-subscription keys, so one invalidation refreshes both. */
export const subscriptionsQueryKey = (tenantId: string) => ['subscriptions', tenantId] as const;

/** A tenant's subscriptions, every status; none for `{ code: 404 }`. */
export async function getSubscriptions(tenantId: string, signal?: AbortSignal): Promise<Subscription[]> {
  const list = await getSubscriptionList(tenantId, signal);
  return list.code === 200 ? list.items : [];
}

export const getSubscriptionsQueryOptions = (tenantId: string) =>
  queryOptions({
    queryKey: subscriptionsQueryKey(tenantId),
    queryFn: ({ signal }) => getSubscriptions(tenantId, signal),
  });

export const useSubscriptions = (tenantId: string, enabled = true) =>
  useQuery({ ...getSubscriptionsQueryOptions(tenantId), enabled: enabled && tenantId !== '' });

/** The subscriptions of several tenants at once (the assignment matrix). */
export const useSubscriptionsOf = (tenantIds: readonly string[]) =>
  useQueries({ queries: tenantIds.map((tenantId) => getSubscriptionsQueryOptions(tenantId)) });
