import { useSearchParams } from 'react-router';
import { SignInForm } from '../../../features/auth/components/sign-in-form';

/** `/` and `/login`; `?verified=1` and `?error=` come from the verification link, `?next=` from the guard. */
export function Component() {
  const [searchParams] = useSearchParams();
  return (
    <SignInForm
      verified={searchParams.get('verified') === '1'}
      verificationError={searchParams.get('error')}
    />
  );
}
