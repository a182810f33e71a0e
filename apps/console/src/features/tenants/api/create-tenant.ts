import { AccountCreatedSchema, type AccountCreated, type CreateAccountBody } from '@omnibot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountApi, accountKeys, accountPath } from '../../../lib/account-api';

/** POST /v1/Account(?tenant_id=parent): the child, its credential (secret in full, once) and subscriptions. */
const createTenant = (parentId: string, body: CreateAccountBody): Promise<AccountCreated> =>
  accountApi.post(accountPath(), body, { query: { tenant_id: parentId }, schema: AccountCreatedSchema });

export function useCreateTenant(parentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAccountBody) => createTenant(parentId, body),
    // The answer holds the secret: no cache keeps it once the screen lets go.
    gcTime: 0,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.children(parentId) }),
        queryClient.invalidateQueries({ queryKey: accountKeys.recordLists() }),
      ]),
  });
}
