import type { ReactNode } from 'react';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { paths } from '../../../config/paths';
import { useSession } from '../../../lib/session';

/**
 * Passing subscriptions on to client organisations needs both menu entries: Subscription (administrators and
 * masters) and Client Org. (organisations that may have clients). The page gets the signed-in tenant's id.
 */
export function RequireClientManagement({ children }: { children: (ownTenantId: string) => ReactNode }) {
  const session = useSession();
  return (
    <RequireMenuRoute route={paths.subscription.list}>
      <RequireMenuRoute route={paths.tenant.list}>
        {session && children(session.profile.tenant_id)}
      </RequireMenuRoute>
    </RequireMenuRoute>
  );
}
