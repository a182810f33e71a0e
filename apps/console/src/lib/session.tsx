import { isMenuRole, type MenuContext, type MenuLevel } from '@omnibot/contracts';
import { createContext, useContext, useMemo } from 'react';

/** The signed-in user as the console sees it (kept under the session storage keys below). */
export interface Session {
  tenantName: string;
  tenantType: string;
  profile: { firstname?: string; lastname?: string; role: string; tenant_id: string };
  features: string[];
  signOut(): Promise<void>;
  /** Loads the start-up data again, so the header and menu show a changed name or organisation. */
  refresh?(): Promise<unknown>;
}

/** The signed-in user once the start-up flow has loaded their tenant; null otherwise (no stand-in user). */
export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session | null {
  return useContext(SessionContext);
}

/**
 * Whether a bot of the signed-in user's organisation hands conversations over to the agent inbox, as the shell
 * last heard it (GET /v1/inbox/summary); undefined until known, which the menu treats as no.
 */
export const LiveAgentsContext = createContext<boolean | undefined>(undefined);

/** Without a session the menu shows the least-privileged view: a level-3 user with no features. */
export const ANONYMOUS_MENU_CONTEXT: MenuContext = { level: '3', role: 'user', features: [] };

const levelOf = (tenantType: string): MenuLevel =>
  tenantType === '1' || tenantType === '2' ? tenantType : '3';

/** The one place that turns a session into visibleMenu's input. */
export function menuContextFor(session: Session | null, liveAgents?: boolean): MenuContext {
  if (!session) return ANONYMOUS_MENU_CONTEXT;
  return {
    level: levelOf(session.tenantType),
    // An unknown role gets the least-privileged view rather than a guess.
    role: isMenuRole(session.profile.role) ? session.profile.role : 'user',
    features: session.features,
    ...(liveAgents === undefined ? {} : { liveAgents }),
  };
}

export function useMenuContext(): MenuContext {
  const session = useSession();
  const liveAgents = useContext(LiveAgentsContext);
  return useMemo(() => menuContextFor(session, liveAgents), [session, liveAgents]);
}

/** Session storage keys, written after a successful start-up flow. */
const SESSION_STORAGE_KEYS = {
  tenantId: 'tenant_id',
  tenantType: 'tenant_type',
  tenantName: 'tenant_name',
  profile: 'profile',
  subscription: 'subscription',
} as const;

interface StoredSession {
  tenantId: string;
  tenantType: string;
  tenantName: string;
  profile: unknown;
  /** The current subscriptions' items (each with info.code). */
  subscriptions: unknown[];
}

export function storeSession(data: StoredSession, storage: Storage = window.sessionStorage): void {
  storage.setItem(SESSION_STORAGE_KEYS.tenantId, data.tenantId);
  storage.setItem(SESSION_STORAGE_KEYS.tenantType, data.tenantType);
  storage.setItem(SESSION_STORAGE_KEYS.tenantName, data.tenantName);
  storage.setItem(SESSION_STORAGE_KEYS.profile, JSON.stringify(data.profile));
  storage.setItem(SESSION_STORAGE_KEYS.subscription, JSON.stringify(data.subscriptions));
}

/** Signed out: nothing of the previous user may stay behind (sign-out clears all of session storage). */
export function clearSessionStorage(storage: Storage = window.sessionStorage): void {
  storage.clear();
}
