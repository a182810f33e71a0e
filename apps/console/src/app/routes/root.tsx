import '@mantine/notifications/styles.css';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { Outlet } from 'react-router';
import { RouteProgress } from '../../components/layout/route-progress';
import { ScrollToTop } from '../../components/layout/scroll-to-top';
import { SessionProvider } from '../../features/auth/components/session-provider';

/** Toasts close after 5000 ms. */
const TOAST_DELAY_MS = 5000;

/** Root of every route: the top progress bar, toasts, scroll-to-top on route change, and who is signed in. */
export function Component() {
  return (
    <>
      <RouteProgress />
      <ScrollToTop />
      <Notifications autoClose={TOAST_DELAY_MS} />
      <ModalsProvider>
        <SessionProvider>
          <Outlet />
        </SessionProvider>
      </ModalsProvider>
    </>
  );
}
