import { isCodeItem, ProfileLookupSchema, type Profile } from '@omnibot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { accountApi, accountPath } from '../../../lib/account-api';

export const usersQueryKey = (tenantId: string) => ['users', tenantId] as const;
export const userQueryKey = (tenantId: string, userId: string) =>
  [...usersQueryKey(tenantId), 'detail', userId] as const;

/** GET /v1/Account/{tenant}/User/{userId}?type=user_id: the user, or null when the list's item carries a code. */
export async function getUser(
  tenantId: string,
  userId: string,
  signal?: AbortSignal,
): Promise<Profile | null> {
  const [first] = await accountApi.get(accountPath(tenantId, 'User', userId), {
    query: { type: 'user_id' },
    schema: ProfileLookupSchema,
    signal,
  });
  return first && !isCodeItem(first) ? first : null;
}

export const getUserQueryOptions = (tenantId: string, userId: string) =>
  queryOptions({
    queryKey: userQueryKey(tenantId, userId),
    queryFn: ({ signal }) => getUser(tenantId, userId, signal),
  });

export const useUser = (tenantId: string, userId: string) => useQuery(getUserQueryOptions(tenantId, userId));
