import { useQuery } from '@tanstack/react-query';
import { userQueryOptions } from '../../../lib/account-api';

export const useUser = (tenantId: string, userId: string) => useQuery(userQueryOptions(tenantId, userId));
