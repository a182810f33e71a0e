import { UserResultSchema, type CreateUserBody, type Profile } from '@omnibot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountApi, accountKeys, accountPath } from '../../../lib/account-api';

/** POST /v1/Account/{tenant_id}/User: creates the user and mails them an invitation with a set-password link. */
function createUser(tenantId: string, body: CreateUserBody): Promise<Profile> {
  return accountApi
    .post(accountPath(tenantId, 'User'), body, { schema: UserResultSchema })
    .then((result) => result.user);
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tenantId, body }: { tenantId: string; body: CreateUserBody }) =>
      createUser(tenantId, body),
    onSuccess: (user) => queryClient.invalidateQueries({ queryKey: accountKeys.userLists(user.tenant_id) }),
  });
}
