import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, type ReactNode } from 'react';
import { clearSessionStorage, SessionContext, type Session } from '../../../lib/session';
import { AUTH_STATE_QUERY_KEY, getAuthStateQueryOptions, type AuthState } from '../api/get-auth-state';
import { signOut as signOutOnServer } from '../api/sign-out';
import { errorMessage } from '../utils/error-message';
import { AuthContext, type AuthContextValue } from './auth-context';
import { SessionLoader } from './auth-frame';

function sessionFrom(
  state: Extract<AuthState, { status: 'signed-in' }>,
  signOut: () => Promise<void>,
  refresh: () => Promise<unknown>,
): Session {
  const { profile, account, features } = state.data;
  return {
    tenantName: account.name,
    tenantType: account.type,
    profile: {
      firstname: profile.info.firstname,
      lastname: profile.info.lastname,
      role: profile.role,
      tenant_id: profile.tenant_id,
    },
    features,
    signOut,
    refresh,
  };
}

/**
 * Knows who is signed in: checks the session on load, runs the start-up flow, and provides
 * SessionContext (the header, the menu) and the auth actions the sign-in screens and route guards use.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { data: state } = useQuery(getAuthStateQueryOptions());

  const setState = useCallback(
    (next: AuthState) => queryClient.setQueryData(AUTH_STATE_QUERY_KEY, next),
    [queryClient],
  );

  const refresh = useCallback(
    () => queryClient.fetchQuery({ ...getAuthStateQueryOptions(), staleTime: 0 }),
    [queryClient],
  );

  const signOut = useCallback(async () => {
    let failure: unknown;
    try {
      await signOutOnServer();
    } catch (error) {
      failure = error;
    }
    clearSessionStorage();
    // Nothing the previous user loaded may be shown to the next one.
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== AUTH_STATE_QUERY_KEY[0] });
    setState({ status: 'signed-out', reason: 'sign-out' });
    if (failure) {
      notifications.show({
        color: 'red',
        title: 'The server did not confirm the sign-out',
        message: `${errorMessage(failure)} Close the browser to be sure the session ends.`,
      });
    }
  }, [queryClient, setState]);

  const dismissNotice = useCallback(() => {
    if (state?.status === 'signed-out' && state.notice) setState({ status: 'signed-out' });
  }, [state, setState]);

  const auth = useMemo<AuthContextValue | null>(
    () => (state ? { state, refresh, signOut, dismissNotice } : null),
    [state, refresh, signOut, dismissNotice],
  );
  const session = useMemo(
    () => (state?.status === 'signed-in' ? sessionFrom(state, signOut, refresh) : null),
    [state, signOut, refresh],
  );

  // Nothing is shown before the first check answers (one quick request): no page flashes the wrong state.
  if (!auth) return <SessionLoader />;

  return (
    <AuthContext value={auth}>
      <SessionContext value={session}>{children}</SessionContext>
    </AuthContext>
  );
}
