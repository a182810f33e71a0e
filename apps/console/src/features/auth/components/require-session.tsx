import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '../../../config/paths';
import { loginPathFor } from '../utils/next-path';
import { useAuth } from './auth-context';
import { AuthFrame } from './auth-frame';
import { PasswordChangeStep } from './password-change-step';

/**
 * Guards the console: a signed-out visitor goes to /login (with `?next=` the page asked for), a user with a
 * one-time password must choose a new one first, and only a finished start-up flow shows `children`.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  const { pathname, search, hash } = useLocation();
  if (state.status === 'signed-out') {
    const to =
      state.reason === 'sign-out' ? paths.login : loginPathFor(`${pathname}${search}${hash}`, paths.login);
    return <Navigate to={to} replace />;
  }
  if (state.status === 'password-change') {
    return (
      <AuthFrame>
        <PasswordChangeStep user={state.user} />
      </AuthFrame>
    );
  }
  return children;
}
