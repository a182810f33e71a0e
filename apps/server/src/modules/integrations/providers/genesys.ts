import { randomUUID } from 'node:crypto';
import { type GenesysSettings, genesysApiBaseOf } from '@omnibot/contracts';
import type { RawData, WebSocket } from 'ws';
import { FetchError } from '../../../lib/guarded-http/guarded-fetch';
import {
  type LiveAgentProvider,
  ProviderFailure,
  type ProviderEvent,
  type ProviderListener,
  type ProviderNetwork,
  type ProviderSession,
  type ProviderSessionState,
  type ProviderStart,
  type ProviderTranscriptLine,
} from './provider';

/**
 * Genesys Cloud Web Messaging, the guest API Genesys Messenger speaks: the server holds one WebSocket per handed-over
 * conversation at `{server_url}?deploymentId=...`, presenting the integration's Origin (one of the deployment's
 * allowed domains).
 *
 * - A session is named by a client token (a UUID, kept sealed in the session's state: whoever has it reads and writes
 *   the conversation). `configureSession` with the same token resumes it; a session whose conversation was
 *   disconnected answers `readOnly` and needs `startNew` for another conversation.
 * - The first guest message carries the transcript so far as its text (what an agent reads first in the interaction),
 *   with the case summary, the conversation id and the visitor's name and language as custom attributes
 *   (participant data, which scripts and the agent's interaction details show).
 * - The agent's messages and events (Typing On, Presence Join / Leave / Disconnect) come as StructuredMessages in no
 *   guaranteed order: they are held briefly and handed on in the order of `channel.time`.
 * - `echo` keeps the socket alive; an echo not answered in time counts as a lost socket (`disconnected`).
 * - After a drop, `getJwt` and the history API (`/api/v2/webmessaging/messages`, newest first) back-fill the agent's
 *   messages the socket missed, and tell which visitor messages already arrived (our id travels as
 *   `metadata.customMessageId`), so a resend after a reconnect never delivers one twice.
 */

export interface GenesysTimings {
  /** How long the SessionResponse (and any other answer) may take before the contact centre counts as unavailable. */
  answerTimeoutMs: number;
  echoIntervalMs: number;
  /** An echo not answered within this drops the socket. */
  echoTimeoutMs: number;
  /** How long an incoming message is held so that one written earlier but arriving later goes first. */
  reorderMs: number;
}

const DEFAULT_TIMINGS: GenesysTimings = {
  answerTimeoutMs: 10_000,
  echoIntervalMs: 30_000,
  echoTimeoutMs: 15_000,
  reorderMs: 400,
};

/** Genesys' longest message text. */
const TEXT_MAX = 4096;
/** Custom attributes are small (participant data): the summary is cut to this. */
const SUMMARY_ATTRIBUTE_MAX = 1000;
const HISTORY_PAGE_SIZE = 100;
/** At most this many history pages are read for one back-fill. */
const HISTORY_PAGES_MAX = 20;

type Frame = {
  type?: unknown;
  class?: unknown;
  code?: unknown;
  body?: unknown;
};

interface StructuredBody {
  id?: string;
  direction?: string;
  type?: string;
  text?: string;
  events?: {
    eventType?: string;
    presence?: { type?: string };
    typing?: { type?: string };
  }[];
  channel?: { time?: string; from?: { nickname?: string } };
  metadata?: { customMessageId?: string };
}

const roleNames: Record<ProviderTranscriptLine['role'], string> = {
  visitor: 'Visitor',
  bot: 'Bot',
  agent: 'Agent',
  system: 'Note',
};

/**
 * The first message an agent reads: the summary when there is one, then the conversation with the bot, cut from the
 * oldest lines so that it fits in one Genesys message.
 */
export function genesysOpeningText(input: ProviderStart): string {
  const head = [
    `${input.visitorName} was talking with the bot and asked for a person (language: ${input.language}).`,
    ...(input.summary ? [`Summary: ${input.summary}`] : []),
  ].join('\n');
  const lines = input.transcript.map((line) => `${roleNames[line.role]}: ${line.text.replace(/\s+/gu, ' ')}`);
  const kept: string[] = [];
  let room = TEXT_MAX - head.length - 40;
  for (const line of [...lines].reverse()) {
    const cut = line.length > 600 ? `${line.slice(0, 597)}...` : line;
    if (cut.length + 1 > room) break;
    kept.unshift(cut);
    room -= cut.length + 1;
  }
  const omitted = lines.length - kept.length;
  const body = [...(omitted > 0 ? [`(${omitted} earlier lines not shown)`] : []), ...kept].join('\n');
  const text = kept.length === 0 && omitted === 0 ? head : `${head}\n\nThe conversation so far:\n${body}`;
  return text.slice(0, TEXT_MAX);
}

function failureOfFrame(frame: Frame): ProviderFailure {
  const code = typeof frame.code === 'number' ? frame.code : 500;
  const body = frame.body as { errorMessage?: unknown } | string | undefined;
  const reason =
    typeof body === 'string'
      ? body
      : typeof body?.errorMessage === 'string'
        ? body.errorMessage
        : 'no reason given';
  return ProviderFailure.ofStatus(code, `Genesys Cloud answered ${code}: ${reason.slice(0, 200)}`);
}

function failureOfError(error: unknown, what: string): ProviderFailure {
  if (error instanceof ProviderFailure) return error;
  if (error instanceof FetchError) {
    if (error.code === 'fetch/http-status' && error.details.status !== undefined) {
      return ProviderFailure.ofStatus(error.details.status, `${what}: ${error.reason}`);
    }
    const retryable = !['fetch/blocked-address', 'fetch/blocked-host', 'fetch/blocked-port'].includes(
      error.code,
    );
    return new ProviderFailure('handover/provider-unavailable', `${what}: ${error.reason}`, retryable);
  }
  return new ProviderFailure(
    'handover/provider-unavailable',
    `${what}: ${error instanceof Error ? error.message : String(error)}`,
    true,
  );
}

interface Waiter {
  match: (frame: Frame) => boolean;
  resolve: (frame: Frame) => void;
  reject: (failure: ProviderFailure) => void;
  timer: NodeJS.Timeout;
}

/** One open socket of a session: requests and their answers, the echo, and the agent's events in time order. */
class GenesysConnection {
  private waiters: Waiter[] = [];
  private held: StructuredBody[] = [];
  private holdTimer: NodeJS.Timeout | null = null;
  private echoTimer: NodeJS.Timeout | null = null;
  private echoDeadline: NodeJS.Timeout | null = null;
  private finished = false;
  /** Where the agent's events go; set once the session is made (events before that are held). */
  listener: ProviderListener | null = null;
  private early: ProviderEvent[] = [];

  constructor(
    private readonly socket: WebSocket,
    private readonly timings: GenesysTimings,
  ) {
    socket.on('message', (data: RawData) => this.onData(data));
    socket.on('close', () => this.lost('The contact centre closed the socket.'));
    socket.on('error', () => this.lost('The socket to the contact centre failed.'));
  }

  get open(): boolean {
    return !this.finished;
  }

  private emit(event: ProviderEvent) {
    if (this.listener) this.listener(event);
    else this.early.push(event);
  }

  attach(listener: ProviderListener) {
    this.listener = listener;
    for (const event of this.early.splice(0)) listener(event);
  }

  /** Sends a frame and waits for the first answer `match` accepts; an error frame rejects the oldest waiter. */
  request(frame: Record<string, unknown>, match: (answer: Frame) => boolean, what: string): Promise<Frame> {
    if (this.finished) {
      return Promise.reject(
        new ProviderFailure(
          'handover/provider-unavailable',
          'The socket to the contact centre is closed.',
          true,
        ),
      );
    }
    return new Promise<Frame>((resolve, reject) => {
      const waiter: Waiter = {
        match,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((other) => other !== waiter);
          reject(
            new ProviderFailure(
              'handover/provider-unavailable',
              `Genesys Cloud did not answer ${what} within ${Math.round(this.timings.answerTimeoutMs / 1000)} s.`,
              true,
            ),
          );
        }, this.timings.answerTimeoutMs),
      };
      this.waiters.push(waiter);
      this.socket.send(JSON.stringify(frame), (error) => {
        if (!error) return;
        clearTimeout(waiter.timer);
        this.waiters = this.waiters.filter((other) => other !== waiter);
        reject(failureOfError(error, 'Sending to Genesys Cloud failed'));
      });
    });
  }

  /** Sends a frame whose answer nobody waits for. */
  post(frame: Record<string, unknown>) {
    if (!this.finished) this.socket.send(JSON.stringify(frame), () => undefined);
  }

  startEcho(token: string) {
    this.echoTimer = setInterval(() => {
      if (this.echoDeadline) return;
      this.post({ action: 'echo', token, message: { type: 'Text', text: 'ping' } });
      this.echoDeadline = setTimeout(() => {
        this.socket.terminate();
        this.lost('The contact centre stopped answering the keep-alive.');
      }, this.timings.echoTimeoutMs);
    }, this.timings.echoIntervalMs);
  }

  private onData(data: RawData) {
    let frame: Frame;
    try {
      const raw = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Uint8Array);
      frame = JSON.parse(raw.toString('utf8')) as Frame;
    } catch {
      return;
    }
    if (frame.code !== 200) {
      const waiter = this.waiters.shift();
      if (waiter) {
        clearTimeout(waiter.timer);
        waiter.reject(failureOfFrame(frame));
      }
      return;
    }
    const body = (frame.body ?? {}) as StructuredBody;
    if (
      frame.type === 'response' &&
      frame.class === 'StructuredMessage' &&
      body.type === 'Text' &&
      body.text === 'ping' &&
      body.metadata?.customMessageId === undefined
    ) {
      if (this.echoDeadline) clearTimeout(this.echoDeadline);
      this.echoDeadline = null;
      return;
    }
    const waiter = this.waiters.find((candidate) => candidate.match(frame));
    if (waiter) {
      this.waiters = this.waiters.filter((other) => other !== waiter);
      clearTimeout(waiter.timer);
      waiter.resolve(frame);
      return;
    }
    if (frame.type !== 'message') return;
    if (frame.class === 'SessionExpiredEvent' || frame.class === 'SessionClearedEvent') {
      this.flush();
      this.emit({ type: 'ended', at: new Date() });
      return;
    }
    if (frame.class === 'StructuredMessage' && body.direction === 'Outbound') {
      this.held.push(body);
      this.holdTimer ??= setTimeout(() => this.flush(), this.timings.reorderMs);
    }
  }

  /** Hands on every held message, oldest `channel.time` first. */
  private flush() {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    const batch = this.held.splice(0).sort((a, b) => timeOf(a).getTime() - timeOf(b).getTime());
    for (const body of batch) for (const event of eventsOf(body)) this.emit(event);
  }

  private stopTimers() {
    if (this.echoTimer) clearInterval(this.echoTimer);
    if (this.echoDeadline) clearTimeout(this.echoDeadline);
    this.echoTimer = null;
    this.echoDeadline = null;
  }

  private rejectAll(reason: string) {
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(new ProviderFailure('handover/provider-unavailable', reason, true));
    }
  }

  /** The socket went away without our asking: what was held is handed on, then `disconnected`. */
  private lost(reason: string) {
    if (this.finished) return;
    this.finished = true;
    this.stopTimers();
    this.flush();
    this.rejectAll(reason);
    this.emit({ type: 'disconnected', reason });
  }

  /** Closes the socket on purpose: no `disconnected` event. */
  close() {
    if (this.finished) return;
    this.finished = true;
    this.stopTimers();
    this.flush();
    this.rejectAll('The session was closed.');
    this.socket.removeAllListeners('close');
    this.socket.on('error', () => undefined);
    this.socket.close(1000);
    // A peer that never answers the close frame is cut after a moment.
    setTimeout(() => this.socket.terminate(), 1000).unref();
  }
}

function timeOf(body: StructuredBody): Date {
  const time = body.channel?.time ? new Date(body.channel.time) : new Date();
  return Number.isNaN(time.getTime()) ? new Date() : time;
}

/** What one of the agent's StructuredMessages means for the conversation. */
function eventsOf(body: StructuredBody): ProviderEvent[] {
  const at = timeOf(body);
  const name = body.channel?.from?.nickname?.trim() || null;
  if (body.type === 'Text' || body.type === 'Structured') {
    if (typeof body.text !== 'string' || body.text.trim() === '' || typeof body.id !== 'string') return [];
    return [{ type: 'message', providerId: body.id, text: body.text, name, at }];
  }
  if (body.type !== 'Event') return [];
  const events: ProviderEvent[] = [];
  for (const event of body.events ?? []) {
    if (event.eventType === 'Typing' && event.typing?.type === 'On') events.push({ type: 'typing', at });
    if (event.eventType === 'Presence') {
      const presence = event.presence?.type;
      if (presence === 'Join') events.push({ type: 'joined', name: name ?? 'An agent', at });
      if (presence === 'Leave') events.push({ type: 'left', name, at });
      if (presence === 'Disconnect') events.push({ type: 'ended', at });
    }
  }
  return events;
}

const isClass = (name: string) => (frame: Frame) => frame.type === 'response' && frame.class === name;

export function createGenesysProvider(
  settings: GenesysSettings,
  network: ProviderNetwork,
  timingOverrides: Partial<GenesysTimings> = {},
): LiveAgentProvider {
  const timings = { ...DEFAULT_TIMINGS, ...timingOverrides };
  const socketUrl = (() => {
    const url = new URL(settings.server_url);
    url.searchParams.set('deploymentId', settings.deployment_id);
    return url.href;
  })();
  const historyUrl = `${genesysApiBaseOf(settings.server_url)}/api/v2/webmessaging/messages`;
  const origin = settings.origin.replace(/\/$/u, '');

  /** Opens the socket and configures the token's session; the SessionResponse's body with the connection. */
  async function configure(
    token: string,
  ): Promise<{ connection: GenesysConnection; readOnly: boolean; newSession: boolean }> {
    let socket: WebSocket;
    try {
      socket = await network.openSocket(socketUrl, {
        headers: { origin },
        timeoutMs: timings.answerTimeoutMs,
      });
    } catch (error) {
      throw failureOfError(error, 'The Genesys Cloud socket could not be opened');
    }
    const connection = new GenesysConnection(socket, timings);
    try {
      const answer = await connection.request(
        { action: 'configureSession', deploymentId: settings.deployment_id, token },
        isClass('SessionResponse'),
        'the session request',
      );
      const body = (answer.body ?? {}) as { connected?: boolean; newSession?: boolean; readOnly?: boolean };
      if (body.connected === false) {
        throw new ProviderFailure(
          'handover/provider-unavailable',
          'Genesys Cloud did not connect the session.',
          true,
        );
      }
      return { connection, readOnly: body.readOnly === true, newSession: body.newSession === true };
    } catch (error) {
      connection.close();
      throw failureOfError(error, 'Genesys Cloud refused the session');
    }
  }

  function makeSession(
    connection: GenesysConnection,
    state: { token: string; conversationId: string },
    knownInbound: Set<string> | null,
  ): ProviderSession {
    let inbound = knownInbound;
    let jwt: { value: string; until: number } | null = null;

    async function jwtNow(): Promise<string> {
      if (jwt && jwt.until > Date.now()) return jwt.value;
      const answer = await connection.request(
        { action: 'getJwt', token: state.token },
        isClass('JwtResponse'),
        'the history token request',
      );
      const body = (answer.body ?? {}) as { jwt?: unknown; exp?: unknown };
      if (typeof body.jwt !== 'string') {
        throw new ProviderFailure(
          'handover/provider-unavailable',
          'Genesys Cloud sent no history token.',
          true,
        );
      }
      const exp = typeof body.exp === 'number' ? body.exp * 1000 : Date.now() + 5 * 60_000;
      jwt = { value: body.jwt, until: exp - 60_000 };
      return body.jwt;
    }

    /** The history newest first, down to `since` (or as far as HISTORY_PAGES_MAX pages go). */
    async function history(since: Date | null): Promise<StructuredBody[]> {
      const bearer = await jwtNow();
      const entries: StructuredBody[] = [];
      for (let page = 1; page <= HISTORY_PAGES_MAX; page += 1) {
        let response: Response;
        try {
          response = await network.fetch(`${historyUrl}?pageSize=${HISTORY_PAGE_SIZE}&pageNumber=${page}`, {
            headers: { authorization: `Bearer ${bearer}`, origin, accept: 'application/json' },
          });
        } catch (error) {
          throw failureOfError(error, 'The Genesys Cloud history could not be read');
        }
        if (!response.ok) {
          await response.body?.cancel();
          throw ProviderFailure.ofStatus(
            response.status,
            `The Genesys Cloud history answered ${response.status}.`,
          );
        }
        const body = (await response.json().catch(() => null)) as {
          entities?: StructuredBody[];
          pageCount?: number;
        } | null;
        const pageEntries = Array.isArray(body?.entities) ? body.entities : [];
        entries.push(...pageEntries);
        const reachedSince = since !== null && pageEntries.some((entry) => timeOf(entry) < since);
        if (reachedSince || pageEntries.length < HISTORY_PAGE_SIZE || page >= (body?.pageCount ?? page))
          break;
      }
      inbound ??= new Set();
      for (const entry of entries) {
        const id = entry.metadata?.customMessageId;
        if (entry.direction === 'Inbound' && typeof id === 'string') inbound.add(id);
      }
      return entries;
    }

    return {
      state: { token: state.token, conversationId: state.conversationId },
      async send(message) {
        // After a reconnect a message whose answer was lost may have arrived: the history tells.
        if (inbound === null) await history(null);
        if (inbound?.has(message.id)) return;
        const sent = connection.request(
          {
            action: 'onMessage',
            token: state.token,
            message: {
              type: 'Text',
              text: message.text.slice(0, TEXT_MAX),
              metadata: { customMessageId: message.id },
            },
          },
          (frame) =>
            isClass('StructuredMessage')(frame) &&
            (frame.body as StructuredBody | undefined)?.metadata?.customMessageId === message.id,
          'a message',
        );
        try {
          await sent;
        } catch (error) {
          // Unconfirmed is not unsent: the message may have arrived with its answer lost or late, so the next send
          // reads the history first rather than sending it twice.
          inbound = null;
          throw error;
        }
        inbound?.add(message.id);
      },
      typing() {
        connection.post({
          action: 'onMessage',
          token: state.token,
          message: { type: 'Event', events: [{ eventType: 'Typing', typing: { type: 'On' } }] },
        });
        return Promise.resolve();
      },
      async end() {
        try {
          await connection.request(
            {
              action: 'onMessage',
              token: state.token,
              message: {
                type: 'Event',
                events: [{ eventType: 'Presence', presence: { type: 'Disconnect' } }],
              },
            },
            (frame) =>
              isClass('StructuredMessage')(frame) &&
              (frame.body as StructuredBody | undefined)?.type === 'Event',
            'the end of the conversation',
          );
        } finally {
          connection.close();
        }
      },
      async backfill(since) {
        const entries = await history(since);
        return entries
          .filter((entry) => entry.direction === 'Outbound' && timeOf(entry) >= since)
          .flatMap((entry) => eventsOf(entry))
          .filter((event): event is Extract<ProviderEvent, { type: 'message' }> => event.type === 'message')
          .sort((a, b) => a.at.getTime() - b.at.getTime());
      },
      detach() {
        connection.close();
        return Promise.resolve();
      },
    };
  }

  return {
    kind: 'genesys',

    async start(input, listener) {
      const token = randomUUID();
      const { connection, readOnly } = await configure(token);
      try {
        if (readOnly) {
          // The token's earlier conversation was disconnected: a new one is asked for.
          const again = await connection.request(
            { action: 'configureSession', deploymentId: settings.deployment_id, token, startNew: true },
            isClass('SessionResponse'),
            'the new session request',
          );
          if ((again.body as { readOnly?: boolean } | undefined)?.readOnly === true) {
            throw new ProviderFailure(
              'handover/provider-unavailable',
              'Genesys Cloud kept the session read-only after a new one was asked for.',
              true,
            );
          }
        }
        const openingId = `${input.conversationId}:opening`;
        const customAttributes: Record<string, string> = {
          omnibot_conversation_id: input.conversationId,
          omnibot_visitor_name: input.visitorName.slice(0, 200),
          omnibot_language: input.language,
          ...(input.summary ? { omnibot_summary: input.summary.slice(0, SUMMARY_ATTRIBUTE_MAX) } : {}),
        };
        await connection.request(
          {
            action: 'onMessage',
            token,
            message: {
              type: 'Text',
              text: genesysOpeningText(input),
              metadata: { customMessageId: openingId },
              channel: { metadata: { customAttributes } },
            },
          },
          (frame) =>
            isClass('StructuredMessage')(frame) &&
            (frame.body as StructuredBody | undefined)?.metadata?.customMessageId === openingId,
          'the first message',
        );
        connection.startEcho(token);
        connection.attach(listener);
        return makeSession(connection, { token, conversationId: input.conversationId }, new Set([openingId]));
      } catch (error) {
        connection.close();
        throw failureOfError(error, 'Genesys Cloud refused the conversation');
      }
    },

    async resume(state: ProviderSessionState, listener) {
      const token = state.token;
      const conversationId = state.conversationId ?? '';
      if (typeof token !== 'string' || !/^[0-9a-f-]{36}$/iu.test(token)) {
        throw new ProviderFailure(
          'handover/provider-unavailable',
          'The saved Genesys session has no token.',
          false,
        );
      }
      const { connection, readOnly } = await configure(token);
      connection.startEcho(token);
      const session = makeSession(connection, { token, conversationId }, null);
      connection.attach(listener);
      // The agent disconnected while the socket was away: the conversation is over on their side.
      if (readOnly) setImmediate(() => listener({ type: 'ended', at: new Date() }));
      return session;
    },

    async probe() {
      const began = performance.now();
      try {
        // A session without a message starts no conversation: no agent is asked, nothing is routed.
        const { connection } = await configure(randomUUID());
        connection.close();
        return {
          ok: true as const,
          latencyMs: Math.round(performance.now() - began),
          detail: 'Genesys Cloud accepted a guest session for this deployment from this origin.',
        };
      } catch (error) {
        return { ok: false as const, failure: failureOfError(error, 'Genesys Cloud refused the session') };
      }
    },
  };
}
