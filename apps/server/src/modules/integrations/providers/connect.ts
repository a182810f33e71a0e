import { ConnectClient, DescribeContactFlowCommand, StartChatContactCommand } from '@aws-sdk/client-connect';
import {
  ConnectParticipantClient,
  CreateParticipantConnectionCommand,
  DisconnectParticipantCommand,
  GetTranscriptCommand,
  type Item,
  SendEventCommand,
  SendMessageCommand,
} from '@aws-sdk/client-connectparticipant';
import { type ConnectSettings, connectEndpointsOf } from '@omnibot/contracts';
import type { HttpRequest, HttpSigner } from '@smithy/types';
import type { WebSocket } from 'ws';
import { FetchError } from '../../../lib/guarded-http/guarded-fetch';
import { GuardedSmithyHandler, RequestTimeoutError, ResponseTooLargeError } from './guarded-smithy-handler';
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
 * Amazon Connect chat through the official SDK clients: StartChatContact (SigV4 with the integration's access key) on
 * the Connect API, then the Participant Service (no SigV4; the participant or connection token in X-Amz-Bearer) for
 * the connection, messages, typing, the transcript and the disconnect, and the participant's WebSocket for what the
 * agent does. Both clients send every request through the guarded HTTP client; the socket opens through the guarded
 * socket opener.
 */

export interface ConnectProviderOptions {
  /** The longest a Connect or Participant Service call may take. */
  requestTimeoutMs?: number;
  /** How often a heartbeat is sent on the socket. */
  heartbeatMs?: number;
  /** Heartbeats left unanswered in a row before the socket counts as dropped. */
  missedHeartbeats?: number;
  /** How long opening the socket and subscribing to the chat may take. */
  socketTimeoutMs?: number;
}

const TYPING = 'application/vnd.amazonaws.connect.event.typing';
const JOINED = 'application/vnd.amazonaws.connect.event.participant.joined';
const LEFT = 'application/vnd.amazonaws.connect.event.participant.left';
const ENDED = 'application/vnd.amazonaws.connect.event.chat.ended';
const TEXT_TYPES: ReadonlySet<string> = new Set(['text/plain', 'text/markdown']);

/** Connect's limit on a text/plain or text/markdown message (InitialMessage and SendMessage alike). */
export const CONNECT_MESSAGE_LIMIT = 1024;
/** Connect allows 32,768 UTF-8 bytes across all of a contact's attributes; the summary takes at most half. */
export const CONNECT_SUMMARY_BYTES = 16_384;
const MAX_DISPLAY_NAME = 256;
const MAX_TRANSCRIPT_PAGES = 50;
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

/** The attributes a chat carries for the contact flow and the agent's contact view. */
export const CONNECT_ATTRIBUTES = {
  conversationId: 'omnibot_conversation_id',
  summary: 'omnibot_summary',
  language: 'omnibot_language',
} as const;

/** The Participant Service takes no SigV4: its requests are sent unsigned, so no AWS key ever reaches it. */
const unsigned: HttpSigner = { sign: (request: HttpRequest) => Promise.resolve(request) };

const utf8Length = (text: string) => Buffer.byteLength(text, 'utf8');

/** Cuts a text to `maxBytes` UTF-8 bytes at a word boundary when one is near, marking the cut with an ellipsis. */
export function cutToBytes(text: string, maxBytes: number): string {
  if (utf8Length(text) <= maxBytes) return text;
  const budget = maxBytes - utf8Length(' …');
  let cut = '';
  for (const char of text) {
    if (utf8Length(cut) + utf8Length(char) > budget) break;
    cut += char;
  }
  const space = cut.search(/\s\S*$/u);
  if (space > cut.length * 0.8) cut = cut.slice(0, space);
  return `${cut.trimEnd()} …`;
}

const LINE_LABELS: Record<ProviderTranscriptLine['role'], string> = {
  visitor: 'Visitor',
  bot: 'Bot',
  agent: 'Agent',
  system: 'Note',
};

/**
 * The chat's first message, so the agent sees what the visitor and the bot said before the hand-over: the latest
 * lines that fit Connect's 1,024 characters, each cut to a fair share, older lines dropped first.
 */
export function initialMessageOf(transcript: readonly ProviderTranscriptLine[]): string {
  const heading = 'Conversation with the bot so far:';
  const lines = transcript
    .filter((line) => line.text.trim() !== '')
    .map((line) => `${LINE_LABELS[line.role]}: ${line.text.trim().replace(/\s+/gu, ' ')}`);
  if (lines.length === 0) return 'The visitor asked to talk to a person.';
  const kept: string[] = [];
  let length = heading.length;
  for (const line of [...lines].reverse()) {
    const shortened = line.length > 300 ? `${line.slice(0, 299).trimEnd()}…` : line;
    if (length + 1 + shortened.length > CONNECT_MESSAGE_LIMIT - 2) break;
    kept.unshift(shortened);
    length += 1 + shortened.length;
  }
  const omitted = lines.length - kept.length;
  const body = omitted > 0 ? ['…', ...kept] : kept;
  return [heading, ...body].join('\n').slice(0, CONNECT_MESSAGE_LIMIT);
}

/** A visitor's text in parts Connect accepts, split at a line or word break when one is near. */
export function messageParts(text: string): string[] {
  const parts: string[] = [];
  let rest = text;
  while ([...rest].length > CONNECT_MESSAGE_LIMIT) {
    const head = [...rest].slice(0, CONNECT_MESSAGE_LIMIT).join('');
    const lastBreak = Math.max(head.lastIndexOf('\n'), head.lastIndexOf(' '));
    const cut = lastBreak > CONNECT_MESSAGE_LIMIT * 0.6 ? lastBreak : head.length;
    parts.push(head.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest !== '' || parts.length === 0) parts.push(rest);
  return parts.filter((part) => part !== '');
}

interface ServiceErrorLike {
  name: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

const isServiceError = (error: unknown): error is ServiceErrorLike =>
  error instanceof Error && '$metadata' in error && typeof error.$metadata === 'object';

const PLAIN_WORDS: Record<string, string> = {
  AccessDeniedException: 'the access key or token is not allowed to do this',
  UnrecognizedClientException: 'the access key id is not known to AWS',
  InvalidSignatureException: 'the request signature does not match: the secret access key is wrong',
  SignatureDoesNotMatch: 'the request signature does not match: the secret access key is wrong',
  ExpiredTokenException: 'the credentials have expired',
  ThrottlingException: 'too many requests for now',
  TooManyRequestsException: 'too many requests for now',
  LimitExceededException: 'the limit of active chats is reached',
  ServiceQuotaExceededException: 'the limit of active chats is reached',
  InternalServiceException: 'an internal error at Amazon Connect',
  InternalServerException: 'an internal error at Amazon Connect',
  ResourceNotFoundException: 'the instance or the contact flow was not found',
  InvalidRequestException: 'the request was refused as invalid',
  InvalidParameterException: 'the request was refused as invalid',
  ValidationException: 'the request was refused as invalid',
  ConflictException: 'the chat is in a state that does not allow this',
};

/**
 * A failure in plain words for the visitor's message and the tenant's log. AWS's own message is kept to its first
 * line (a signature mismatch appends the string it signed), and the secret and the chat's tokens are masked in it.
 */
function failureOf(error: unknown, doing: string, secrets: readonly string[]): ProviderFailure {
  if (error instanceof ProviderFailure) return error;
  const scrub = (text: string) =>
    secrets.reduce((out, secret) => (secret.length >= 8 ? out.split(secret).join('[hidden]') : out), text);
  const what = `${doing.charAt(0).toUpperCase()}${doing.slice(1)}`;
  if (error instanceof RequestTimeoutError) {
    return ProviderFailure.ofStatus(
      504,
      `${what}: Amazon Connect did not answer within ${error.timeoutMs / 1000} s.`,
    );
  }
  if (error instanceof ResponseTooLargeError) {
    return ProviderFailure.ofStatus(502, `${what}: the answer of Amazon Connect was larger than expected.`);
  }
  if (error instanceof FetchError) {
    // An address the guarded client refuses stays refused until the settings change.
    const permanent =
      ['fetch/invalid-url', 'fetch/unsupported-scheme', 'fetch/credentials-in-url'].includes(error.code) ||
      error.code.startsWith('fetch/blocked');
    const detail = `${what}: Amazon Connect could not be reached. ${scrub(error.reason)}`;
    return new ProviderFailure('handover/provider-unavailable', detail, !permanent);
  }
  if (isServiceError(error)) {
    const status = error.$metadata?.httpStatusCode ?? 500;
    const words = PLAIN_WORDS[error.name] ?? 'an error';
    const said = scrub((error.message ?? '').split('\n')[0]?.trim().slice(0, 200) ?? '');
    const detail =
      `${what}: Amazon Connect answered HTTP ${status} ${error.name}, ${words}` +
      (said && said !== error.name && said !== 'UnknownError' ? `: ${said}` : '.');
    // A request Connect finds invalid, or an instance or flow it does not have, fails the same way when retried.
    if (status === 400 || status === 404)
      return new ProviderFailure('handover/provider-refused', detail, false);
    return ProviderFailure.ofStatus(status, detail);
  }
  const message = error instanceof Error ? error.message : String(error);
  return ProviderFailure.ofStatus(
    502,
    `${what}: Amazon Connect failed: ${scrub(message.split('\n')[0] ?? '').slice(0, 200)}`,
  );
}

interface ConnectState {
  ContactId: string;
  ParticipantId: string;
  ParticipantToken: string;
  ConnectionToken: string;
  ConnectionExpiry: string;
}

function stateOf(saved: ProviderSessionState): ConnectState | null {
  const { ContactId, ParticipantId, ParticipantToken, ConnectionToken = '', ConnectionExpiry = '' } = saved;
  if (!ContactId || !ParticipantId || !ParticipantToken) return null;
  return { ContactId, ParticipantId, ParticipantToken, ConnectionToken, ConnectionExpiry };
}

/** A chat item of the socket or the transcript, as the conversation's event, or null for what it ignores. */
export function eventOfItem(item: Item): ProviderEvent | null {
  const at = item.AbsoluteTime ? new Date(item.AbsoluteTime) : new Date();
  const role = item.ParticipantRole;
  // The visitor's side is ours: its own messages, typing and joins come back as echoes.
  if (role === 'CUSTOMER') return null;
  const name = item.DisplayName?.trim() || null;
  if (item.Type === 'MESSAGE') {
    if (!item.Id || !item.Content || !TEXT_TYPES.has(item.ContentType ?? 'text/plain')) return null;
    // A contact flow's own messages (SYSTEM) reach the visitor without an agent's name.
    return {
      type: 'message',
      providerId: item.Id,
      text: item.Content,
      name: role === 'SYSTEM' ? null : name,
      at,
    };
  }
  if (item.Type !== 'EVENT') return null;
  if (item.ContentType === ENDED) return { type: 'ended', at };
  const person = role === 'AGENT' || role === 'SUPERVISOR';
  if (!person) return null;
  if (item.ContentType === TYPING) return { type: 'typing', at };
  if (item.ContentType === JOINED) return { type: 'joined', name: name ?? 'Agent', at };
  if (item.ContentType === LEFT) return { type: 'left', name, at };
  return null;
}

interface Clients {
  participant: ConnectParticipantClient;
  network: ProviderNetwork;
  options: Required<ConnectProviderOptions>;
  secrets: string[];
}

/** The connection a participant token opens: a socket address to use now, and a token for the calls. */
async function connectParticipant(
  clients: Clients,
  participantToken: string,
  withSocket: boolean,
): Promise<{ url: string | null; token: string; expiry: string }> {
  const answer = await clients.participant.send(
    new CreateParticipantConnectionCommand({
      ParticipantToken: participantToken,
      Type: withSocket ? ['WEBSOCKET', 'CONNECTION_CREDENTIALS'] : ['CONNECTION_CREDENTIALS'],
      ConnectParticipant: true,
    }),
  );
  const token = answer.ConnectionCredentials?.ConnectionToken;
  const url = answer.Websocket?.Url ?? null;
  if (!token || (withSocket && !url)) {
    throw ProviderFailure.ofStatus(
      502,
      'Amazon Connect answered the connection without a token or socket address.',
    );
  }
  return { url, token, expiry: answer.ConnectionCredentials?.Expiry ?? '' };
}

class ConnectSession implements ProviderSession {
  private socket: WebSocket | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private unanswered = 0;
  private finished = false;
  /** Told the answer to the subscription while the socket opens. */
  private subscribed: ((ok: boolean) => void) | null = null;

  constructor(
    private readonly clients: Clients,
    private current: ConnectState,
    private readonly listener: ProviderListener,
  ) {}

  get state(): ProviderSessionState {
    return { ...this.current };
  }

  private get secrets(): string[] {
    return [...this.clients.secrets, this.current.ParticipantToken, this.current.ConnectionToken];
  }

  /**
   * Opens the participant's socket (the address is valid for 100 s after the connection was made), subscribes to
   * the chat and starts the heartbeats. Resolves once Connect confirmed the subscription.
   */
  async open(url: string): Promise<void> {
    const { options } = this.clients;
    let socket: WebSocket;
    try {
      socket = await this.clients.network.openSocket(url, { timeoutMs: options.socketTimeoutMs });
    } catch (error) {
      throw failureOf(error, 'opening the chat socket', this.secrets);
    }
    this.socket = socket;
    socket.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      const fail = (failure: ProviderFailure) => {
        clearTimeout(timer);
        this.subscribed = null;
        socket.removeAllListeners('close');
        socket.terminate();
        reject(failure);
      };
      const timer = setTimeout(
        () =>
          fail(
            ProviderFailure.ofStatus(504, 'Amazon Connect did not confirm the chat subscription in time.'),
          ),
        options.socketTimeoutMs,
      );
      // The frame handler is attached now, so chat frames that follow the confirmation in the same read are kept.
      this.subscribed = (ok) => {
        this.subscribed = null;
        if (!ok)
          return fail(
            ProviderFailure.ofStatus(502, 'Amazon Connect refused the chat subscription on the socket.'),
          );
        clearTimeout(timer);
        socket.removeAllListeners('close');
        socket.on('close', () => this.lost('Amazon Connect closed the chat socket.'));
        resolve();
      };
      socket.on('message', (data: Buffer) => this.onFrame(data));
      socket.once('close', () =>
        fail(ProviderFailure.ofStatus(502, 'Amazon Connect closed the chat socket before the subscription.')),
      );
      socket.send(JSON.stringify({ topic: 'aws/subscribe', content: { topics: ['aws/chat'] } }));
    });
    this.unanswered = 0;
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs);
    this.heartbeat.unref();
  }

  private beat(): void {
    if (this.unanswered >= this.clients.options.missedHeartbeats) {
      this.lost(`Amazon Connect answered none of the last ${this.unanswered} heartbeats.`);
      return;
    }
    this.unanswered += 1;
    this.socket?.send(JSON.stringify({ topic: 'aws/heartbeat' }));
  }

  private onFrame(data: Buffer): void {
    const frame = parseFrame(data);
    if (!frame) return;
    // Any frame shows the socket is alive.
    this.unanswered = 0;
    if (frame.topic === 'aws/subscribe') {
      this.subscribed?.((frame.content as { status?: string } | undefined)?.status === 'success');
      return;
    }
    if (frame.topic !== 'aws/chat' || typeof frame.content !== 'string') return;
    let item: Item;
    try {
      item = JSON.parse(frame.content) as Item;
    } catch {
      return;
    }
    const event = eventOfItem(item);
    if (!event || this.finished) return;
    if (event.type === 'ended') this.close();
    this.listener(event);
  }

  /** The socket is gone without anyone closing it: the relay resumes with the saved state. */
  private lost(reason: string): void {
    if (this.finished || !this.socket) return;
    this.stopSocket();
    this.listener({ type: 'disconnected', reason });
  }

  private stopSocket(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
    }
  }

  private close(): void {
    this.finished = true;
    this.stopSocket();
  }

  private tokenExpired(): boolean {
    const expiry = Date.parse(this.current.ConnectionExpiry);
    return !this.current.ConnectionToken || (Number.isFinite(expiry) && expiry - 60_000 <= Date.now());
  }

  /**
   * A call with the connection token. A token past its expiry (a day), or one Connect refuses, is renewed once with
   * the participant token (which lives as long as the chat) and the call is made again; when the participant token
   * is refused too, the chat is over.
   */
  private async withConnection<T>(doing: string, call: (token: string) => Promise<T>): Promise<T> {
    try {
      if (this.tokenExpired()) await this.renew(doing);
      try {
        return await call(this.current.ConnectionToken);
      } catch (error) {
        if (!isServiceError(error) || error.name !== 'AccessDeniedException') throw error;
        await this.renew(doing);
        return await call(this.current.ConnectionToken);
      }
    } catch (error) {
      throw failureOf(error, doing, this.secrets);
    }
  }

  private async renew(doing: string): Promise<void> {
    try {
      const connection = await connectParticipant(this.clients, this.current.ParticipantToken, false);
      this.current = {
        ...this.current,
        ConnectionToken: connection.token,
        ConnectionExpiry: connection.expiry,
      };
    } catch (error) {
      throw failureOf(error, `${doing} (renewing the connection)`, this.secrets);
    }
  }

  async send(message: { id: string; text: string }): Promise<void> {
    const parts = messageParts(message.text);
    for (const [index, content] of parts.entries()) {
      const clientToken = parts.length === 1 ? message.id : `${message.id}:${index + 1}`;
      await this.withConnection('sending a message', (token) =>
        this.clients.participant.send(
          new SendMessageCommand({
            ConnectionToken: token,
            ContentType: 'text/plain',
            Content: content,
            ClientToken: clientToken,
          }),
        ),
      );
    }
  }

  async typing(): Promise<void> {
    await this.withConnection('sending typing', (token) =>
      this.clients.participant.send(new SendEventCommand({ ConnectionToken: token, ContentType: TYPING })),
    );
  }

  async end(): Promise<void> {
    this.close();
    try {
      await this.withConnection('ending the chat', (token) =>
        this.clients.participant.send(new DisconnectParticipantCommand({ ConnectionToken: token })),
      );
    } catch (error) {
      // A chat that already ended refuses the participant: it is ended, which is what was asked.
      if (error instanceof ProviderFailure && error.code === 'handover/provider-refused') return;
      throw error;
    }
  }

  async backfill(since: Date): Promise<Extract<ProviderEvent, { type: 'message' }>[]> {
    const found: Extract<ProviderEvent, { type: 'message' }>[] = [];
    let nextToken: string | undefined;
    for (let page = 0; page < MAX_TRANSCRIPT_PAGES; page += 1) {
      const answer = await this.withConnection('reading the transcript', (token) =>
        this.clients.participant.send(
          new GetTranscriptCommand({
            ConnectionToken: token,
            ContactId: this.current.ContactId,
            ScanDirection: 'FORWARD',
            SortOrder: 'ASCENDING',
            MaxResults: 100,
            StartPosition: { AbsoluteTime: since.toISOString() },
            NextToken: nextToken,
          }),
        ),
      );
      for (const item of answer.Transcript ?? []) {
        const event = eventOfItem(item);
        if (event?.type === 'message' && event.at.getTime() >= since.getTime()) found.push(event);
      }
      nextToken = answer.NextToken || undefined;
      if (!nextToken) break;
    }
    return found.sort((a, b) => a.at.getTime() - b.at.getTime());
  }

  detach(): Promise<void> {
    this.close();
    return Promise.resolve();
  }
}

function parseFrame(data: Buffer): { topic?: string; content?: unknown } | null {
  try {
    const frame = JSON.parse(data.toString('utf8')) as unknown;
    return typeof frame === 'object' && frame !== null ? frame : null;
  } catch {
    return null;
  }
}

/**
 * Amazon Connect as a live-agent provider.
 *
 * - start: StartChatContact with the conversation id as ClientToken (a repeated start returns the same chat), the
 *   summary and the conversation id as contact attributes, the conversation so far as the initial message; then
 *   CreateParticipantConnection and the socket. When the connection or the socket fails after the chat was made,
 *   the participant is disconnected so no agent is offered a chat nobody holds.
 * - resume: a new connection with the participant token (the socket address is only good for 100 s, so the saved
 *   connection token is never enough); a refused participant token means the chat has ended: provider-refused.
 * - probe: DescribeContactFlow, a signed read that proves the key, the instance and the flow in one call without
 *   starting a chat (the key needs connect:DescribeContactFlow besides connect:StartChatContact).
 */
export function createConnectProvider(
  settings: ConnectSettings,
  network: ProviderNetwork,
  options: ConnectProviderOptions = {},
): LiveAgentProvider {
  const limits: Required<ConnectProviderOptions> = {
    requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
    heartbeatMs: options.heartbeatMs ?? 10_000,
    missedHeartbeats: options.missedHeartbeats ?? 2,
    socketTimeoutMs: options.socketTimeoutMs ?? 15_000,
  };
  const endpoints = connectEndpointsOf(settings);
  const handler = new GuardedSmithyHandler(network.fetch, {
    requestTimeoutMs: limits.requestTimeoutMs,
    maxBytes: MAX_ANSWER_BYTES,
  });
  // One attempt per call: the relay decides about retries, and a hang is not multiplied by the SDK's own.
  const connect = new ConnectClient({
    region: settings.region,
    endpoint: endpoints.connect,
    credentials: { accessKeyId: settings.access_key_id, secretAccessKey: settings.secret_access_key },
    requestHandler: handler,
    maxAttempts: 1,
  });
  const participant = new ConnectParticipantClient({
    region: settings.region,
    endpoint: endpoints.participant,
    requestHandler: handler,
    maxAttempts: 1,
    httpAuthSchemeProvider: () => [{ schemeId: 'smithy.api#noAuth' }],
    httpAuthSchemes: [
      { schemeId: 'smithy.api#noAuth', identityProvider: () => () => Promise.resolve({}), signer: unsigned },
    ],
  });
  const secrets = [settings.secret_access_key];
  const clients: Clients = { participant, network, options: limits, secrets };

  async function connectSession(
    state: Omit<ConnectState, 'ConnectionToken' | 'ConnectionExpiry'>,
    listener: ProviderListener,
    doing: string,
  ): Promise<ConnectSession> {
    const tokens = [...secrets, state.ParticipantToken];
    let connection: Awaited<ReturnType<typeof connectParticipant>>;
    try {
      connection = await connectParticipant(clients, state.ParticipantToken, true);
    } catch (error) {
      throw failureOf(error, doing, tokens);
    }
    const session = new ConnectSession(
      clients,
      { ...state, ConnectionToken: connection.token, ConnectionExpiry: connection.expiry },
      listener,
    );
    try {
      await session.open(connection.url ?? '');
    } catch (error) {
      throw failureOf(error, doing, [...tokens, connection.token]);
    }
    return session;
  }

  return {
    kind: 'connect',

    async start(input: ProviderStart, listener: ProviderListener): Promise<ProviderSession> {
      const attributes: Record<string, string> = {
        [CONNECT_ATTRIBUTES.conversationId]: input.conversationId,
        [CONNECT_ATTRIBUTES.language]: input.language,
      };
      if (input.summary?.trim())
        attributes[CONNECT_ATTRIBUTES.summary] = cutToBytes(input.summary.trim(), CONNECT_SUMMARY_BYTES);
      const displayName = (input.visitorName.trim() || settings.display_name).slice(0, MAX_DISPLAY_NAME);
      let chat: { ContactId?: string; ParticipantId?: string; ParticipantToken?: string };
      try {
        chat = await connect.send(
          new StartChatContactCommand({
            InstanceId: settings.instance_id,
            ContactFlowId: settings.contact_flow_id,
            ParticipantDetails: { DisplayName: displayName },
            Attributes: attributes,
            InitialMessage: { ContentType: 'text/plain', Content: initialMessageOf(input.transcript) },
            SupportedMessagingContentTypes: [...settings.content_types],
            ClientToken: input.conversationId,
          }),
        );
      } catch (error) {
        throw failureOf(error, 'starting the chat', secrets);
      }
      const { ContactId, ParticipantId, ParticipantToken } = chat;
      if (!ContactId || !ParticipantId || !ParticipantToken) {
        throw ProviderFailure.ofStatus(
          502,
          'Amazon Connect started the chat without its contact or participant.',
        );
      }
      try {
        return await connectSession(
          { ContactId, ParticipantId, ParticipantToken },
          listener,
          'connecting to the chat',
        );
      } catch (error) {
        await abandon(ParticipantToken);
        throw error;
      }
    },

    async resume(saved: ProviderSessionState, listener: ProviderListener): Promise<ProviderSession> {
      const state = stateOf(saved);
      if (!state) {
        throw new ProviderFailure(
          'handover/provider-refused',
          'The saved Amazon Connect chat has no contact, participant or participant token.',
          false,
        );
      }
      try {
        return await connectSession(state, listener, 'resuming the chat');
      } catch (error) {
        const failure = failureOf(error, 'resuming the chat', [...secrets, state.ParticipantToken]);
        if (failure.code !== 'handover/provider-refused') throw failure;
        throw new ProviderFailure(
          'handover/provider-refused',
          `${failure.detail} The chat has ended or the visitor was disconnected from it.`,
          false,
        );
      }
    },

    async probe() {
      const started = performance.now();
      try {
        const answer = await connect.send(
          new DescribeContactFlowCommand({
            InstanceId: settings.instance_id,
            ContactFlowId: settings.contact_flow_id,
          }),
        );
        const flow = answer.ContactFlow;
        const latencyMs = Math.round(performance.now() - started);
        const name = flow?.Name ? `"${flow.Name}"` : settings.contact_flow_id;
        return {
          ok: true as const,
          latencyMs,
          detail: `Amazon Connect accepted the key; the contact flow ${name} of the instance is ${flow?.State?.toLowerCase() ?? 'there'}.`,
        };
      } catch (error) {
        return { ok: false as const, failure: failureOf(error, 'reading the contact flow', secrets) };
      }
    },
  };

  /** Leaves a chat whose socket could not be opened, so it is not offered to an agent; best effort. */
  async function abandon(participantToken: string): Promise<void> {
    try {
      const connection = await connectParticipant(clients, participantToken, false);
      await participant.send(new DisconnectParticipantCommand({ ConnectionToken: connection.token }));
    } catch {
      // The start already failed; the chat ends by itself when its duration runs out.
    }
  }
}
