import { SubscriptionResultSchema, type Subscription, type UpdateSubscriptionBody } from '@omnibot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountApi, accountKeys, accountPath } from '../../../lib/account-api';

/** PUT /v1/Account/{tenant_id}/Subscription/{id}: status and period (revoking cascades to descendants). */
export async function updateSubscription(
  subscription: Subscription,
  changes: Pick<UpdateSubscriptionBody, 'status' | 'starts_at' | 'ends_at'>,
): Promise<Subscription> {
  const body: UpdateSubscriptionBody = {
    status: changes.status,
    ...(changes.starts_at !== undefined ? { starts_at: changes.starts_at } : {}),
    ...(changes.ends_at !== undefined ? { ends_at: changes.ends_at } : {}),
  };
  const result = await accountApi.put(
    accountPath(subscription.tenant_id, 'Subscription', subscription.id),
    body,
    { schema: SubscriptionResultSchema },
  );
  return result.subscription;
}

export function useUpdateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      subscription,
      changes,
    }: {
      subscription: Subscription;
      changes: Pick<UpdateSubscriptionBody, 'status' | 'starts_at' | 'ends_at'>;
    }) => updateSubscription(subscription, changes),
    // A revocation also revokes the code below the tenant: every subscription list may have changed.
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.subscriptionLists() }),
  });
}
