import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { LIVE_CHANNEL, type LiveNotice, parseNotice } from './live-events';

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

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
  hooks: { onReady(run: () => Promise<void>): void; onClose(run: () => Promise<void>): void },
): LiveBus {
  const byConversation = new Map<string, Set<Listener>>();
  const byTenant = new Map<string, Set<Listener>>();
  let stopped = false;
  let unlisten: (() => Promise<void>) | null = null;
  let retry: NodeJS.Timeout | null = null;
  let failures = 0;

  const dispatch = (notice: LiveNotice) => {
    if (notice.conversationId !== '') {
      for (const listener of byConversation.get(notice.conversationId) ?? []) listener(notice);
    }
    for (const listener of byTenant.get(notice.tenantId) ?? []) listener(notice);
  };
  const resync = () => {
    for (const [conversationId, listeners] of byConversation) {
      for (const listener of listeners) listener({ tenantId: '', conversationId });
    }
    for (const [tenantId, listeners] of byTenant) {
      for (const listener of listeners) listener({ tenantId, conversationId: '' });
    }
  };
  const down = (error: unknown) => {
    if (stopped) return;
    if (failures === 0)
      log.warn({ err: error }, 'live conversations: lost the database notification listener');
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** failures);
    failures += 1;
    retry = setTimeout(() => void connect(), delay);
    retry.unref();
  };
  const connect = async () => {
    retry = null;
    try {
      const stop = await database.listen(
        LIVE_CHANNEL,
        (payload) => {
          const notice = parseNotice(payload);
          if (notice) dispatch(notice);
        },
        () => {
          unlisten = null;
          down(new Error('listener connection ended'));
        },
      );
      if (stopped) {
        await stop();
        return;
      }
      unlisten = stop;
      if (failures > 0) {
        log.info('live conversations: listening to the database again');
        resync();
      }
      failures = 0;
    } catch (error) {
      down(error);
    }
  };
  hooks.onReady(connect);
  hooks.onClose(async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await unlisten?.();
  });

  return {
    onConversation: (conversationId, listener) => addTo(byConversation, conversationId, listener),
    onTenant: (tenantId, listener) => addTo(byTenant, tenantId, listener),
  };
}
