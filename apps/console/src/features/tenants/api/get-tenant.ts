import { isCodeItem, type Account } from '@omnibot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getAccountLookup } from '../../../lib/account-api';

/** The same key (and value) as every other screen's account read, so a change shows everywhere. */
export const tenantQueryKey = (tenantId: string) => ['account', tenantId] as const;

/** GET /v1/Account/{tenant_id}: the first item, or null when it carries a code (not found or not visible). */
export async function getTenant(tenantId: string, signal?: AbortSignal): Promise<Account | null> {
  const [first] = await getAccountLookup(tenantId, signal);
  return first && !isCodeItem(first) ? first : null;
}

export const getTenantQueryOptions = (tenantId: string) =>
  queryOptions({
    queryKey: tenantQueryKey(tenantId),
    queryFn: ({ signal }) => getTenant(tenantId, signal),
  });

export const useTenant = (tenantId: string, enabled = true) =>
  useQuery({ ...getTenantQueryOptions(tenantId), enabled: enabled && tenantId !== '' });
