import { useLocation } from 'react-router';
import { RegisterSuccess } from '../../../features/auth/components/register-success';

/** The registration form hands over the address in the navigation state (a reload forgets it). */
export function Component() {
  const { state } = useLocation() as { state: { email?: unknown } | null };
  return <RegisterSuccess email={typeof state?.email === 'string' ? state.email : null} />;
}
