import { Outlet } from 'react-router';
import { AuthFrame } from '../../../features/auth/components/auth-frame';
import { GuestOnly } from '../../../features/auth/components/guest-only';

/** Layout of `/` and `/login`: a signed-in visitor is sent on before any of the page is drawn. */
export function Component() {
  return (
    <GuestOnly>
      <AuthFrame>
        <Outlet />
      </AuthFrame>
    </GuestOnly>
  );
}
