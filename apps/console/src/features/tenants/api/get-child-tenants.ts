import type { Account } from '@omnibot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getChildAccountList } from '../../../lib/account-api';

export const childTenantsQueryKey = (tenantId: string) => ['tenant-children', tenantId] as const;

/** A tenant's children; none for `{ code: 404 }`. */
export async function getChildTenants(tenantId: string, signal?: AbortSignal): Promise<Account[]> {
  const list = await getChildAccountList(tenantId, signal);
  return list.code === 200 ? list.items : [];
}

export const getChildTenantsQueryOptions = (tenantId: string) =>
  queryOptions({
    queryKey: childTenantsQueryKey(tenantId),
    queryFn: ({ signal }) => getChildTenants(tenantId, signal),
  });

export const useChildTenants = (tenantId: string, enabled = true) =>
  useQuery({ ...getChildTenantsQueryOptions(tenantId), enabled: enabled && tenantId !== '' });
