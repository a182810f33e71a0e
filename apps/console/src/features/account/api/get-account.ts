import { useQuery } from '@tanstack/react-query';
import { accountQueryOptions } from '../../../lib/account-api';

export const useAccount = (tenantId: string) => useQuery(accountQueryOptions(tenantId));
