import { useSearchParams } from 'react-router';
import { ResetPasswordForm } from '../../../features/auth/components/reset-password-form';

/** `/bot/password?token=...` from the reset mail, or `?error=INVALID_TOKEN` when the link was refused. */
export function Component() {
  const [searchParams] = useSearchParams();
  return <ResetPasswordForm token={searchParams.get('token')} linkError={searchParams.get('error')} />;
}
