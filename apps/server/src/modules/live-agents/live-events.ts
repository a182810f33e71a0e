import type { ConversationState, LiveMessage } from '@omnibot/contracts';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type ConversationEventRow, conversationEvents } from '../../db/schema';

/** The channel every server process listens on for what happens in live conversations. */
export const LIVE_CHANNEL = 'omnibot_live';
/** The most events one read returns; a client further behind reads again from the last one. */
const EVENTS_PER_READ = 500;

/**
 * What a notification says: which conversation of which tenant, the newest stored event id (a reader reads from its
 * own last id up to there), its state when it changed, or someone typing (typing is not stored).
 */
export interface LiveNotice {
  tenantId: string;
  conversationId: string;
  lastId?: number;
  state?: ConversationState;
  typing?: { role: 'agent' | 'visitor'; name: string | null };
  /** The tenant's queue moved (one left it): waiting visitors learn their new place. No conversation named. */
  queue?: true;
  /** A case summary of the conversation was written: the inbox shows it. */
  summary?: true;
}

/** Anything that runs statements: the database or a transaction. */
type Executor = Pick<Db, 'insert' | 'execute'>;

export type StoredEvent =
  | { type: 'message'; data: LiveMessage }
  | {
      type: 'status';
      data: { state: ConversationState; position: number | null; agent: { name: string } | null };
    }
  | { type: 'ended'; data: { reason: string } };

const noticeText = (notice: LiveNotice) =>
  JSON.stringify({
    t: notice.tenantId,
    c: notice.conversationId,
    ...(notice.lastId === undefined ? {} : { i: notice.lastId }),
    ...(notice.state === undefined ? {} : { s: notice.state }),
    ...(notice.typing === undefined ? {} : { y: notice.typing }),
    ...(notice.queue ? { q: 1 } : {}),
    ...(notice.summary ? { m: 1 } : {}),
  });

/** A notification's payload read back; null for anything that is not one of ours. */
export function parseNotice(payload: string): LiveNotice | null {
  try {
    const value = JSON.parse(payload) as Record<string, unknown>;
    if (typeof value.t !== 'string' || typeof value.c !== 'string') return null;
    const typing = value.y as LiveNotice['typing'] | undefined;
    return {
      tenantId: value.t,
      conversationId: value.c,
      ...(typeof value.i === 'number' ? { lastId: value.i } : {}),
      ...(typeof value.s === 'string' ? { state: value.s as ConversationState } : {}),
      ...(typing && (typing.role === 'agent' || typing.role === 'visitor') ? { typing } : {}),
      ...(value.q === 1 ? { queue: true as const } : {}),
      ...(value.m === 1 ? { summary: true as const } : {}),
    };
  } catch {
    return null;
  }
}

/**
 * Stores events of a conversation and notifies every process, in the caller's transaction: the notification is
 * delivered when the transaction commits, so nobody hears of an event that is not stored.
 */
export async function appendEvents(
  tx: Executor,
  conversation: { tenantId: string; id: string },
  events: readonly StoredEvent[],
): Promise<void> {
  if (events.length === 0) return;
  const rows = await tx
    .insert(conversationEvents)
    .values(
      events.map((event) => ({
        tenantId: conversation.tenantId,
        conversationId: conversation.id,
        type: event.type,
        data: event.data,
      })),
    )
    .returning({ id: conversationEvents.id });
  const status = [...events].reverse().find((event) => event.type === 'status');
  const ended = events.some((event) => event.type === 'ended');
  await tx.execute(
    sql`select pg_notify(${LIVE_CHANNEL}, ${noticeText({
      tenantId: conversation.tenantId,
      conversationId: conversation.id,
      lastId: Math.max(...rows.map((row) => row.id)),
      ...(ended ? { state: 'closed' as const } : status ? { state: status.data.state } : {}),
    })})`,
  );
}

/** Someone types in a conversation: told to every process, stored nowhere. */
export async function notifyTyping(
  db: Executor,
  conversation: { tenantId: string; id: string },
  typing: NonNullable<LiveNotice['typing']>,
): Promise<void> {
  await db.execute(
    sql`select pg_notify(${LIVE_CHANNEL}, ${noticeText({
      tenantId: conversation.tenantId,
      conversationId: conversation.id,
      typing,
    })})`,
  );
}

/** The tenant's queue moved: told to every process, stored nowhere (each waiting visitor's place is computed). */
export async function notifyQueueMoved(db: Executor, tenantId: string): Promise<void> {
  await db.execute(
    sql`select pg_notify(${LIVE_CHANNEL}, ${noticeText({ tenantId, conversationId: '', queue: true })})`,
  );
}

/** A case summary of a conversation was stored: told to every process, so open inboxes show it. */
export async function notifySummaryWritten(
  db: Executor,
  conversation: { tenantId: string; id: string },
): Promise<void> {
  await db.execute(
    sql`select pg_notify(${LIVE_CHANNEL}, ${noticeText({
      tenantId: conversation.tenantId,
      conversationId: conversation.id,
      summary: true,
    })})`,
  );
}

/** The stored events of a conversation after `afterId`, oldest first (at most EVENTS_PER_READ). */
export async function eventsAfter(
  db: Db,
  conversation: { tenantId: string; id: string },
  afterId: number,
): Promise<ConversationEventRow[]> {
  return db
    .select()
    .from(conversationEvents)
    .where(
      and(
        eq(conversationEvents.tenantId, conversation.tenantId),
        eq(conversationEvents.conversationId, conversation.id),
        gt(conversationEvents.id, afterId),
      ),
    )
    .orderBy(asc(conversationEvents.id))
    .limit(EVENTS_PER_READ);
}
