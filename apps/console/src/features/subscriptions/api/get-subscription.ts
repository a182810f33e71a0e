import { SubscriptionLookupSchema, type Subscription } from '@omnibot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { accountApi, accountPath } from '../../../lib/account-api';
import { subscriptionsQueryKey } from './get-subscriptions';

/** GET /v1/Account/{tenant_id}/Subscription/{id}: the subscription, or null for `{ code: 404 }`. */
export async function getSubscription(
  tenantId: string,
  id: string,
  signal?: AbortSignal,
): Promise<Subscription | null> {
  const found = await accountApi.get(accountPath(tenantId, 'Subscription', id), {
    schema: SubscriptionLookupSchema,
    signal,
  });
  return found.code === 200 ? found.subscription : null;
}

export const getSubscriptionQueryOptions = (tenantId: string, id: string) =>
  queryOptions({
    queryKey: [...subscriptionsQueryKey(tenantId), id] as const,
    queryFn: ({ signal }) => getSubscription(tenantId, id, signal),
  });

export const useSubscription = (tenantId: string, id: string) =>
  useQuery({ ...getSubscriptionQueryOptions(tenantId, id), enabled: tenantId !== '' && id !== '' });
