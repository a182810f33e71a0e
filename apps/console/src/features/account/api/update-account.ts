import { AccountResultSchema, type Account, type UpdateAccountBody } from '@omnibot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountApi, accountKeys, accountPath } from '../../../lib/account-api';

type AccountChanges = Pick<UpdateAccountBody, 'name' | 'address' | 'info'>;

/**
 * PUT /v1/Account/{tenant_id} takes the full account object: the account as read, with the
 * edited name, address and info. The server ignores the identity fields it echoes.
 */
function updateAccount(account: Account, changes: AccountChanges): Promise<Account> {
  const body: UpdateAccountBody = { ...account, ...changes };
  return accountApi
    .put(accountPath(account.tenant_id), body, { schema: AccountResultSchema })
    .then((result) => result.account);
}

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ account, changes }: { account: Account; changes: AccountChanges }) =>
      updateAccount(account, changes),
    onSuccess: (account) => queryClient.setQueryData(accountKeys.detail(account.tenant_id), account),
  });
}
