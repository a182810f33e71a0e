import type { ConversationState, LiveMessage } from '@omnibot/contracts';
import { and, asc, eq, gt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type ConversationEventRow, conversationEvents } from '../../db/schema';

/** The channel every server process listens on for what happens in live conversations. */
export const LIVE_CHANNEL = 'omnibot_live';
/** The most events one read returns; a client further behind reads again from the last one. */
export const EVENTS_PER_READ = 500;

/** A stored event as a notification carries it and a read returns it. */
export interface NoticeEvent {
  id: number;
  type: ConversationEventRow['type'];
  data: Record<string, unknown>;
}

/**
 * What a notification says: which conversation of which tenant, the newest stored event id, the conversation's
 * event id before those (`previousId`: a reader whose last id is at least that misses nothing before them) and the
 * events themselves when they fit in a notification (else a reader reads them), its state when it changed, or
 * someone typing (typing is not stored).
 */
export interface LiveNotice {
  tenantId: string;
  conversationId: string;
  lastId?: number;
  previousId?: number;
  events?: NoticeEvent[];
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

/** PostgreSQL refuses a notification payload of 8000 bytes or more (PGlite alike). */
const NOTICE_BYTES_MAX = 7999;
const EVENT_TYPES: ReadonlySet<string> = new Set(['message', 'status', 'ended']);

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

const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value);

/** The events a notification carries, `[id, type, data]` each; undefined when any is not one. */
function noticeEvents(value: unknown): NoticeEvent[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const events: NoticeEvent[] = [];
  for (const item of value as unknown[]) {
    if (!Array.isArray(item) || item.length !== 3) return undefined;
    const [id, type, data] = item as [unknown, unknown, unknown];
    if (!isNumber(id) || typeof type !== 'string' || !EVENT_TYPES.has(type)) return undefined;
    if (typeof data !== 'object' || data === null) return undefined;
    events.push({ id, type: type as NoticeEvent['type'], data: data as Record<string, unknown> });
  }
  return events;
}

/** A notification's payload read back; null for anything that is not one of ours. */
export function parseNotice(payload: string): LiveNotice | null {
  try {
    const value = JSON.parse(payload) as Record<string, unknown>;
    if (typeof value.t !== 'string' || typeof value.c !== 'string') return null;
    const typing = value.y as LiveNotice['typing'] | undefined;
    const events = noticeEvents(value.e);
    return {
      tenantId: value.t,
      conversationId: value.c,
      ...(isNumber(value.i) ? { lastId: value.i } : {}),
      ...(isNumber(value.p) ? { previousId: value.p } : {}),
      ...(events ? { events } : {}),
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
 * The tail of a statement that stored events of a conversation: the CTEs `notice`, `texts` and `notified`, which
 * notify every process of the rows of the CTE `added` (id, type, data), naming `previous` (the conversation's event
 * id before them) and the state they move it to. The notice carries the events themselves when they fit (a reader
 * then needs no read), else their ids only; nothing is notified when `added` is empty. The statement's result must
 * read `notified`, or PostgreSQL skips it.
 */
export function notifyAddedSql(
  conversation: { tenantId: string; id: string },
  previous: SQL,
  state: ConversationState | null,
): SQL {
  return sql`notice as (
      select
        jsonb_strip_nulls(jsonb_build_object('t', ${conversation.tenantId}::text, 'c', ${conversation.id}::text,
          'p', ${previous}, 'i', max(added.id), 's', ${state}::text)) as head,
        jsonb_agg(jsonb_build_array(added.id, added.type, added.data) order by added.id) as events
      from added
      having count(*) > 0
    ), texts as (
      select head::text as short, (head || jsonb_build_object('e', events))::text as whole from notice
    ), notified as (
      select pg_notify(${LIVE_CHANNEL}, case when octet_length(whole) <= ${NOTICE_BYTES_MAX} then whole else short end)
      from texts
    )`;
}

/**
 * Stores events of a conversation and notifies every process, in the caller's transaction: the notification is
 * delivered when the transaction commits, so nobody hears of an event that is not stored. The caller holds the
 * conversation's row lock (`lockedConversation`), so a conversation's events commit in the order of their ids and
 * `previousId` (the conversation's `last_event_id`, moved on here) is exact. One statement: the events, the
 * conversation's newest event id and the notification, which carries the events themselves when they fit (a reader
 * then needs no read), else their ids only.
 */
export async function appendEvents(
  tx: Executor,
  conversation: { tenantId: string; id: string },
  events: readonly StoredEvent[],
): Promise<void> {
  if (events.length === 0) return;
  const status = [...events].reverse().find((event) => event.type === 'status');
  const ended = events.some((event) => event.type === 'ended');
  const state = ended ? 'closed' : status ? status.data.state : null;
  const values = sql.join(
    events.map(
      (event) =>
        sql`(${conversation.tenantId}, ${conversation.id}::uuid, ${event.type}, ${JSON.stringify(event.data)}::jsonb)`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    with previous as (
      select last_event_id as id from conversations
      where tenant_id = ${conversation.tenantId} and id = ${conversation.id}::uuid
    ), added as (
      insert into conversation_events (tenant_id, conversation_id, type, data) values ${values}
      returning id, type, data
    ), moved as (
      update conversations set last_event_id = (select max(id) from added)
      where tenant_id = ${conversation.tenantId} and id = ${conversation.id}::uuid
    ), ${notifyAddedSql(conversation, sql`(select id from previous)`, state)}
    select count(*) from notified
  `);
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
