import type { Account } from '@omnibot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getChildAccountList } from '../../../lib/account-api';

/** The key (and value) the Client Org. screens use for a tenant's children. */
export const childOrganisationsQueryKey = (tenantId: string) => ['tenant-children', tenantId] as const;

/** The organisations directly below `tenantId`; none for `{ code: 404 }`. */
export async function getChildOrganisations(tenantId: string, signal?: AbortSignal): Promise<Account[]> {
  const list = await getChildAccountList(tenantId, signal);
  return list.code === 200 ? list.items : [];
}

export const useChildOrganisations = (tenantId: string, enabled = true) =>
  useQuery({
    ...queryOptions({
      queryKey: childOrganisationsQueryKey(tenantId),
      queryFn: ({ signal }) => getChildOrganisations(tenantId, signal),
    }),
    enabled: enabled && tenantId !== '',
  });
