/**
 * A local Amazon Bedrock runtime for tests. It speaks the Bedrock runtime's REST-JSON API (service `bedrock`):
 *
 * - `POST /model/{modelId}/converse` (Converse): `{messages, system?, inferenceConfig?}` in,
 *   `{output: {message: {role: 'assistant', content: [{text}]}}, stopReason, usage, metrics}` out;
 * - `POST /model/{modelId}/converse-stream` (ConverseStream): the answer as `application/vnd.amazon.eventstream`
 *   frames encoded with @smithy/eventstream-codec (`messageStart`, `contentBlockDelta` per piece,
 *   `contentBlockStop`, `messageStop`, `metadata`), each with the `:message-type`, `:event-type` and
 *   `:content-type` headers AWS sends.
 *
 * Every request is SigV4-signed with the test's key (the signature VERIFIED with @smithy/signature-v4 through
 * aws-sigv4.ts) or carries the test's Bedrock API key as `Authorization: Bearer`. Errors are AWS's: status, the
 * `x-amzn-ErrorType` header and a `{"message"}` body (403 for a bad signature, an unknown key or a wrong API key,
 * 404 ResourceNotFoundException for another model, 400 ValidationException for messages Converse refuses: empty,
 * not starting with the user or not alternating). The answer is `reply` (a string streamed word by word, pieces, or
 * a function of the request); a control API makes the next calls fail (401, 403, 429, 500, 503, a hang, a
 * malformed body, a stream cut mid-answer, an exception frame mid-stream) and records every request.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { AwsHttpError, type AwsTestKeys, createSigV4Verifier, headerOf } from './aws-sigv4';

export type BedrockFakeFailure =
  401 | 403 | 429 | 500 | 503 | 'hang' | 'malformed' | 'stream-cut' | 'stream-exception';

export interface BedrockConverseBody {
  messages: { role: string; content: { text?: string }[] }[];
  system?: { text?: string }[];
  inferenceConfig?: { maxTokens?: number; temperature?: number };
}

export interface BedrockFakeRequest {
  path: string;
  modelId: string | null;
  auth: 'sigv4' | 'bearer' | 'none';
  body: BedrockConverseBody | null;
  status: number;
}

export interface BedrockRuntimeServer {
  baseUrl: string;
  region: string;
  modelId: string;
  keys: AwsTestKeys;
  apiKey: string;
  requests: BedrockFakeRequest[];
  /** The answer: a text (streamed word by word), pieces streamed as given, or made from the request. */
  reply: string | string[] | ((body: BedrockConverseBody) => string | string[]);
  failNext(failure: BedrockFakeFailure, times?: number): void;
  clearFailures(): void;
  close(): Promise<void>;
}

const FAILURE_TYPES: Record<401 | 403 | 429 | 500 | 503, string> = {
  401: 'UnrecognizedClientException',
  403: 'AccessDeniedException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

const codec = new EventStreamCodec(
  (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8'),
  (text: string) => new Uint8Array(Buffer.from(text, 'utf8')),
);

/** One event-stream frame as ConverseStream sends it. */
export function eventFrame(
  type: string,
  payload: unknown,
  kind: 'event' | 'exception' = 'event',
): Uint8Array {
  return codec.encode({
    headers: {
      ':message-type': { type: 'string', value: kind },
      [kind === 'event' ? ':event-type' : ':exception-type']: { type: 'string', value: type },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: new Uint8Array(Buffer.from(JSON.stringify(payload), 'utf8')),
  });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** The default answer: which turn of the conversation it is and what the visitor said last. */
const echo = (body: BedrockConverseBody) => {
  const last = body.messages[body.messages.length - 1];
  const text = last?.content.map((block) => block.text ?? '').join('') ?? '';
  return `Turn ${Math.ceil(body.messages.length / 2)}: you said ${text.slice(0, 200)}`;
};

function piecesOf(reply: string | string[]): string[] {
  return typeof reply === 'string' ? (reply.match(/\S+\s*/gu) ?? []) : reply;
}

/** Converse's own checks of the conversation: it starts with the user and the roles alternate. */
function checkConversation(body: BedrockConverseBody): void {
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw new AwsHttpError(400, 'ValidationException', 'A conversation must start with a user message.');
  }
  body.messages.forEach((message, index) => {
    const expected = index % 2 === 0 ? 'user' : 'assistant';
    if (message.role !== expected) {
      throw new AwsHttpError(
        400,
        'ValidationException',
        'A conversation must alternate between user and assistant roles.',
      );
    }
    if (!Array.isArray(message.content) || message.content.length === 0) {
      throw new AwsHttpError(400, 'ValidationException', 'The content field in the Message object is empty.');
    }
  });
  const max = body.inferenceConfig?.maxTokens;
  if (max !== undefined && (!Number.isInteger(max) || max < 1)) {
    throw new AwsHttpError(400, 'ValidationException', 'maxTokens must be at least 1.');
  }
}

export async function startBedrockRuntimeServer(
  options: { region?: string; keys?: AwsTestKeys; apiKey?: string } = {},
): Promise<BedrockRuntimeServer> {
  const region = options.region ?? 'us-west-2';
  const keys = options.keys ?? {
    accessKeyId: 'AKIABEDROCKTESTKEY01',
    secretAccessKey: 'bedrock-test-secret-access-key-0123456789',
  };
  const apiKey = options.apiKey ?? 'ABSKbedrock-test-api-key-0123456789abcdefgh';
  const modelId = 'anthropic.claude-3-haiku-20240307-v1:0';
  const signature = createSigV4Verifier({ keys, region, service: 'bedrock' });
  const requests: BedrockFakeRequest[] = [];
  const failures: { failure: BedrockFakeFailure; times: number }[] = [];
  const hanging = new Set<ServerResponse>();
  let baseUrl = '';

  function answerError(response: ServerResponse, error: AwsHttpError): void {
    response.writeHead(error.status, {
      'content-type': 'application/json',
      'x-amzn-errortype': `${error.type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
      'x-amzn-requestid': randomUUID(),
    });
    response.end(JSON.stringify({ message: error.message }));
  }

  async function authenticate(request: IncomingMessage, url: URL, body: string, record: BedrockFakeRequest) {
    const authorization = headerOf(request, 'authorization') ?? '';
    if (authorization.startsWith('Bearer ')) {
      record.auth = 'bearer';
      if (authorization.slice('Bearer '.length) !== apiKey) {
        throw new AwsHttpError(
          403,
          'AccessDeniedException',
          'Invalid API Key format: Must start with pre-defined prefix',
        );
      }
      return;
    }
    record.auth = authorization ? 'sigv4' : 'none';
    await signature.verify(request, url, body);
  }

  function streamAnswer(response: ServerResponse, pieces: string[], failure: BedrockFakeFailure | null) {
    response.writeHead(200, {
      'content-type': 'application/vnd.amazon.eventstream',
      'x-amzn-requestid': randomUUID(),
    });
    response.write(eventFrame('messageStart', { role: 'assistant', p: 'abc' }));
    pieces.forEach((piece, index) => {
      if (index === 1 && failure === 'stream-cut') return;
      response.write(
        eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: piece }, p: 'ab' }),
      );
    });
    if (failure === 'stream-cut') {
      // The connection drops mid-answer, once the first frames are out: no messageStop, no end of the body.
      setTimeout(() => response.socket?.destroy(), 100);
      return;
    }
    if (failure === 'stream-exception') {
      response.end(
        eventFrame('modelStreamErrorException', { message: 'The model stopped mid-answer.' }, 'exception'),
      );
      return;
    }
    response.write(eventFrame('contentBlockStop', { contentBlockIndex: 0 }));
    response.write(eventFrame('messageStop', { stopReason: 'end_turn' }));
    response.end(
      eventFrame('metadata', {
        usage: { inputTokens: 20, outputTokens: pieces.length, totalTokens: 20 + pieces.length },
        metrics: { latencyMs: 12 },
      }),
    );
  }

  const server: BedrockRuntimeServer = {
    baseUrl: '',
    region,
    modelId,
    keys,
    apiKey,
    requests,
    reply: echo,
    failNext(failure, times = 1) {
      failures.push({ failure, times });
    },
    clearFailures: () => failures.splice(0),
    async close() {
      for (const response of hanging) response.destroy();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', baseUrl);
    const body = await readBody(request);
    const route = /^\/model\/([^/]+)\/(converse|converse-stream)$/u.exec(url.pathname);
    const record: BedrockFakeRequest = {
      path: url.pathname,
      modelId: route?.[1] ? decodeURIComponent(route[1]) : null,
      auth: 'none',
      body: null,
      status: 200,
    };
    requests.push(record);
    let failure: BedrockFakeFailure | null = null;
    const next = failures[0];
    if (next) {
      next.times -= 1;
      if (next.times <= 0) failures.shift();
      failure = next.failure;
    }
    if (failure === 'hang') {
      record.status = 0;
      hanging.add(response);
      return;
    }
    if (typeof failure === 'number') {
      record.status = failure;
      answerError(
        response,
        new AwsHttpError(failure, FAILURE_TYPES[failure], `Refused by the test (${failure}).`),
      );
      return;
    }
    try {
      await authenticate(request, url, body, record);
      if (request.method !== 'POST' || !route) {
        throw new AwsHttpError(404, 'UnknownOperationException', 'Unknown operation.');
      }
      if (record.modelId !== modelId) {
        throw new AwsHttpError(404, 'ResourceNotFoundException', 'The provided model identifier is invalid.');
      }
      let parsed: BedrockConverseBody;
      try {
        parsed = JSON.parse(body || '{}') as BedrockConverseBody;
      } catch {
        throw new AwsHttpError(400, 'SerializationException', 'The body is not JSON.');
      }
      record.body = parsed;
      checkConversation(parsed);
      const made = typeof server.reply === 'function' ? server.reply(parsed) : server.reply;
      const pieces = piecesOf(made);
      if (route[2] === 'converse-stream') {
        streamAnswer(response, pieces, failure);
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID() });
      if (failure === 'malformed') {
        response.end('{"output": {"message": {"role": "assistant", "content": [{"text": "cut');
        return;
      }
      const text = pieces.join('');
      response.end(
        JSON.stringify({
          output: { message: { role: 'assistant', content: [{ text }] } },
          stopReason: 'end_turn',
          usage: { inputTokens: 20, outputTokens: pieces.length, totalTokens: 20 + pieces.length },
          metrics: { latencyMs: 12 },
        }),
      );
    } catch (error) {
      const failed =
        error instanceof AwsHttpError
          ? error
          : new AwsHttpError(500, 'InternalServerException', String(error));
      record.status = failed.status;
      answerError(response, failed);
    }
  }

  const httpServer: Server = createServer((request, response) => {
    void handle(request, response);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  server.baseUrl = baseUrl;
  return server;
}
