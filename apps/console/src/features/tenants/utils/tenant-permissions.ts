import type { Account } from '@omnibot/contracts';

interface Viewer {
  role: string;
  tenantId: string;
}

/** Administrators and masters change an organisation they can reach (the server checks the reach). */
export const canEditTenant = (viewer: Viewer) => viewer.role === 'administrator' || viewer.role === 'master';

/**
 * Activating or deactivating is for the parent's administrators (any organisation above it) or a master, never
 * for the organisation itself, and never for the platform.
 */
export function canChangeTenantStatus(viewer: Viewer, tenant: Account): boolean {
  if (tenant.type === '1') return false;
  if (viewer.role === 'master') return true;
  return viewer.role === 'administrator' && tenant.tenant_id !== viewer.tenantId;
}

/** A platform or a partner with Client Organisations may have children (childType). */
export const mayHaveChildrenOfType = (tenantType: string, holdsSubtenant: boolean) =>
  tenantType === '1' || (tenantType === '2' && holdsSubtenant);
