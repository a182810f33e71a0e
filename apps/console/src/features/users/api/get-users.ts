import { UserListSchema, type UserListQuery } from '@omnibot/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { accountApi, accountPath } from '../../../lib/account-api';
import { usersQueryKey } from './get-user';

/** One page of a tenant's users, searched and sorted on the server. */
export const getUsers = (tenantId: string, query: UserListQuery, signal?: AbortSignal) =>
  accountApi.get(accountPath(tenantId, 'User'), {
    query: { ...query, q: query.q || undefined },
    schema: UserListSchema,
    signal,
  });

export const getUsersQueryOptions = (tenantId: string, query: UserListQuery) =>
  queryOptions({
    queryKey: [...usersQueryKey(tenantId), 'list', query] as const,
    queryFn: ({ signal }) => getUsers(tenantId, query, signal),
    // The table keeps the current page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

export const useUsers = (tenantId: string, query: UserListQuery) =>
  useQuery(getUsersQueryOptions(tenantId, query));
