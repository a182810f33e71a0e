import type { Account } from '@omnibot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { accountKeys, getChildAccounts } from '../../../lib/account-api';

/** A tenant below the caller's, with the names of the tenants between them (for "Partner › Client"). */
export interface ReachableTenant {
  tenantId: string;
  name: string;
  type: Account['type'];
  isActive: boolean;
  /** Names from the caller's child down to this tenant's parent; empty for a direct child. */
  ancestors: string[];
}

/** Tenant types go 1 > 2 > 3, so nothing lies deeper than two levels below anybody. */
const MAX_DEPTH = 2;

/** Every tenant below `tenantId` the caller may manage, parents before their children. */
export async function getReachableTenants(
  tenantId: string,
  signal?: AbortSignal,
): Promise<ReachableTenant[]> {
  const walk = async (parentId: string, ancestors: string[], depth: number): Promise<ReachableTenant[]> => {
    const children = await getChildAccounts(parentId, signal);
    const branches = await Promise.all(
      children.map(async (child) => {
        const self: ReachableTenant = {
          tenantId: child.tenant_id,
          name: child.name,
          type: child.type,
          isActive: child.is_active,
          ancestors,
        };
        const below =
          depth < MAX_DEPTH ? await walk(child.tenant_id, [...ancestors, child.name], depth + 1) : [];
        return [self, ...below];
      }),
    );
    return branches.flat();
  };
  return walk(tenantId, [], 1);
}

const getReachableTenantsQueryOptions = (tenantId: string) =>
  queryOptions({
    queryKey: accountKeys.reachable(tenantId),
    queryFn: ({ signal }) => getReachableTenants(tenantId, signal),
  });

export const useReachableTenants = (tenantId: string, enabled: boolean) =>
  useQuery({ ...getReachableTenantsQueryOptions(tenantId), enabled });
