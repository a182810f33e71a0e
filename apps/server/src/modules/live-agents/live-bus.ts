import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../db/client';
import { resilientListener } from '../../db/listener';
import {
  EVENTS_PER_READ,
  eventsAfter,
  LIVE_CHANNEL,
  type LiveNotice,
  type NoticeEvent,
  parseNotice,
} from './live-events';

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

/** Stored events are read again this often even without a notice (a repair; each stream starts at its own moment). */
export const REPAIR_MS = 5_000;

/** What a follower hands its stream, in order. */
export interface FollowerEvents {
  /** A stored event of the conversation: each once, in the order of their ids, only after the start id. */
  onEvent: (event: NoticeEvent) => void;
  /** A notice of the conversation that stores nothing (typing), in its place among the events. */
  onNotice?: (notice: LiveNotice) => void;
  /** A read failed: the stream should end (its client resumes from the last id it has). */
  onError: (error: unknown) => void;
}

export interface Follower {
  /** The id of the last event handed on. */
  readonly lastId: number;
  /** Runs `work` after what is already due, before anything that comes later (so what it writes keeps its place). */
  queue(work: () => Promise<void>): void;
  stop(): void;
}

/**
 * Follows one conversation's stored events from `after` for a stream: subscribed before the first read, so nothing
 * committed after that read can pass unheard. Notices are handled one at a time in the order they came: one whose
 * events follow on from the last id handed on (its `previousId` is not past it) is handed on as it is, without a read;
 * one that leaves a gap (a notice missed, or events too big to carry) marks a read, and a read in flight is followed
 * by another when a notice came meanwhile. The notices that arrived during a read are handled after it against the
 * new last id, so no event is handed on twice. A read every REPAIR_MS and after the listener came back repairs what
 * never came. One code path for PGlite and PostgreSQL.
 */
export function followConversation(
  db: Db,
  bus: LiveBus,
  conversation: { tenantId: string; id: string },
  after: number,
  events: FollowerEvents,
): Follower {
  let lastId = after;
  let readDue = true;
  let running = false;
  let stopped = false;
  const pending: LiveNotice[] = [];
  const work: (() => Promise<void>)[] = [];

  const handOn = (event: NoticeEvent) => {
    if (event.id <= lastId) return;
    lastId = event.id;
    events.onEvent(event);
  };
  const take = (notice: LiveNotice) => {
    if (notice.lastId === undefined) {
      // Typing says nothing stored; a notice without ids is the listener back after a loss.
      if (notice.typing) events.onNotice?.(notice);
      else readDue = true;
      return;
    }
    if (notice.lastId <= lastId) return;
    if (notice.events && notice.previousId !== undefined && notice.previousId <= lastId) {
      for (const event of notice.events) handOn(event);
      return;
    }
    readDue = true;
  };
  const pump = async () => {
    running = true;
    try {
      while (!stopped) {
        const notice = pending.shift();
        if (notice) {
          take(notice);
          continue;
        }
        if (readDue) {
          readDue = false;
          const rows = await eventsAfter(db, conversation, lastId);
          for (const row of rows) {
            if (stopped) return;
            handOn({ id: row.id, type: row.type, data: row.data });
          }
          // A client far behind reads on from where this read ended.
          if (rows.length === EVENTS_PER_READ) readDue = true;
          continue;
        }
        const next = work.shift();
        if (!next) break;
        await next();
      }
    } catch (error) {
      stopped = true;
      events.onError(error);
    } finally {
      running = false;
    }
  };
  const kick = () => {
    if (!running && !stopped) void pump();
  };

  const unsubscribe = bus.onConversation(conversation.id, (notice) => {
    if (stopped) return;
    pending.push(notice);
    kick();
  });
  // Each stream repairs on its own phase, so streams opened together do not all read at once.
  let repair: NodeJS.Timeout | null = null;
  const firstRepair = setTimeout(
    () => {
      repair = setInterval(() => {
        readDue = true;
        kick();
      }, REPAIR_MS);
      readDue = true;
      kick();
    },
    Math.floor(REPAIR_MS * (0.5 + Math.random())),
  );
  kick();

  return {
    get lastId() {
      return lastId;
    },
    queue(next) {
      if (stopped) return;
      work.push(next);
      kick();
    },
    stop() {
      stopped = true;
      clearTimeout(firstRepair);
      if (repair) clearInterval(repair);
      unsubscribe();
    },
  };
}
