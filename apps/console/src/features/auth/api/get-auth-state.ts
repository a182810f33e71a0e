import { queryOptions } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { clearSessionStorage, storeSession } from '../../../lib/session';
import type { SessionUser } from '@omnibot/contracts';
import { getSessionUser } from './get-session-user';
import { signOut } from './sign-out';
import {
  accountServiceFetchers,
  runStartUpFlow,
  type StartUpData,
  type StartUpFetchers,
} from './start-up-flow';

export type AuthState =
  /** `notice` says why a session ended; `reason: 'sign-out'` marks a deliberate LOGOUT. */
  | { status: 'signed-out'; notice?: string; reason?: 'sign-out' }
  /** Signed in with a one-time password: nothing else works until a new one is chosen. */
  | { status: 'password-change'; user: SessionUser }
  | { status: 'signed-in'; user: SessionUser; data: StartUpData };

export interface AuthStateDeps {
  getSessionUser(): Promise<SessionUser | null>;
  signOut(): Promise<unknown>;
  fetchers: StartUpFetchers;
  storage: Storage;
}

const defaultDeps = (): AuthStateDeps => ({
  getSessionUser,
  signOut,
  fetchers: accountServiceFetchers,
  storage: window.sessionStorage,
});

/** Why a session check failed: a 403 (disabled user, no profile) speaks for itself; anything else is explained. */
function sessionCheckNotice(error: unknown): string {
  if (error instanceof ApiError && error.status === 403) return error.message;
  const detail = error instanceof Error ? ` ${error.message}` : '';
  return `Your sign-in could not be checked.${detail}`;
}

/** Ends the server session (best effort: the user is signed out here either way) and clears what was stored. */
async function endSession(deps: AuthStateDeps, notice: string): Promise<AuthState> {
  await deps.signOut().catch(() => undefined);
  clearSessionStorage(deps.storage);
  return { status: 'signed-out', notice };
}

/**
 * The console's sign-in state: who is signed in (GET /v1/session) and, for a signed-in user, the start-up flow's
 * data, stored in session storage. A failing start-up flow signs the user out with a message saying what could
 * not be loaded. Never throws.
 */
export async function getAuthState(deps: AuthStateDeps = defaultDeps()): Promise<AuthState> {
  let user: SessionUser | null;
  try {
    user = await deps.getSessionUser();
  } catch (error) {
    return endSession(deps, sessionCheckNotice(error));
  }
  if (!user) {
    clearSessionStorage(deps.storage);
    return { status: 'signed-out' };
  }
  if (user.must_change_password) {
    clearSessionStorage(deps.storage);
    return { status: 'password-change', user };
  }
  const result = await runStartUpFlow(user, deps.fetchers);
  if (!result.ok) return endSession(deps, result.message);
  const { profile, account, subscriptions } = result.data;
  storeSession(
    {
      tenantId: account.tenant_id,
      tenantType: account.type,
      tenantName: account.name,
      profile,
      subscriptions,
    },
    deps.storage,
  );
  return { status: 'signed-in', user, data: result.data };
}

export const AUTH_STATE_QUERY_KEY = ['auth', 'state'] as const;

/** Checked once per page load; sign-in and the password change refresh it, sign-out replaces it. */
export const getAuthStateQueryOptions = () =>
  queryOptions({
    queryKey: AUTH_STATE_QUERY_KEY,
    queryFn: () => getAuthState(),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
