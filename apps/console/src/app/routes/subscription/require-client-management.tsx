import type { ReactNode } from 'react';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { paths } from '../../../config/paths';

/**
 * Passing subscriptions on to client organisations needs both menu entries: Subscription (administrators and
 * masters) and Client Org. (organisations that may have clients).
 */
export function RequireClientManagement({ children }: { children: ReactNode }) {
  return (
    <RequireMenuRoute route={paths.subscription.list}>
      <RequireMenuRoute route={paths.tenant.list}>{children}</RequireMenuRoute>
    </RequireMenuRoute>
  );
}
