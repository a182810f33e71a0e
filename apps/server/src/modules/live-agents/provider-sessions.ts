import type { WidgetConfig } from '@omnibot/contracts';
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  conversationMessages,
  type ConversationRow,
  liveProviderSessions,
  type LiveProviderSessionRow,
} from '../../db/schema';
import type { LiveAgentProvider } from '../integrations/providers/provider';

/**
 * The table of conversations a contact centre holds (`live_provider_sessions`): which integration, the provider's
 * sealed session state, and which server process holds the socket until when. Only statements here; the relay
 * (`provider-relay.ts`) does the network part, always outside any transaction.
 */

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Executor = Db | Tx;

/** The contact centre a bot hands conversations to, when it is one (not the built-in inbox). */
export interface ProviderTarget {
  provider: 'genesys' | 'connect';
  integrationId: string;
}

/** How the relay gets a working provider from a tenant's contact-centre integration (its secrets opened). */
export type ProviderResolver = (tenantId: string, integrationId: string) => Promise<LiveAgentProvider>;

export function providerTargetOf(config: Pick<WidgetConfig, 'engines'>): ProviderTarget | null {
  const { enableliveagent, liveagent, liveagent_integration_id: integrationId } = config.engines;
  if (!enableliveagent || (liveagent !== 'genesys' && liveagent !== 'connect')) return null;
  return typeof integrationId === 'string' && integrationId !== ''
    ? { provider: liveagent, integrationId }
    : null;
}

/**
 * A session waiting to be started, in the hand-over's transaction: claimable at once by any process's relay. A
 * conversation handed over again replaces its earlier (ended) session.
 */
export async function openProviderSession(
  tx: Tx,
  conversation: Pick<ConversationRow, 'id' | 'tenantId'>,
  target: ProviderTarget,
): Promise<void> {
  const values = {
    tenantId: conversation.tenantId,
    integrationId: target.integrationId,
    provider: target.provider,
    status: 'starting' as const,
    sealedState: null,
    holder: null,
    leaseUntil: sql`now()`,
    lastInboundAt: null,
    failures: 0,
    createdAt: sql`now()`,
  };
  await tx
    .insert(liveProviderSessions)
    .values({ conversationId: conversation.id, ...values })
    .onConflictDoUpdate({ target: liveProviderSessions.conversationId, set: values });
}

/**
 * Takes up to `limit` sessions nobody holds (new ones, and those whose holder's lease lapsed), skipping those another
 * process is taking at the same moment.
 */
export async function claimSessions(
  db: Db,
  holder: string,
  leaseMs: number,
  limit: number,
): Promise<LiveProviderSessionRow[]> {
  return db.transaction(async (tx) => {
    const free = await tx
      .select({ id: liveProviderSessions.conversationId })
      .from(liveProviderSessions)
      .where(lt(liveProviderSessions.leaseUntil, sql`now()`))
      .orderBy(asc(liveProviderSessions.leaseUntil))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (free.length === 0) return [];
    return tx
      .update(liveProviderSessions)
      .set({ holder, leaseUntil: sql`now() + ${`${leaseMs} milliseconds`}::interval` })
      .where(
        inArray(
          liveProviderSessions.conversationId,
          free.map((row) => row.id),
        ),
      )
      .returning();
  });
}

/** Extends the lease of the sessions still held by `holder`; answers the ids that are still its own. */
export async function renewLeases(
  db: Db,
  holder: string,
  ids: readonly string[],
  leaseMs: number,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .update(liveProviderSessions)
    .set({ leaseUntil: sql`now() + ${`${leaseMs} milliseconds`}::interval` })
    .where(
      and(eq(liveProviderSessions.holder, holder), inArray(liveProviderSessions.conversationId, [...ids])),
    )
    .returning({ id: liveProviderSessions.conversationId });
  return new Set(rows.map((row) => row.id));
}

/** Gives a session back (the process stops): another process takes it over at once. */
export async function releaseLease(db: Db, holder: string, id: string): Promise<void> {
  await db
    .update(liveProviderSessions)
    .set({ holder: null, leaseUntil: sql`now()` })
    .where(and(eq(liveProviderSessions.holder, holder), eq(liveProviderSessions.conversationId, id)));
}

/** Saves the started (or changed) session's sealed state; false when the holder lost it meanwhile. */
export async function saveSessionState(
  db: Db,
  holder: string,
  id: string,
  sealedState: string,
): Promise<boolean> {
  const rows = await db
    .update(liveProviderSessions)
    .set({ status: 'active', sealedState, failures: 0 })
    .where(and(eq(liveProviderSessions.holder, holder), eq(liveProviderSessions.conversationId, id)))
    .returning({ id: liveProviderSessions.conversationId });
  return rows.length > 0;
}

/** Counts a failed resume; answers how many failed in a row. */
export async function countFailure(db: Db, id: string): Promise<number> {
  const [row] = await db
    .update(liveProviderSessions)
    .set({ failures: sql`${liveProviderSessions.failures} + 1` })
    .where(eq(liveProviderSessions.conversationId, id))
    .returning({ failures: liveProviderSessions.failures });
  return row?.failures ?? 0;
}

export async function resetFailures(db: Db, id: string): Promise<void> {
  await db
    .update(liveProviderSessions)
    .set({ failures: 0 })
    .where(eq(liveProviderSessions.conversationId, id));
}

/** The newest time the provider wrote something that is stored (a resume back-fills from there). */
export async function noteInbound(db: Executor, id: string, at: Date): Promise<void> {
  await db
    .update(liveProviderSessions)
    .set({
      lastInboundAt: sql`greatest(${liveProviderSessions.lastInboundAt}, ${at.toISOString()}::timestamptz)`,
    })
    .where(eq(liveProviderSessions.conversationId, id));
}

export async function sessionRow(db: Executor, id: string): Promise<LiveProviderSessionRow | null> {
  const [row] = await db
    .select()
    .from(liveProviderSessions)
    .where(eq(liveProviderSessions.conversationId, id));
  return row ?? null;
}

/** The hand-over to the contact centre is over: its session goes, and what was not sent counts as failed. */
export async function dropProviderSession(tx: Executor, id: string): Promise<void> {
  await tx.delete(liveProviderSessions).where(eq(liveProviderSessions.conversationId, id));
  await tx
    .update(conversationMessages)
    .set({ delivery: 'failed' })
    .where(and(eq(conversationMessages.conversationId, id), eq(conversationMessages.delivery, 'pending')));
}

/** The visitor's messages still to be sent to the contact centre, oldest first. */
export async function pendingMessages(db: Db, conversationId: string) {
  return db
    .select({ id: conversationMessages.id, text: conversationMessages.text })
    .from(conversationMessages)
    .where(
      and(
        eq(conversationMessages.conversationId, conversationId),
        eq(conversationMessages.delivery, 'pending'),
      ),
    )
    .orderBy(asc(conversationMessages.createdAt), asc(conversationMessages.id));
}

export async function markSent(db: Db, messageId: string): Promise<void> {
  await db
    .update(conversationMessages)
    .set({ delivery: 'sent' })
    .where(and(eq(conversationMessages.id, messageId), eq(conversationMessages.delivery, 'pending')));
}
