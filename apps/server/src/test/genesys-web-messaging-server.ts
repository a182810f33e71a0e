/**
 * A local Genesys Cloud Web Messaging server for tests. It speaks the guest API that Genesys Messenger uses:
 *
 * - a WebSocket at `/v1?deploymentId=...` whose upgrade is refused (HTTP 403) unless the Origin header is one of the
 *   deployment's allowed domains;
 * - JSON frames from the guest: `configureSession {deploymentId, token, startNew?}` answered by
 *   `{type: 'response', class: 'SessionResponse', code: 200, body: {connected, newSession, readOnly}}` (the same
 *   token resumes its session; a session whose conversation was disconnected is read-only until `startNew`),
 *   `onMessage {token, message: {type: 'Text', text, metadata?: {customMessageId}, channel?: {metadata:
 *   {customAttributes}}}}` answered by a `response` StructuredMessage (direction Inbound), `onMessage` with
 *   `message: {type: 'Event', events: [{eventType: 'Typing', typing: {type: 'On'}}]}` (the guest types) or
 *   `[{eventType: 'Presence', presence: {type: 'Disconnect'}}]` (the guest ends the conversation),
 *   `echo {token, message: {type: 'Text', text: 'ping'}}` answered with the same text, and `getJwt {token}` answered
 *   by `{class: 'JwtResponse', body: {jwt, exp}}`;
 * - frames to the guest: `{type: 'message', class: 'StructuredMessage', code: 200, body: {id, direction: 'Outbound',
 *   type: 'Text' | 'Event', text?, events?, channel: {time, messageId, from: {nickname}}, originatingEntity}}` with
 *   the events Typing On and Presence Join / Leave / Disconnect;
 * - errors as Genesys sends them: `{type: 'response', class: 'string', code: 4xx | 5xx, body: '<reason>'}`, and
 *   `class: 'TooManyRequestsErrorMessage'` with `{retryAfter, errorCode: 4029, errorMessage}` for 429;
 * - `GET /api/v2/webmessaging/messages?pageSize&pageNumber` with `Authorization: Bearer <jwt>`: the session's
 *   history newest first as `{entities, pageSize, pageNumber, total, pageCount}`.
 *
 * Its control methods play the contact centre's agent (join with a nickname, type, say, leave, end), drop sockets,
 * refuse `configureSession` with a status, hang, deliver messages out of order, stop answering echoes, and record
 * what each guest sent (texts with their custom attributes, typing, the end).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

interface HistoryEntry {
  id: string;
  direction: 'Inbound' | 'Outbound';
  type: 'Text' | 'Event';
  text?: string;
  events?: unknown[];
  channel: { time: string; messageId: string; from?: { nickname: string } };
  metadata?: { customMessageId: string };
  originatingEntity?: string;
}

/** What the guest sent, as the agent's side received it. */
export interface GuestText {
  text: string;
  customMessageId: string | null;
  customAttributes: Record<string, string> | null;
  at: Date;
}

export interface FakeGenesysSession {
  token: string;
  /** Genesys' own conversation id (a new one on every startNew). */
  conversationId: string;
  readOnly: boolean;
  /** Every `configureSession` of this token (a resume counts). */
  configures: number;
  startNews: number;
  texts: GuestText[];
  typings: number;
  /** The guest sent Presence Disconnect. */
  guestEnded: boolean;
  history: HistoryEntry[];
  sockets: Set<WebSocket>;
  agentName: string | null;
}

export type ConfigureFailure = { status: number; reason?: string } | 'hang' | null;

export interface FakeGenesysServer {
  /** The socket address an integration is configured with (ws://127.0.0.1:port/v1). */
  serverUrl: string;
  deploymentId: string;
  allowedOrigin: string;
  sessions: Map<string, FakeGenesysSession>;
  /** Origins of refused upgrades. */
  refusedOrigins: string[];
  /** Applied to every `configureSession` while set. */
  configureFailure: ConfigureFailure;
  /** The next new session answers readOnly: true (a closed earlier conversation of the same token). */
  readOnlyNext: boolean;
  /** Echoes are not answered while true (a socket that stopped answering). */
  muteEcho: boolean;
  /** Guest texts are kept but not answered while true (an answer that is lost or late). */
  muteTexts: boolean;
  /** How many times a guest socket was opened. */
  upgrades: number;
  /** The newest session, or the one whose custom attributes name the conversation. */
  sessionFor(conversationId?: string): FakeGenesysSession | undefined;
  /** Waits until a session exists that the predicate accepts (polling; rejects after timeoutMs). */
  waitFor<T>(check: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  join(token: string, nickname: string): void;
  type(token: string): void;
  /** The agent says something; returns the message id. Kept in the history even when no socket is open. */
  say(token: string, text: string, at?: Date): string;
  /** Several agent messages sent in the reverse order of their times (Genesys gives no ordering guarantee). */
  sayOutOfOrder(token: string, texts: string[]): string[];
  leave(token: string): void;
  /** The agent disconnects the conversation: Presence Disconnect, and the session becomes read-only. */
  end(token: string): void;
  /** Cuts every socket of the session without a close frame. */
  drop(token: string): void;
  close(): Promise<void>;
}

const send = (socket: WebSocket, frame: unknown) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
};

const errorFrame = (code: number, reason: string) =>
  code === 429
    ? {
        type: 'response',
        class: 'TooManyRequestsErrorMessage',
        code,
        body: { retryAfter: 1, errorCode: 4029, errorMessage: reason },
      }
    : { type: 'response', class: 'string', code, body: reason };

export async function startGenesysWebMessagingServer(
  options: { deploymentId?: string; allowedOrigin?: string } = {},
): Promise<FakeGenesysServer> {
  const deploymentId = options.deploymentId ?? randomUUID();
  const allowedOrigin = options.allowedOrigin ?? 'https://shop.example.com';
  const sessions = new Map<string, FakeGenesysSession>();
  const jwts = new Map<string, string>();
  // Time strictly increasing, so two messages written within a millisecond keep their order.
  let lastTime = 0;
  const nextTime = () => {
    lastTime = Math.max(Date.now(), lastTime + 1);
    return new Date(lastTime);
  };

  const broadcast = (session: FakeGenesysSession, body: HistoryEntry) => {
    for (const socket of session.sockets)
      send(socket, { type: 'message', class: 'StructuredMessage', code: 200, body });
  };
  const sessionOf = (token: string) => {
    const session = sessions.get(token);
    if (!session) throw new Error(`no Genesys session for token ${token}`);
    return session;
  };
  const agentEvent = (session: FakeGenesysSession, events: unknown[], keep: boolean) => {
    const time = nextTime();
    const entry: HistoryEntry = {
      id: randomUUID(),
      direction: 'Outbound',
      type: 'Event',
      events,
      channel: {
        time: time.toISOString(),
        messageId: randomUUID(),
        ...(session.agentName ? { from: { nickname: session.agentName } } : {}),
      },
      originatingEntity: 'Human',
    };
    if (keep) session.history.push(entry);
    broadcast(session, entry);
  };
  const agentText = (session: FakeGenesysSession, text: string, time: Date): HistoryEntry => {
    const entry: HistoryEntry = {
      id: randomUUID(),
      direction: 'Outbound',
      type: 'Text',
      text,
      channel: {
        time: time.toISOString(),
        messageId: randomUUID(),
        ...(session.agentName ? { from: { nickname: session.agentName } } : {}),
      },
      originatingEntity: 'Human',
    };
    session.history.push(entry);
    return entry;
  };

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    if (request.method !== 'GET' || url.pathname !== '/api/v2/webmessaging/messages') {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'Not found', code: 'not.found', status: 404 }));
      return;
    }
    const bearer = /^Bearer (\S+)$/u.exec(request.headers.authorization ?? '')?.[1];
    const token = bearer === undefined ? undefined : jwts.get(bearer);
    const session = token === undefined ? undefined : sessions.get(token);
    if (!session) {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'Invalid token', code: 'bad.credentials', status: 401 }));
      return;
    }
    const pageSize = Math.min(Math.max(Number(url.searchParams.get('pageSize') ?? 25) || 25, 1), 100);
    const pageNumber = Math.max(Number(url.searchParams.get('pageNumber') ?? 1) || 1, 1);
    const newestFirst = [...session.history].sort((a, b) => b.channel.time.localeCompare(a.channel.time));
    const entities = newestFirst.slice((pageNumber - 1) * pageSize, pageNumber * pageSize);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        entities,
        pageSize,
        pageNumber,
        total: newestFirst.length,
        pageCount: Math.ceil(newestFirst.length / pageSize),
      }),
    );
  });
  const sockets = new WebSocketServer({ noServer: true });
  const state = {
    configureFailure: null as ConfigureFailure,
    readOnlyNext: false,
    muteEcho: false,
    muteTexts: false,
    upgrades: 0,
  };
  const refusedOrigins: string[] = [];

  const onFrame = (socket: WebSocket, raw: string, bound: { token: string | null }) => {
    let frame: Record<string, unknown>;
    try {
      frame = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      send(socket, errorFrame(400, 'Request is not valid JSON'));
      return;
    }
    const action = frame.action;
    if (action === 'configureSession') {
      if (state.configureFailure === 'hang') return;
      if (state.configureFailure) {
        send(socket, errorFrame(state.configureFailure.status, state.configureFailure.reason ?? 'Refused'));
        return;
      }
      if (frame.deploymentId !== deploymentId) {
        send(socket, errorFrame(400, 'Deployment not found'));
        return;
      }
      if (typeof frame.token !== 'string' || !/^[0-9a-f-]{36}$/iu.test(frame.token)) {
        send(socket, errorFrame(400, 'The token is not a valid UUID'));
        return;
      }
      let session = sessions.get(frame.token);
      const newSession = session === undefined;
      if (!session) {
        session = {
          token: frame.token,
          conversationId: randomUUID(),
          readOnly: state.readOnlyNext,
          configures: 0,
          startNews: 0,
          texts: [],
          typings: 0,
          guestEnded: false,
          history: [],
          sockets: new Set(),
          agentName: null,
        };
        state.readOnlyNext = false;
        sessions.set(frame.token, session);
      }
      session.configures += 1;
      if (frame.startNew === true && session.readOnly) {
        session.readOnly = false;
        session.conversationId = randomUUID();
        session.agentName = null;
        session.startNews += 1;
      }
      session.sockets.add(socket);
      bound.token = session.token;
      send(socket, {
        type: 'response',
        class: 'SessionResponse',
        code: 200,
        body: { connected: true, newSession, readOnly: session.readOnly },
      });
      return;
    }
    const session = typeof frame.token === 'string' ? sessions.get(frame.token) : undefined;
    if (!session || bound.token !== session.token) {
      send(socket, errorFrame(403, 'Session not configured for this token'));
      return;
    }
    if (action === 'echo') {
      if (state.muteEcho) return;
      const message = frame.message as { text?: unknown } | undefined;
      send(socket, {
        type: 'response',
        class: 'StructuredMessage',
        code: 200,
        body: { text: message?.text ?? 'ping', type: 'Text', direction: 'Inbound', id: randomUUID() },
      });
      return;
    }
    if (action === 'getJwt') {
      const jwt = `fake-jwt.${randomUUID()}`;
      jwts.set(jwt, session.token);
      send(socket, {
        type: 'response',
        class: 'JwtResponse',
        code: 200,
        body: { jwt, exp: Math.floor(Date.now() / 1000) + 3600 },
      });
      return;
    }
    if (action === 'onMessage') {
      if (session.readOnly) {
        send(socket, errorFrame(4010, 'The session is read-only: start a new one'));
        return;
      }
      const message = frame.message as
        | {
            type?: unknown;
            text?: unknown;
            events?: { eventType?: string; presence?: { type?: string } }[];
            metadata?: { customMessageId?: unknown };
            channel?: { metadata?: { customAttributes?: Record<string, string> } };
          }
        | undefined;
      if (message?.type === 'Event') {
        for (const event of message.events ?? []) {
          if (event.eventType === 'Typing') session.typings += 1;
          if (event.eventType === 'Presence' && event.presence?.type === 'Disconnect') {
            session.guestEnded = true;
            session.readOnly = true;
          }
        }
        send(socket, {
          type: 'response',
          class: 'StructuredMessage',
          code: 200,
          body: { id: randomUUID(), direction: 'Inbound', type: 'Event', events: message.events ?? [] },
        });
        return;
      }
      if (message?.type !== 'Text' || typeof message.text !== 'string' || message.text.length > 4096) {
        send(socket, errorFrame(400, 'A Text message needs a text of at most 4096 characters'));
        return;
      }
      const customMessageId =
        typeof message.metadata?.customMessageId === 'string' ? message.metadata.customMessageId : null;
      const time = nextTime();
      session.texts.push({
        text: message.text,
        customMessageId,
        customAttributes: message.channel?.metadata?.customAttributes ?? null,
        at: time,
      });
      const entry: HistoryEntry = {
        id: randomUUID(),
        direction: 'Inbound',
        type: 'Text',
        text: message.text,
        channel: { time: time.toISOString(), messageId: randomUUID() },
        ...(customMessageId === null ? {} : { metadata: { customMessageId } }),
      };
      session.history.push(entry);
      if (state.muteTexts) return;
      send(socket, { type: 'response', class: 'StructuredMessage', code: 200, body: entry });
      return;
    }
    send(socket, errorFrame(400, `Unknown action ${String(action)}`));
  };

  server.on('upgrade', (request: IncomingMessage, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const origin = request.headers.origin ?? '';
    if (url.pathname !== '/v1') {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (origin !== allowedOrigin) {
      refusedOrigins.push(origin);
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (url.searchParams.get('deploymentId') !== deploymentId) {
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      state.upgrades += 1;
      const bound = { token: null as string | null };
      ws.on('message', (data: Buffer) => onFrame(ws, data.toString('utf8'), bound));
      ws.on('close', () => {
        if (bound.token) sessions.get(bound.token)?.sockets.delete(ws);
      });
      ws.on('error', () => undefined);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const fake: FakeGenesysServer = {
    serverUrl: `ws://127.0.0.1:${port}/v1`,
    deploymentId,
    allowedOrigin,
    sessions,
    refusedOrigins,
    get configureFailure() {
      return state.configureFailure;
    },
    set configureFailure(value) {
      state.configureFailure = value;
    },
    get readOnlyNext() {
      return state.readOnlyNext;
    },
    set readOnlyNext(value) {
      state.readOnlyNext = value;
    },
    get muteEcho() {
      return state.muteEcho;
    },
    set muteEcho(value) {
      state.muteEcho = value;
    },
    get muteTexts() {
      return state.muteTexts;
    },
    set muteTexts(value) {
      state.muteTexts = value;
    },
    get upgrades() {
      return state.upgrades;
    },
    sessionFor(conversationId) {
      const all = [...sessions.values()];
      if (conversationId === undefined) return all.at(-1);
      return all.find((session) =>
        session.texts.some((text) => text.customAttributes?.omnibot_conversation_id === conversationId),
      );
    },
    async waitFor(check, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = check();
        if (value) return value;
        if (Date.now() > deadline) throw new Error('the fake Genesys server waited in vain');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    join(token, nickname) {
      const session = sessionOf(token);
      session.agentName = nickname;
      agentEvent(session, [{ eventType: 'Presence', presence: { type: 'Join' } }], true);
    },
    type(token) {
      agentEvent(sessionOf(token), [{ eventType: 'Typing', typing: { type: 'On', duration: 5000 } }], false);
    },
    say(token, text, at) {
      const session = sessionOf(token);
      const entry = agentText(session, text, at ?? nextTime());
      broadcast(session, entry);
      return entry.id;
    },
    sayOutOfOrder(token, texts) {
      const session = sessionOf(token);
      const entries = texts.map((text) => agentText(session, text, nextTime()));
      for (const entry of [...entries].reverse()) broadcast(session, entry);
      return entries.map((entry) => entry.id);
    },
    leave(token) {
      agentEvent(sessionOf(token), [{ eventType: 'Presence', presence: { type: 'Leave' } }], true);
    },
    end(token) {
      const session = sessionOf(token);
      agentEvent(session, [{ eventType: 'Presence', presence: { type: 'Disconnect' } }], true);
      session.readOnly = true;
    },
    drop(token) {
      for (const socket of sessionOf(token).sockets) socket.terminate();
    },
    async close() {
      for (const client of sockets.clients) client.terminate();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return fake;
}
