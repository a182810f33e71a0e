import type { Subscription } from '@omnibot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getSubscriptionList } from '../../../lib/account-api';

/** Shared with the subscription screens' key, so assigning a code refreshes what this screen shows. */
export const tenantSubscriptionsQueryKey = (tenantId: string) => ['subscriptions', tenantId] as const;

/** A tenant's subscriptions (every status); none for `{ code: 404 }`. */
export async function getTenantSubscriptions(
  tenantId: string,
  signal?: AbortSignal,
): Promise<Subscription[]> {
  const list = await getSubscriptionList(tenantId, signal);
  return list.code === 200 ? list.items : [];
}

export const useTenantSubscriptions = (tenantId: string, enabled = true) =>
  useQuery({
    ...queryOptions({
      queryKey: tenantSubscriptionsQueryKey(tenantId),
      queryFn: ({ signal }) => getTenantSubscriptions(tenantId, signal),
    }),
    enabled: enabled && tenantId !== '',
  });
