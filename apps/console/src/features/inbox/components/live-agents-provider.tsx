import type { ReactNode } from 'react';
import { LiveAgentsContext } from '../../../lib/session';
import { useInboxSummary } from '../api/inbox-api';

/**
 * Tells the menu whether the signed-in user's organisation has live agents (the Inbox entry), from the inbox
 * summary; unknown while it loads or when it fails, which hides the entry.
 */
export function LiveAgentsProvider({ children }: { children: ReactNode }) {
  const summary = useInboxSummary();
  return <LiveAgentsContext value={summary.data?.live_agents}>{children}</LiveAgentsContext>;
}
