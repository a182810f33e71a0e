import { useReachableTenants } from '../api/get-reachable-tenants';

interface TargetTenant {
  tenantId: string;
  name: string;
  type: string;
}

/**
 * The organisation `tenantId` with its name and type: the caller's own, or one found among the reachable client
 * organisations. `isMissing` when the list does not hold it (unknown, or beyond the caller's reach).
 */
export function useTargetTenant(own: TargetTenant, tenantId: string, enabled: boolean) {
  const isOwn = tenantId === own.tenantId;
  const reachable = useReachableTenants(own.tenantId, enabled && !isOwn);
  if (isOwn)
    return { tenant: own, isPending: false, isMissing: false, error: null, refetch: reachable.refetch };
  const found = reachable.data?.find((tenant) => tenant.tenantId === tenantId);
  return {
    tenant: found ? { tenantId: found.tenantId, name: found.name, type: found.type } : undefined,
    isPending: reachable.isPending,
    isMissing: reachable.isSuccess && !found,
    error: reachable.error,
    refetch: reachable.refetch,
  };
}
