import { Outlet } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { RequireSession } from '../../../features/auth/components/require-session';
import { LiveAgentsProvider } from '../../../features/inbox/components/live-agents-provider';

export function Component() {
  return (
    <RequireSession>
      <LiveAgentsProvider>
        <AppLayout>
          <Outlet />
        </AppLayout>
      </LiveAgentsProvider>
    </RequireSession>
  );
}
