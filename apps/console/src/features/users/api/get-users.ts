import type { UserListQuery } from '@omnibot/contracts';
import { useQuery } from '@tanstack/react-query';
import { usersQueryOptions } from '../../../lib/account-api';

export const useUsers = (tenantId: string, query: UserListQuery) =>
  useQuery(usersQueryOptions(tenantId, query));
