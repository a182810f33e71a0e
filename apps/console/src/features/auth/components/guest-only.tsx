import type { ReactNode } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths';
import { safeNextPath } from '../utils/next-path';
import { useAuth } from './auth-context';

/** Around the sign-in page: someone already signed in goes on to `?next=` or the console's landing page. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  const [searchParams] = useSearchParams();
  if (state.status !== 'signed-out') {
    return <Navigate to={safeNextPath(searchParams.get('next')) ?? paths.afterSignIn} replace />;
  }
  return children;
}
