import { UserResultSchema, type Profile, type UpdateUserBody } from '@omnibot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountApi, accountKeys, accountPath } from '../../../lib/account-api';

/** PUT /v1/Account/{tenant_id}/User/{id}: fields left out stay as they are. */
function updateUser(tenantId: string, userId: string, body: UpdateUserBody): Promise<Profile> {
  return accountApi
    .put(accountPath(tenantId, 'User', userId), body, { schema: UserResultSchema })
    .then((result) => result.user);
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tenantId, userId, body }: { tenantId: string; userId: string; body: UpdateUserBody }) =>
      updateUser(tenantId, userId, body),
    onSuccess: async (user) => {
      queryClient.setQueryData(accountKeys.user(user.tenant_id, user.id), user);
      const me = queryClient.getQueryData<Profile>(accountKeys.me());
      if (me?.id === user.id) queryClient.setQueryData(accountKeys.me(), user);
      // Lists are paged on the server: a changed role or name may move the user to another page.
      await queryClient.invalidateQueries({ queryKey: accountKeys.userLists(user.tenant_id) });
    },
  });
}
