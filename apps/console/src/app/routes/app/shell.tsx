import { Outlet } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';
import { RequireSession } from '../../../features/auth/components/require-session';

export function Component() {
  return (
    <RequireSession>
      <AppLayout>
        <Outlet />
      </AppLayout>
    </RequireSession>
  );
}
