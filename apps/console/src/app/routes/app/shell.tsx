import { Outlet } from 'react-router';
import { AppLayout } from '../../../components/layout/app-layout';

export function Component() {
  return (
    <AppLayout>
      <Outlet />
    </AppLayout>
  );
}
