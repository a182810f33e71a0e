import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { resilientListener } from '../../db/listener';
import { LIVE_CHANNEL, type LiveNotice, parseNotice } from './live-events';

type Listener = (notice: LiveNotice) => void;

/**
 * What this process hears of live conversations, from every process through the database's notifications. A
 * listener of a conversation or a tenant is told each notice; when the listening connection comes back after a
 * loss, every listener is told a notice without an id, so that it reads again what it may have missed.
 */
export interface LiveBus {
  onConversation(conversationId: string, listener: Listener): () => void;
  onTenant(tenantId: string, listener: Listener): () => void;
}

function addTo(map: Map<string, Set<Listener>>, key: string, listener: Listener) {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) map.delete(key);
  };
}

/** Listens from the app's start to its close, reconnecting with backoff when the connection is lost. */
export function startLiveBus(
  database: Database,
  log: FastifyBaseLogger,
  hooks: { onReady: (run: () => Promise<void>) => void; onClose: (run: () => Promise<void>) => void },
): LiveBus {
  const byConversation = new Map<string, Set<Listener>>();
  const byTenant = new Map<string, Set<Listener>>();
  const dispatch = (notice: LiveNotice) => {
    if (notice.conversationId !== '') {
      for (const listener of byConversation.get(notice.conversationId) ?? []) listener(notice);
    }
    for (const listener of byTenant.get(notice.tenantId) ?? []) listener(notice);
  };
  // Back after a loss: every stream reads again what it may have missed.
  const resync = () => {
    for (const [conversationId, listeners] of byConversation) {
      for (const listener of listeners) listener({ tenantId: '', conversationId });
    }
    for (const [tenantId, listeners] of byTenant) {
      for (const listener of listeners) listener({ tenantId, conversationId: '' });
    }
  };
  const listener = resilientListener(
    database,
    LIVE_CHANNEL,
    {
      onNotify: (payload) => {
        const notice = parseNotice(payload);
        if (notice) dispatch(notice);
      },
      onUp: (recovered) => {
        if (recovered) resync();
      },
      onDown: () => undefined,
    },
    {
      logger: log,
      lost: 'live conversations: lost the database notification listener',
      back: 'live conversations: listening to the database again',
    },
  );
  hooks.onReady(listener.start);
  hooks.onClose(listener.stop);

  return {
    onConversation: (conversationId, listen) => addTo(byConversation, conversationId, listen),
    onTenant: (tenantId, listen) => addTo(byTenant, tenantId, listen),
  };
}
