import { Outlet } from 'react-router';
import { AuthFrame } from '../../../features/auth/components/auth-frame';

/** Layout of the signed-out pages: outside the shell, on a simple centred card. */
export function Component() {
  return (
    <AuthFrame>
      <Outlet />
    </AuthFrame>
  );
}
