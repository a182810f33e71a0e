import { createContext, useContext } from 'react';
import type { AuthState } from '../api/get-auth-state';

export interface AuthContextValue {
  state: AuthState;
  /** Checks the session again and runs the start-up flow (after sign-in or a password change). */
  refresh: () => Promise<AuthState>;
  /** Signs out on the server, clears every trace of the user, and leaves the state signed out. */
  signOut: () => Promise<void>;
  /** Forgets the message explaining why the last session ended. */
  dismissNotice: () => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth needs a SessionProvider above it');
  return value;
}
