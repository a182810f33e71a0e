import { AccountResultSchema, type Account, type UpdateAccountBody } from '@omnibot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountApi, accountKeys, accountPath } from '../../../lib/account-api';

/** PUT /v1/Account/{tenant_id}: the full object (name, address, info; is_active only from above). */
async function updateTenant(tenantId: string, body: UpdateAccountBody): Promise<Account> {
  const result = await accountApi.put(accountPath(tenantId), body, { schema: AccountResultSchema });
  return result.account;
}

export function useUpdateTenant(tenantId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateAccountBody) => updateTenant(tenantId, body),
    onSuccess: (account) => {
      queryClient.setQueryData(accountKeys.detail(tenantId), account);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: accountKeys.childLists() }),
        queryClient.invalidateQueries({ queryKey: accountKeys.recordLists() }),
      ]);
    },
  });
}
