/**
 * A local Amazon Connect for tests. One HTTP server speaks two of AWS's REST-JSON APIs and a WebSocket:
 *
 * - the Amazon Connect API (service `connect`, every request SigV4-signed, the signature VERIFIED with
 *   @smithy/signature-v4 against the test's access key): `PUT /contact/chat` (StartChatContact, idempotent by
 *   ClientToken, with Connect's limits on attributes and the initial message) and
 *   `GET /contact-flows/{InstanceId}/{ContactFlowId}` (DescribeContactFlow). An unknown key answers 403
 *   UnrecognizedClientException, a wrong signature 403 InvalidSignatureException, as AWS does: status, the
 *   `x-amzn-ErrorType` header and a `{"message"}` body;
 * - the Amazon Connect Participant Service (no SigV4; `X-Amz-Bearer`): `POST /participant/connection` with the
 *   ParticipantToken, `/participant/message`, `/participant/event`, `/participant/transcript` and
 *   `/participant/disconnect` with the ConnectionToken; a wrong bearer is 403 AccessDeniedException;
 * - the participant's socket at the `Url` the connection returns (on this same server), refused once its window
 *   (100 s, as Connect's; shorter in tests) has passed: `aws/subscribe` to `aws/chat`, `aws/heartbeat` answered,
 *   chat items pushed as `{topic: 'aws/chat', contentType: 'application/json', content: '<JSON string>'}`.
 *
 * A control API plays the agent (join, type, say, leave, end, drop the socket), makes the next calls fail (401,
 * 403, 429, 500, hang), and records what the customer sent and every request.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import { AwsHttpError, createSigV4Verifier, headerOf } from './aws-sigv4';

export interface ConnectFakeKeys {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface ConnectChatItem {
  AbsoluteTime: string;
  Content?: string;
  ContentType: string;
  Id: string;
  Type: 'MESSAGE' | 'EVENT';
  ParticipantId: string;
  DisplayName?: string;
  ParticipantRole: 'CUSTOMER' | 'AGENT' | 'SYSTEM';
  ContactId: string;
  InitialContactId: string;
}

export interface ConnectFakeChat {
  contactId: string;
  participantId: string;
  participantToken: string;
  clientToken: string | null;
  displayName: string;
  attributes: Record<string, string>;
  initialMessage: string | null;
  supportedContentTypes: string[];
  /** Texts the customer (our server) sent with SendMessage, in order, once each. */
  customerTexts: string[];
  /** Content types of the events the customer sent with SendEvent. */
  customerEvents: string[];
  transcript: ConnectChatItem[];
  connectionTokens: Set<string>;
  ended: boolean;
  customerDisconnected: boolean;
  agent: { participantId: string; name: string } | null;
}

export interface ConnectFakeRequest {
  method: string;
  path: string;
  /** The Authorization header as sent (only the Connect API may carry one). */
  authorization: string | undefined;
  bearer: string | undefined;
  status: number;
}

export type ConnectFakeFailure = 401 | 403 | 429 | 500 | 'hang';

export interface AmazonConnectServer {
  /** The address of both APIs (connect_endpoint and participant_endpoint of the settings). */
  baseUrl: string;
  region: string;
  instanceId: string;
  contactFlowId: string;
  keys: ConnectFakeKeys;
  chats: ConnectFakeChat[];
  requests: ConnectFakeRequest[];
  /** How long a socket address stays usable after CreateParticipantConnection. */
  socketWindowMs: number;
  /** Whether heartbeats are answered (false plays a socket that went silent). */
  answerHeartbeats: boolean;
  /** The latest chat, or the one with this contact id. */
  chat(contactId?: string): ConnectFakeChat;
  join(name: string, contactId?: string): ConnectChatItem;
  type(contactId?: string): ConnectChatItem;
  say(text: string, contactId?: string): ConnectChatItem;
  /** A message of the contact flow itself. */
  systemSay(text: string, contactId?: string): ConnectChatItem;
  leave(contactId?: string): ConnectChatItem;
  end(contactId?: string): ConnectChatItem;
  /** Cuts the chat's sockets without a close frame, as a lost network does. */
  dropSocket(contactId?: string): void;
  /** Makes every connection token of the chat refused, as an expired one is. */
  expireConnectionTokens(contactId?: string): void;
  /** The next `times` calls (whose path starts with `pathPrefix`, when given) fail with this status or hang. */
  failNext(failure: ConnectFailureOptions['failure'], options?: Omit<ConnectFailureOptions, 'failure'>): void;
  /** Forgets the failures not used up. */
  clearFailures(): void;
  /** Open subscribed sockets of a chat. */
  socketCount(contactId?: string): number;
  close(): Promise<void>;
}

interface ConnectFailureOptions {
  failure: ConnectFakeFailure;
  times?: number;
  pathPrefix?: string;
}

const JOINED = 'application/vnd.amazonaws.connect.event.participant.joined';
const LEFT = 'application/vnd.amazonaws.connect.event.participant.left';
const ENDED = 'application/vnd.amazonaws.connect.event.chat.ended';
const TYPING = 'application/vnd.amazonaws.connect.event.typing';
const FAILURE_TYPES: Record<Exclude<ConnectFakeFailure, 'hang'>, string> = {
  401: 'UnrecognizedClientException',
  403: 'AccessDeniedException',
  429: 'ThrottlingException',
  500: 'InternalServiceException',
};
const MESSAGE_LIMIT = 1024;
const ATTRIBUTE_BYTES = 32_768;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** The time of a chat item; strictly increasing, so "at or after" a time never depends on two items sharing one. */
function clock() {
  let last = 0;
  return () => {
    last = Math.max(Date.now(), last + 1);
    return new Date(last).toISOString();
  };
}

export async function startAmazonConnectServer(
  options: {
    keys?: ConnectFakeKeys;
    region?: string;
    instanceId?: string;
    contactFlowId?: string;
    socketWindowMs?: number;
  } = {},
): Promise<AmazonConnectServer> {
  const keys = options.keys ?? {
    accessKeyId: 'AKIATESTCONNECT0001',
    secretAccessKey: 'test-secret/connect+key0123456789',
  };
  const region = options.region ?? 'us-west-2';
  const instanceId = options.instanceId ?? randomUUID();
  const contactFlowId = options.contactFlowId ?? randomUUID();
  const now = clock();
  const chats: ConnectFakeChat[] = [];
  const requests: ConnectFakeRequest[] = [];
  const failures: Required<ConnectFailureOptions>[] = [];
  const hanging = new Set<ServerResponse>();
  const socketTokens = new Map<string, { contactId: string; issuedAt: number }>();
  const sockets = new Map<string, Set<WebSocket>>();
  const signature = createSigV4Verifier({ keys, region, service: 'connect' });
  let baseUrl = '';

  const chatOf = (contactId?: string): ConnectFakeChat => {
    const chat = contactId ? chats.find((c) => c.contactId === contactId) : chats.at(-1);
    if (!chat) throw new Error(`The fake has no chat ${contactId ?? ''}`);
    return chat;
  };

  const push = (chat: ConnectFakeChat, item: ConnectChatItem) => {
    chat.transcript.push(item);
    const frame = JSON.stringify({
      topic: 'aws/chat',
      contentType: 'application/json',
      content: JSON.stringify(item),
    });
    for (const socket of sockets.get(chat.contactId) ?? []) socket.send(frame);
    return item;
  };

  const item = (
    chat: ConnectFakeChat,
    fields: Pick<ConnectChatItem, 'Type' | 'ContentType' | 'ParticipantRole' | 'ParticipantId'> &
      Partial<Pick<ConnectChatItem, 'Content' | 'DisplayName'>>,
  ): ConnectChatItem => ({
    AbsoluteTime: now(),
    Id: randomUUID(),
    ContactId: chat.contactId,
    InitialContactId: chat.contactId,
    ...fields,
  });

  const agentItem = (
    chat: ConnectFakeChat,
    fields: Pick<ConnectChatItem, 'Type' | 'ContentType'> & { Content?: string },
  ) => {
    if (!chat.agent) throw new Error('No agent has joined this chat');
    return push(
      chat,
      item(chat, {
        ...fields,
        ParticipantRole: 'AGENT',
        ParticipantId: chat.agent.participantId,
        DisplayName: chat.agent.name,
      }),
    );
  };

  function startChat(body: Record<string, unknown>): unknown {
    if (body.InstanceId !== instanceId)
      throw new AwsHttpError(404, 'ResourceNotFoundException', 'Instance not found.');
    if (body.ContactFlowId !== contactFlowId)
      throw new AwsHttpError(404, 'ResourceNotFoundException', 'Contact flow not found.');
    const details = body.ParticipantDetails as { DisplayName?: unknown } | undefined;
    if (
      typeof details?.DisplayName !== 'string' ||
      details.DisplayName.length < 1 ||
      details.DisplayName.length > 256
    ) {
      throw new AwsHttpError(
        400,
        'InvalidParameterException',
        'ParticipantDetails.DisplayName is required (1 to 256 characters).',
      );
    }
    const attributes = (body.Attributes ?? {}) as Record<string, unknown>;
    let bytes = 0;
    for (const [key, value] of Object.entries(attributes)) {
      if (!/^[A-Za-z0-9_-]+$/u.test(key) || typeof value !== 'string') {
        throw new AwsHttpError(
          400,
          'InvalidParameterException',
          `Attribute ${key} is not a valid key with a string value.`,
        );
      }
      bytes += Buffer.byteLength(key) + Buffer.byteLength(value);
    }
    if (bytes > ATTRIBUTE_BYTES)
      throw new AwsHttpError(400, 'InvalidParameterException', 'Attributes exceed 32768 bytes.');
    const initial = body.InitialMessage as { ContentType?: unknown; Content?: unknown } | undefined;
    if (
      initial &&
      (typeof initial.Content !== 'string' ||
        initial.Content.length < 1 ||
        initial.Content.length > MESSAGE_LIMIT)
    ) {
      throw new AwsHttpError(
        400,
        'InvalidParameterException',
        'InitialMessage.Content must be 1 to 1024 characters.',
      );
    }
    const types = (body.SupportedMessagingContentTypes ?? ['text/plain']) as unknown[];
    if (!types.includes('text/plain')) {
      throw new AwsHttpError(
        400,
        'InvalidRequestException',
        'SupportedMessagingContentTypes must contain text/plain.',
      );
    }
    const clientToken = typeof body.ClientToken === 'string' ? body.ClientToken : null;
    if (clientToken && clientToken.length > 500)
      throw new AwsHttpError(400, 'InvalidParameterException', 'ClientToken is too long.');
    const repeated = clientToken ? chats.find((chat) => chat.clientToken === clientToken) : undefined;
    const chat: ConnectFakeChat = repeated ?? {
      contactId: randomUUID(),
      participantId: randomUUID(),
      participantToken: `QVFJREFIa${randomUUID().replaceAll('-', '')}`,
      clientToken,
      displayName: details.DisplayName,
      attributes: attributes as Record<string, string>,
      initialMessage: typeof initial?.Content === 'string' ? initial.Content : null,
      supportedContentTypes: types.map(String),
      customerTexts: [],
      customerEvents: [],
      transcript: [],
      connectionTokens: new Set(),
      ended: false,
      customerDisconnected: false,
      agent: null,
    };
    if (!repeated) {
      chats.push(chat);
      push(
        chat,
        item(chat, {
          Type: 'EVENT',
          ContentType: JOINED,
          ParticipantRole: 'CUSTOMER',
          ParticipantId: chat.participantId,
          DisplayName: chat.displayName,
        }),
      );
      if (chat.initialMessage) {
        push(
          chat,
          item(chat, {
            Type: 'MESSAGE',
            ContentType: 'text/plain',
            Content: chat.initialMessage,
            ParticipantRole: 'CUSTOMER',
            ParticipantId: chat.participantId,
            DisplayName: chat.displayName,
          }),
        );
      }
    }
    return {
      ContactId: chat.contactId,
      ParticipantId: chat.participantId,
      ParticipantToken: chat.participantToken,
    };
  }

  const refused = () =>
    new AwsHttpError(
      403,
      'AccessDeniedException',
      'You do not have sufficient access to perform this action.',
    );

  function byConnection(bearer: string | undefined): ConnectFakeChat {
    const chat = chats.find((c) => bearer !== undefined && c.connectionTokens.has(bearer));
    if (!chat || chat.customerDisconnected) throw refused();
    return chat;
  }

  const idempotent = new Map<string, unknown>();

  function participant(path: string, bearer: string | undefined, body: Record<string, unknown>): unknown {
    if (path === '/participant/connection') {
      const chat = chats.find((c) => c.participantToken === bearer);
      if (!chat || chat.ended || chat.customerDisconnected) throw refused();
      const types = Array.isArray(body.Type) ? body.Type : [];
      const answer: Record<string, unknown> = {};
      if (types.includes('WEBSOCKET')) {
        const token = randomUUID();
        socketTokens.set(token, { contactId: chat.contactId, issuedAt: Date.now() });
        answer.Websocket = {
          Url: `${baseUrl.replace(/^http/u, 'ws')}/connect?X-Amz-Security-Token=${token}`,
          ConnectionExpiry: new Date(Date.now() + server.socketWindowMs).toISOString(),
        };
      }
      if (types.includes('CONNECTION_CREDENTIALS')) {
        const token = `QVFJREFIaconn${randomUUID().replaceAll('-', '')}`;
        chat.connectionTokens.add(token);
        answer.ConnectionCredentials = {
          ConnectionToken: token,
          Expiry: new Date(Date.now() + 86_400_000).toISOString(),
        };
      }
      if (Object.keys(answer).length === 0)
        throw new AwsHttpError(400, 'ValidationException', 'Type is required.');
      return answer;
    }
    const chat = byConnection(bearer);
    const clientToken =
      typeof body.ClientToken === 'string' ? `${chat.contactId}:${path}:${body.ClientToken}` : null;
    const earlier = clientToken ? idempotent.get(clientToken) : undefined;
    if (earlier) return earlier;
    let answer: unknown;
    if (path === '/participant/message') {
      if (chat.ended) throw refused();
      const content = body.Content;
      if (typeof content !== 'string' || content.length < 1 || content.length > MESSAGE_LIMIT) {
        throw new AwsHttpError(400, 'ValidationException', 'Content must be 1 to 1024 characters.');
      }
      if (typeof body.ContentType !== 'string' || !chat.supportedContentTypes.includes(body.ContentType)) {
        throw new AwsHttpError(400, 'ValidationException', 'The content type is not supported by this chat.');
      }
      chat.customerTexts.push(content);
      const sent = push(
        chat,
        item(chat, {
          Type: 'MESSAGE',
          ContentType: body.ContentType,
          Content: content,
          ParticipantRole: 'CUSTOMER',
          ParticipantId: chat.participantId,
          DisplayName: chat.displayName,
        }),
      );
      answer = { Id: sent.Id, AbsoluteTime: sent.AbsoluteTime };
    } else if (path === '/participant/event') {
      if (chat.ended) throw refused();
      if (typeof body.ContentType !== 'string')
        throw new AwsHttpError(400, 'ValidationException', 'ContentType is required.');
      chat.customerEvents.push(body.ContentType);
      const sent = item(chat, {
        Type: 'EVENT',
        ContentType: body.ContentType,
        ParticipantRole: 'CUSTOMER',
        ParticipantId: chat.participantId,
        DisplayName: chat.displayName,
      });
      // Typing is pushed to the other side and not kept in the transcript, as Connect does.
      if (body.ContentType === TYPING) {
        for (const socket of sockets.get(chat.contactId) ?? []) {
          socket.send(
            JSON.stringify({
              topic: 'aws/chat',
              contentType: 'application/json',
              content: JSON.stringify(sent),
            }),
          );
        }
      } else push(chat, sent);
      answer = { Id: sent.Id, AbsoluteTime: sent.AbsoluteTime };
    } else if (path === '/participant/transcript') {
      answer = transcript(chat, body);
    } else if (path === '/participant/disconnect') {
      chat.customerDisconnected = true;
      push(
        chat,
        item(chat, {
          Type: 'EVENT',
          ContentType: LEFT,
          ParticipantRole: 'CUSTOMER',
          ParticipantId: chat.participantId,
          DisplayName: chat.displayName,
        }),
      );
      if (!chat.ended) {
        chat.ended = true;
        push(
          chat,
          item(chat, {
            Type: 'EVENT',
            ContentType: ENDED,
            ParticipantRole: 'SYSTEM',
            ParticipantId: 'SYSTEM',
          }),
        );
      }
      answer = {};
    } else {
      throw new AwsHttpError(404, 'UnknownOperationException', 'Unknown operation.');
    }
    if (clientToken) idempotent.set(clientToken, answer);
    return answer;
  }

  /** GetTranscript: from a start position (an item id, a time, or the most recent N), in either direction, paged. */
  function transcript(chat: ConnectFakeChat, body: Record<string, unknown>): unknown {
    if (body.ContactId !== undefined && body.ContactId !== chat.contactId) throw refused();
    const max = typeof body.MaxResults === 'number' ? body.MaxResults : 15;
    if (max < 0 || max > 100) throw new AwsHttpError(400, 'ValidationException', 'MaxResults is 0 to 100.');
    const forward = body.ScanDirection === 'FORWARD';
    const position = (body.StartPosition ?? {}) as {
      Id?: string;
      AbsoluteTime?: string;
      MostRecent?: number;
    };
    let items = [...chat.transcript];
    if (position.Id) {
      const index = items.findIndex((entry) => entry.Id === position.Id);
      items = forward ? items.slice(index + 1) : items.slice(0, Math.max(index, 0));
    } else if (position.AbsoluteTime) {
      const at = Date.parse(position.AbsoluteTime);
      items = items.filter((entry) =>
        forward ? Date.parse(entry.AbsoluteTime) >= at : Date.parse(entry.AbsoluteTime) <= at,
      );
    } else if (typeof position.MostRecent === 'number') {
      items = items.slice(-position.MostRecent);
    }
    if (!forward) items.reverse();
    const offset =
      typeof body.NextToken === 'string' ? Number(Buffer.from(body.NextToken, 'base64').toString('utf8')) : 0;
    const page = items.slice(offset, offset + max);
    if (body.SortOrder === 'DESCENDING') page.reverse();
    const next =
      offset + max < items.length ? Buffer.from(String(offset + max)).toString('base64') : undefined;
    return { InitialContactId: chat.contactId, Transcript: page, ...(next ? { NextToken: next } : {}) };
  }

  function answerError(response: ServerResponse, error: AwsHttpError): void {
    response.writeHead(error.status, {
      'content-type': 'application/json',
      'x-amzn-errortype': `${error.type}:http://internal.amazon.com/coral/com.amazonaws.connect/`,
      'x-amzn-requestid': randomUUID(),
    });
    response.end(JSON.stringify({ message: error.message }));
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', baseUrl);
    const body = await readBody(request);
    const record: ConnectFakeRequest = {
      method: request.method ?? 'GET',
      path: url.pathname,
      authorization: headerOf(request, 'authorization'),
      bearer: headerOf(request, 'x-amz-bearer'),
      status: 200,
    };
    requests.push(record);
    const failureIndex = failures.findIndex((f) => url.pathname.startsWith(f.pathPrefix));
    const failure = failures[failureIndex];
    if (failure) {
      failure.times -= 1;
      if (failure.times <= 0) failures.splice(failureIndex, 1);
      if (failure.failure === 'hang') {
        record.status = 0;
        hanging.add(response);
        return;
      }
      record.status = failure.failure;
      answerError(
        response,
        new AwsHttpError(
          failure.failure,
          FAILURE_TYPES[failure.failure],
          `Refused by the test (${failure.failure}).`,
        ),
      );
      return;
    }
    try {
      let parsed: Record<string, unknown> = {};
      if (body) {
        try {
          parsed = JSON.parse(body) as Record<string, unknown>;
        } catch {
          throw new AwsHttpError(400, 'SerializationException', 'The body is not JSON.');
        }
      }
      let answer: unknown;
      if (url.pathname.startsWith('/participant/')) {
        if (request.method !== 'POST')
          throw new AwsHttpError(404, 'UnknownOperationException', 'Unknown operation.');
        answer = participant(url.pathname, record.bearer, parsed);
      } else {
        await signature.verify(request, url, body);
        const flow = /^\/contact-flows\/([^/]+)\/([^/]+)$/u.exec(url.pathname);
        if (request.method === 'PUT' && url.pathname === '/contact/chat') answer = startChat(parsed);
        else if (request.method === 'GET' && flow) {
          if (
            decodeURIComponent(flow[1] ?? '') !== instanceId ||
            decodeURIComponent(flow[2] ?? '') !== contactFlowId
          ) {
            throw new AwsHttpError(404, 'ResourceNotFoundException', 'Contact flow not found.');
          }
          answer = {
            ContactFlow: {
              Arn: `arn:aws:connect:${region}:123456789012:instance/${instanceId}/contact-flow/${contactFlowId}`,
              Id: contactFlowId,
              Name: 'Omnibot hand-over',
              Type: 'CONTACT_FLOW',
              State: 'ACTIVE',
              Status: 'PUBLISHED',
              Content: '{}',
            },
          };
        } else throw new AwsHttpError(404, 'UnknownOperationException', 'Unknown operation.');
      }
      response.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID() });
      response.end(JSON.stringify(answer));
    } catch (error) {
      const failed =
        error instanceof AwsHttpError
          ? error
          : new AwsHttpError(500, 'InternalServiceException', String(error));
      record.status = failed.status;
      answerError(response, failed);
    }
  }

  const httpServer: Server = createServer((request, response) => {
    void handle(request, response);
  });
  const socketServer = new WebSocketServer({ noServer: true });
  httpServer.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', baseUrl);
    const token = url.searchParams.get('X-Amz-Security-Token') ?? '';
    const grant = socketTokens.get(token);
    socketTokens.delete(token);
    if (url.pathname !== '/connect' || !grant || Date.now() - grant.issuedAt > server.socketWindowMs) {
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    socketServer.handleUpgrade(request, socket, head, (ws) => {
      ws.on('message', (data: Buffer) => {
        let frame: { topic?: string; content?: { topics?: unknown } };
        try {
          frame = JSON.parse(data.toString('utf8')) as typeof frame;
        } catch {
          return;
        }
        if (frame.topic === 'aws/heartbeat') {
          if (server.answerHeartbeats) ws.send(JSON.stringify({ topic: 'aws/heartbeat' }));
        } else if (frame.topic === 'aws/subscribe') {
          const topics = Array.isArray(frame.content?.topics) ? frame.content.topics : [];
          if (!topics.includes('aws/chat')) {
            ws.send(JSON.stringify({ topic: 'aws/subscribe', content: { status: 'failure', topics } }));
            return;
          }
          const open = sockets.get(grant.contactId) ?? new Set<WebSocket>();
          open.add(ws);
          sockets.set(grant.contactId, open);
          ws.send(
            JSON.stringify({ topic: 'aws/subscribe', content: { status: 'success', topics: ['aws/chat'] } }),
          );
        }
      });
      ws.on('close', () => sockets.get(grant.contactId)?.delete(ws));
      ws.on('error', () => undefined);
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;

  const server: AmazonConnectServer = {
    baseUrl,
    region,
    instanceId,
    contactFlowId,
    keys,
    chats,
    requests,
    socketWindowMs: options.socketWindowMs ?? 100_000,
    answerHeartbeats: true,
    chat: chatOf,
    join(name, contactId) {
      const chat = chatOf(contactId);
      chat.agent = { participantId: randomUUID(), name };
      return agentItem(chat, { Type: 'EVENT', ContentType: JOINED });
    },
    type: (contactId) => agentItem(chatOf(contactId), { Type: 'EVENT', ContentType: TYPING }),
    say: (text, contactId) =>
      agentItem(chatOf(contactId), { Type: 'MESSAGE', ContentType: 'text/plain', Content: text }),
    systemSay(text, contactId) {
      const chat = chatOf(contactId);
      return push(
        chat,
        item(chat, {
          Type: 'MESSAGE',
          ContentType: 'text/plain',
          Content: text,
          ParticipantRole: 'SYSTEM',
          ParticipantId: 'SYSTEM',
          DisplayName: 'SYSTEM_MESSAGE',
        }),
      );
    },
    leave(contactId) {
      const chat = chatOf(contactId);
      const left = agentItem(chat, { Type: 'EVENT', ContentType: LEFT });
      chat.agent = null;
      return left;
    },
    end(contactId) {
      const chat = chatOf(contactId);
      chat.ended = true;
      return push(
        chat,
        item(chat, { Type: 'EVENT', ContentType: ENDED, ParticipantRole: 'SYSTEM', ParticipantId: 'SYSTEM' }),
      );
    },
    dropSocket(contactId) {
      const chat = chatOf(contactId);
      for (const socket of sockets.get(chat.contactId) ?? []) socket.terminate();
      sockets.get(chat.contactId)?.clear();
    },
    expireConnectionTokens(contactId) {
      chatOf(contactId).connectionTokens.clear();
    },
    failNext(failure, more = {}) {
      failures.push({ failure, times: more.times ?? 1, pathPrefix: more.pathPrefix ?? '/' });
    },
    clearFailures() {
      failures.splice(0);
    },
    socketCount: (contactId) => sockets.get(chatOf(contactId).contactId)?.size ?? 0,
    async close() {
      for (const response of hanging) response.destroy();
      for (const socket of socketServer.clients) socket.terminate();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
  return server;
}
