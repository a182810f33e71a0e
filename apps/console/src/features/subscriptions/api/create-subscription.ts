import { SubscriptionResultSchema, type CreateSubscriptionBody, type Subscription } from '@omnibot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountApi, accountKeys, accountPath } from '../../../lib/account-api';

/** POST /v1/Account/{tenant_id}/Subscription: a parent gives a child a code it holds. */
export async function createSubscription(
  tenantId: string,
  body: CreateSubscriptionBody,
): Promise<Subscription> {
  const result = await accountApi.post(accountPath(tenantId, 'Subscription'), body, {
    schema: SubscriptionResultSchema,
  });
  return result.subscription;
}

export function useCreateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tenantId, body }: { tenantId: string; body: CreateSubscriptionBody }) =>
      createSubscription(tenantId, body),
    onSettled: (_data, _error, { tenantId }) =>
      queryClient.invalidateQueries({ queryKey: accountKeys.subscriptions(tenantId) }),
  });
}
