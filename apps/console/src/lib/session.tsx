import { isMenuRole, type MenuContext, type MenuLevel } from '@omnibot/contracts';
import { createContext, useContext, useMemo } from 'react';

/** The signed-in user as the console sees it (spec section 3, session storage keys). */
export interface Session {
  tenantName: string;
  tenantType: string;
  profile: { firstname?: string; lastname?: string; role: string; tenant_id: string };
  features: string[];
  signOut(): Promise<void>;
}

/** Null until sign-in exists (next issue); there is deliberately no stand-in user. */
export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session | null {
  return useContext(SessionContext);
}

/** Without a session the menu shows the least-privileged view: a level-3 user with no features. */
export const ANONYMOUS_MENU_CONTEXT: MenuContext = { level: '3', role: 'user', features: [] };

const levelOf = (tenantType: string): MenuLevel =>
  tenantType === '1' || tenantType === '2' ? tenantType : '3';

/** The one place that turns a session into visibleMenu's input. */
export function menuContextFor(session: Session | null): MenuContext {
  if (!session) return ANONYMOUS_MENU_CONTEXT;
  return {
    level: levelOf(session.tenantType),
    // An unknown role gets the least-privileged view rather than a guess.
    role: isMenuRole(session.profile.role) ? session.profile.role : 'user',
    features: session.features,
  };
}

export function useMenuContext(): MenuContext {
  const session = useSession();
  return useMemo(() => menuContextFor(session), [session]);
}
