import { isCodeItem, type Account } from '@omnibot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getAccountLookup } from '../../../lib/account-api';

export const accountQueryKey = (tenantId: string) => ['account', tenantId] as const;

/** GET /v1/Account/{tenant_id}: the first item of the list, or null when it carries a code (not found). */
export async function getAccount(tenantId: string, signal?: AbortSignal): Promise<Account | null> {
  const [first] = await getAccountLookup(tenantId, signal);
  return first && !isCodeItem(first) ? first : null;
}

export const getAccountQueryOptions = (tenantId: string) =>
  queryOptions({
    queryKey: accountQueryKey(tenantId),
    queryFn: ({ signal }) => getAccount(tenantId, signal),
  });

export const useAccount = (tenantId: string) => useQuery(getAccountQueryOptions(tenantId));
