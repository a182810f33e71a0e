import type { Account } from '@omnibot/contracts';
import { useMemo } from 'react';
import { useChildTenants } from '../../../features/tenants/api/get-child-tenants';
import { useTenant } from '../../../features/tenants/api/get-tenant';

/**
 * The organisations the subscription screens offer: the caller's children, plus `extraTenantId` when a link
 * names one deeper down (a master, or a partner's parent, acting on a grandchild).
 */
export function useOrganisations(ownTenantId: string, extraTenantId: string) {
  const children = useChildTenants(ownTenantId);
  const isChild = children.data?.some((item) => item.tenant_id === extraTenantId) ?? false;
  const needsExtra = extraTenantId !== '' && extraTenantId !== ownTenantId && children.isSuccess && !isChild;
  const extra = useTenant(extraTenantId, needsExtra);
  const organisations = useMemo<Account[] | undefined>(() => {
    if (!children.data) return undefined;
    return needsExtra && extra.data ? [...children.data, extra.data] : children.data;
  }, [children.data, needsExtra, extra.data]);
  return {
    organisations,
    isPending: children.isPending || (needsExtra && extra.isPending),
    error: children.error ?? extra.error,
    refetch: () => (needsExtra ? Promise.all([children.refetch(), extra.refetch()]) : children.refetch()),
  };
}
