import { randomUUID } from 'node:crypto';
import { LIVE_AGENT_ERRORS, maskText, type WidgetConfig } from '@omnibot/contracts';
import { and, asc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import {
  type ConversationRow,
  conversationMessages,
  conversations,
  type LiveProviderSessionRow,
} from '../../db/schema';
import type { SecretBox } from '../../lib/secret-box';
import { sealedBotConfig } from '../bots/bots.service';
import {
  ProviderFailure,
  type ProviderEvent,
  type ProviderSession,
  type ProviderTranscriptLine,
} from '../integrations/providers/provider';
import { addMessage, liveMessage, lockedConversation } from './handover.service';
import type { LiveBus } from './live-bus';
import { appendEvents, type LiveNotice, notifyQueueMoved, notifyTyping } from './live-events';
import {
  claimSessions,
  countFailure,
  dropProviderSession,
  markSent,
  noteInbound,
  pendingMessages,
  type ProviderResolver,
  releaseLease,
  renewLeases,
  resetFailures,
  saveSessionState,
  sessionRow,
} from './provider-sessions';

/**
 * The relay between conversations and the contact centres that hold them (Genesys Cloud, Amazon Connect). Each
 * server process runs one. It claims provider sessions nobody holds (new hand-overs, and sessions whose holder's
 * lease lapsed because that process died), holds their sockets while renewing its lease, and:
 *
 * - starts a new session with the masked transcript and the case summary, after the hand-over committed;
 * - sends the visitor's `pending` messages in order once the live bus says a message was stored, marking each `sent`
 *   only when the provider confirmed it (after a reconnect the rest are sent again);
 * - turns the provider's events into the conversation's: joined (state `agent` with the agent's name), typing,
 *   messages (stored once per provider id), left, ended (the bot answers again);
 * - resumes a dropped session with backoff and back-fills what the socket missed; a start that fails, or a resume that
 *   keeps failing, gives the conversation back to the bot with the failure in plain words, never leaving it queued;
 * - ends the provider's session when the conversation is closed (by the visitor or an agent of ours).
 *
 * No database transaction or row lock is ever held across a call to the provider.
 */

export interface ProviderRelayOptions {
  /** This process's name in the leases. */
  holder?: string;
  /** How long a claimed session stays this process's without renewal. */
  leaseMs?: number;
  /** How often leases are renewed and free sessions looked for. */
  pollMs?: number;
  /** Waits before each resume of a dropped session; after the last one the hand-over counts as failed. */
  resumeDelaysMs?: readonly number[];
}

export interface ProviderRelayDeps {
  db: Db;
  bus: LiveBus;
  log: FastifyBaseLogger;
  /** Opens a tenant's contact-centre integration; null while the server has none configured. */
  providers: ProviderResolver | null;
  /** Seals the providers' session state (tokens are credentials). */
  box: SecretBox;
  /** The case summary given to the agent at the start, when the bot has one. */
  summaryOf?: (conversation: { tenantId: string; id: string }) => Promise<string | null>;
}

export interface ProviderRelay {
  /** A hand-over was just committed: look for sessions to start now rather than at the next poll. */
  wake(): void;
  /** The conversations whose provider session this process holds. */
  held(): string[];
  /** Gives every session back (sockets detached, leases released) so another process resumes them at once. */
  stop(): Promise<void>;
  /** Stops as a process that dies would: sockets cut, leases left to lapse (tests of the take-over). */
  abandon(): void;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_RESUME_DELAYS_MS = [250, 500, 1000, 2000, 4000, 8000];
const CLAIM_BATCH = 20;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

interface Held {
  id: string;
  tenantId: string;
  row: LiveProviderSessionRow;
  session: ProviderSession | null;
  /** Events wait here until the session is started or resumed and back-filled. */
  queue: ProviderEvent[];
  ready: boolean;
  /** One piece of work at a time per conversation, in order. */
  chain: Promise<void>;
  done: boolean;
  stopBus: () => void;
  resumeTimer: NodeJS.Timeout | null;
  agentName: string | null;
}

/** The bot's masking applied to a text given to a contact centre. */
function masked(config: WidgetConfig | null, text: string): string {
  if (!config?.masking.enableMasking) return text;
  return maskText(text, config.masking.patterns, config.masking.maskCharacter);
}

async function conversationOf(db: Db, tenantId: string, id: string): Promise<ConversationRow | null> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.tenantId, tenantId), eq(conversations.id, id)));
  return row ?? null;
}

/** The conversation so far as the agent reads it first, masked; messages still waiting to be sent follow it. */
async function transcriptOf(
  db: Db,
  row: ConversationRow,
  config: WidgetConfig | null,
): Promise<ProviderTranscriptLine[]> {
  const messages = await db
    .select()
    .from(conversationMessages)
    .where(
      and(
        eq(conversationMessages.conversationId, row.id),
        or(isNull(conversationMessages.delivery), ne(conversationMessages.delivery, 'pending')),
      ),
    )
    .orderBy(asc(conversationMessages.createdAt), asc(conversationMessages.id));
  return messages.map((message) => ({
    role: message.role,
    text: masked(config, message.text),
    at: message.createdAt,
  }));
}

/** The conversation goes back to the bot (from queued or agent), with a system message saying why. */
async function backToBot(tx: Tx, row: ConversationRow, text: string): Promise<ConversationRow> {
  const [released] = await tx
    .update(conversations)
    .set({
      state: 'bot',
      agentId: null,
      agentName: null,
      assignedAt: null,
      queuedAt: null,
      fallbackStreak: 0,
    })
    .where(eq(conversations.id, row.id))
    .returning();
  const current = released as ConversationRow;
  await addMessage(tx, current, { role: 'system', text });
  await appendEvents(tx, current, [{ type: 'status', data: { state: 'bot', position: null, agent: null } }]);
  if (row.state === 'queued') await notifyQueueMoved(tx, row.tenantId);
  await dropProviderSession(tx, row.id);
  return current;
}

export function startProviderRelay(
  deps: ProviderRelayDeps,
  hooks: { onReady: (run: () => Promise<void>) => void; onClose: (run: () => Promise<void>) => void },
  options: ProviderRelayOptions = {},
): ProviderRelay {
  const { db, bus, log, box } = deps;
  const holder = options.holder ?? `relay-${randomUUID()}`;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? Math.max(50, Math.floor(leaseMs / 3));
  const resumeDelays = options.resumeDelaysMs ?? DEFAULT_RESUME_DELAYS_MS;
  const held = new Map<string, Held>();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let polling: Promise<void> = Promise.resolve();
  let wakeQueued = false;

  const run = (entry: Held, work: () => Promise<void>) => {
    entry.chain = entry.chain.then(async () => {
      if (entry.done) return;
      try {
        await work();
      } catch (error) {
        log.error({ err: error, conversationId: entry.id }, 'live agents: the contact-centre relay failed');
      }
    });
    return entry.chain;
  };

  /** Forgets a conversation here (the hand-over ended, or another process holds it now). */
  const forget = (entry: Held) => {
    entry.done = true;
    entry.stopBus();
    if (entry.resumeTimer) clearTimeout(entry.resumeTimer);
    held.delete(entry.id);
  };

  const listenerOf =
    (entry: Held, session: { current: ProviderSession | null }) => (event: ProviderEvent) => {
      // A session replaced by a newer one (after a resume) no longer speaks for the conversation.
      if (
        entry.done ||
        (entry.session !== null && session.current !== null && entry.session !== session.current)
      )
        return;
      entry.queue.push(event);
      if (entry.ready) void run(entry, () => drain(entry));
    };

  /** The hand-over failed for good: back to the bot, the visitor told in plain words. */
  async function fail(entry: Held, failure: ProviderFailure) {
    log.warn(
      { conversationId: entry.id, code: failure.code, detail: failure.detail },
      'live agents: the contact centre did not take the conversation',
    );
    const session = entry.session;
    entry.session = null;
    forget(entry);
    await db.transaction(async (tx) => {
      const row = await lockedConversation(tx, entry.tenantId, entry.id);
      if (!row) return;
      if (row.state === 'queued' || row.state === 'agent')
        await backToBot(tx, row, LIVE_AGENT_ERRORS[failure.code]);
      else await dropProviderSession(tx, entry.id);
    });
    await session?.detach().catch(() => undefined);
  }

  /** Stores one message of the agent (once per provider id) and notes its time for a later back-fill. */
  async function storeAgentMessage(entry: Held, event: Extract<ProviderEvent, { type: 'message' }>) {
    await db.transaction(async (tx) => {
      const row = await lockedConversation(tx, entry.tenantId, entry.id);
      if (!row || (row.state !== 'queued' && row.state !== 'agent')) return;
      const name = event.name ?? entry.agentName ?? row.agentName;
      const [stored] = await tx
        .insert(conversationMessages)
        .values({
          id: randomUUID(),
          tenantId: row.tenantId,
          conversationId: row.id,
          botId: row.botId,
          role: 'agent',
          text: event.text,
          authorName: name,
          language: row.language,
          providerMessageId: event.providerId,
          createdAt: new Date(),
        })
        .onConflictDoNothing({
          target: [conversationMessages.conversationId, conversationMessages.providerMessageId],
        })
        .returning();
      await noteInbound(tx, row.id, event.at);
      if (!stored) return;
      await tx
        .update(conversations)
        .set({ messageCount: sql`${conversations.messageCount} + 1`, lastMessageAt: stored.createdAt })
        .where(eq(conversations.id, row.id));
      await appendEvents(tx, row, [{ type: 'message', data: liveMessage(stored) }]);
    });
  }

  async function handle(entry: Held, event: ProviderEvent) {
    switch (event.type) {
      case 'typing':
        await notifyTyping(
          db,
          { tenantId: entry.tenantId, id: entry.id },
          {
            role: 'agent',
            name: entry.agentName,
          },
        );
        return;
      case 'message':
        await storeAgentMessage(entry, event);
        return;
      case 'joined': {
        entry.agentName = event.name;
        await db.transaction(async (tx) => {
          const row = await lockedConversation(tx, entry.tenantId, entry.id);
          if (!row || (row.state !== 'queued' && row.state !== 'agent')) return;
          const [claimed] = await tx
            .update(conversations)
            .set({ state: 'agent', agentId: null, agentName: event.name, assignedAt: new Date() })
            .where(eq(conversations.id, row.id))
            .returning();
          const current = claimed as ConversationRow;
          await addMessage(tx, current, { role: 'system', text: `${event.name} joined the conversation.` });
          await appendEvents(tx, current, [
            { type: 'status', data: { state: 'agent', position: null, agent: { name: event.name } } },
          ]);
          if (row.state === 'queued') await notifyQueueMoved(tx, row.tenantId);
        });
        return;
      }
      case 'left':
        await db.transaction(async (tx) => {
          const row = await lockedConversation(tx, entry.tenantId, entry.id);
          if (!row || row.state !== 'agent') return;
          const name = event.name ?? entry.agentName ?? 'The agent';
          await addMessage(tx, row, { role: 'system', text: `${name} left the conversation.` });
        });
        return;
      case 'ended': {
        const session = entry.session;
        entry.session = null;
        forget(entry);
        await db.transaction(async (tx) => {
          const row = await lockedConversation(tx, entry.tenantId, entry.id);
          if (!row) return;
          if (row.state !== 'queued' && row.state !== 'agent') {
            await dropProviderSession(tx, entry.id);
            return;
          }
          const name = row.agentName ?? entry.agentName ?? 'The agent';
          await backToBot(tx, row, `${name} ended the conversation. The bot answers again.`);
        });
        await session?.detach().catch(() => undefined);
        return;
      }
      case 'disconnected':
        entry.session = null;
        entry.ready = false;
        log.info(
          { conversationId: entry.id, reason: event.reason },
          'live agents: contact-centre socket lost',
        );
        scheduleResume(entry);
        return;
    }
  }

  /** Handles the events that arrived, in order, until a disconnection makes the session wait for its resume. */
  async function drain(entry: Held) {
    while (entry.ready && !entry.done && entry.queue.length > 0) {
      const event = entry.queue.shift() as ProviderEvent;
      await handle(entry, event);
    }
  }

  /** Sends the visitor's waiting messages in order, each marked sent once the provider confirmed it. */
  async function flush(entry: Held) {
    if (!entry.ready || entry.done || !entry.session) return;
    const session = entry.session;
    for (const message of await pendingMessages(db, entry.id)) {
      if (entry.session !== session || entry.done) return;
      try {
        await session.send({ id: message.id, text: message.text });
      } catch (error) {
        // A lost socket reports itself as `disconnected`; the resume sends the rest.
        log.info(
          { conversationId: entry.id, err: error },
          'live agents: a message waits for the contact centre',
        );
        return;
      }
      await markSent(db, message.id);
    }
  }

  /** The session is ready: what arrived meanwhile is handled, then what the visitor wrote is sent. */
  async function becomeReady(entry: Held) {
    entry.ready = true;
    await drain(entry);
    await flush(entry);
  }

  async function start(entry: Held) {
    const conversation = await conversationOf(db, entry.tenantId, entry.id);
    if (!conversation || (conversation.state !== 'queued' && conversation.state !== 'agent')) {
      forget(entry);
      await dropProviderSession(db, entry.id);
      return;
    }
    const config = await sealedBotConfig(db, entry.tenantId, conversation.botId);
    const ref = { current: null as ProviderSession | null };
    let session: ProviderSession;
    try {
      if (!deps.providers) {
        throw new ProviderFailure(
          'handover/provider-unavailable',
          'No contact-centre integration is set up.',
          false,
        );
      }
      const provider = await deps.providers(entry.tenantId, entry.row.integrationId);
      const summary = deps.summaryOf
        ? await deps.summaryOf({ tenantId: entry.tenantId, id: entry.id })
        : null;
      session = await provider.start(
        {
          conversationId: entry.id,
          visitorName: 'Visitor',
          language: conversation.language,
          transcript: await transcriptOf(db, conversation, config),
          summary: summary === null ? null : masked(config, summary),
        },
        listenerOf(entry, ref),
      );
    } catch (error) {
      await fail(entry, asFailure(error));
      return;
    }
    ref.current = session;
    if (
      entry.done ||
      !(await saveSessionState(db, holder, entry.id, box.encrypt(JSON.stringify(session.state))))
    ) {
      // Given up meanwhile (the process stops, or the lease went to another process).
      await session.detach();
      return;
    }
    entry.session = session;
    entry.row = { ...entry.row, status: 'active' };
    // The visitor may have left while the contact centre was being asked.
    const now = await conversationOf(db, entry.tenantId, entry.id);
    if (!now || (now.state !== 'queued' && now.state !== 'agent')) {
      await endSession(entry);
      return;
    }
    await becomeReady(entry);
  }

  async function resume(entry: Held) {
    if (entry.done) return;
    const row = await sessionRow(db, entry.id);
    if (!row || row.holder !== holder) {
      forget(entry);
      return;
    }
    const ref = { current: null as ProviderSession | null };
    let session: ProviderSession;
    try {
      if (!deps.providers || row.sealedState === null) {
        throw new ProviderFailure(
          'handover/provider-unavailable',
          'The session cannot be resumed here.',
          false,
        );
      }
      const provider = await deps.providers(entry.tenantId, row.integrationId);
      const state = JSON.parse(box.decrypt(row.sealedState)) as Record<string, string>;
      session = await provider.resume(state, listenerOf(entry, ref));
      ref.current = session;
      entry.session = session;
      const missed = await session.backfill(row.lastInboundAt ?? row.createdAt);
      for (const message of missed) await storeAgentMessage(entry, message);
    } catch (error) {
      const failure = asFailure(error);
      if (entry.session) await entry.session.detach().catch(() => undefined);
      entry.session = null;
      const failures = await countFailure(db, entry.id);
      if (!failure.retryable || failures > resumeDelays.length) {
        await fail(entry, failure);
        return;
      }
      log.info(
        { conversationId: entry.id, code: failure.code, failures },
        'live agents: resume failed, retrying',
      );
      scheduleResume(entry, failures);
      return;
    }
    await resetFailures(db, entry.id);
    await becomeReady(entry);
  }

  function scheduleResume(entry: Held, failures = 0) {
    if (entry.done || entry.resumeTimer) return;
    const delay = resumeDelays[Math.min(failures, resumeDelays.length - 1)] ?? 1000;
    entry.resumeTimer = setTimeout(() => {
      entry.resumeTimer = null;
      void run(entry, () => resume(entry));
    }, delay);
  }

  /** The conversation ended on our side: the contact centre is told, and the session goes. */
  async function endSession(entry: Held) {
    const session = entry.session;
    entry.session = null;
    forget(entry);
    await dropProviderSession(db, entry.id);
    await session?.end().catch((error: unknown) => {
      log.info(
        { conversationId: entry.id, err: error },
        'live agents: the contact centre was not told of the end',
      );
    });
  }

  function onNotice(entry: Held, notice: LiveNotice) {
    if (notice.typing?.role === 'visitor') {
      void entry.session?.typing().catch(() => undefined);
      return;
    }
    if (notice.state === 'closed' || notice.state === 'bot') {
      void run(entry, async () => {
        const row = await conversationOf(db, entry.tenantId, entry.id);
        if (row && (row.state === 'queued' || row.state === 'agent')) return;
        await endSession(entry);
      });
      return;
    }
    void run(entry, () => flush(entry));
  }

  function hold(row: LiveProviderSessionRow) {
    const entry: Held = {
      id: row.conversationId,
      tenantId: row.tenantId,
      row,
      session: null,
      queue: [],
      ready: false,
      chain: Promise.resolve(),
      done: false,
      stopBus: () => undefined,
      resumeTimer: null,
      agentName: null,
    };
    held.set(entry.id, entry);
    entry.stopBus = bus.onConversation(entry.id, (notice) => onNotice(entry, notice));
    void run(entry, async () => {
      if (row.status === 'starting') await start(entry);
      else {
        const conversation = await conversationOf(db, entry.tenantId, entry.id);
        entry.agentName = conversation?.agentName ?? null;
        await resume(entry);
      }
    });
  }

  async function poll() {
    if (stopped) return;
    try {
      const mine = await renewLeases(db, holder, [...held.keys()], leaseMs);
      for (const entry of [...held.values()]) {
        if (mine.has(entry.id)) continue;
        // The lease went to another process (or the session ended elsewhere): let go without ending it.
        const session = entry.session;
        forget(entry);
        await session?.detach().catch(() => undefined);
      }
      if (stopped) return;
      for (const row of await claimSessions(db, holder, leaseMs, CLAIM_BATCH)) {
        if (held.has(row.conversationId) || stopped) continue;
        hold(row);
      }
    } catch (error) {
      if (!stopped) log.error({ err: error }, 'live agents: the contact-centre relay could not poll');
    }
  }

  const pollNow = () => {
    polling = polling.then(poll);
    return polling;
  };

  hooks.onReady(async () => {
    timer = setInterval(() => void pollNow(), pollMs);
    timer.unref();
    await pollNow();
  });

  const halt = () => {
    stopped = true;
    if (timer) clearInterval(timer);
    timer = null;
  };

  const relay: ProviderRelay = {
    wake() {
      if (stopped || wakeQueued) return;
      wakeQueued = true;
      setImmediate(() => {
        wakeQueued = false;
        void pollNow();
      });
    },
    held: () => [...held.keys()],
    async stop() {
      if (stopped) return;
      halt();
      await polling;
      for (const entry of [...held.values()]) {
        const session = entry.session;
        forget(entry);
        await entry.chain;
        await session?.detach().catch(() => undefined);
        await releaseLease(db, holder, entry.id).catch(() => undefined);
      }
    },
    abandon() {
      halt();
      for (const entry of [...held.values()]) {
        const session = entry.session;
        forget(entry);
        void session?.detach().catch(() => undefined);
      }
    },
  };
  hooks.onClose(() => relay.stop());
  return relay;
}

function asFailure(error: unknown): ProviderFailure {
  if (error instanceof ProviderFailure) return error;
  return new ProviderFailure(
    'handover/provider-unavailable',
    error instanceof Error ? error.message : 'The contact centre could not be reached.',
    true,
  );
}
