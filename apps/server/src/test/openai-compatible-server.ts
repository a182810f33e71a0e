/**
 * A local model server for tests. It speaks the OpenAI HTTP protocol that OpenAI-compatible providers share:
 * `POST /chat/completions` (a JSON completion, or Server-Sent Events of `chat.completion.chunk` deltas ending
 * with `data: [DONE]` when `stream: true`), `POST /embeddings` (deterministic vectors: a hashed bag of
 * lower-cased, crudely stemmed words, L2-normalised, so texts sharing words get close vectors) and
 * `POST /audio/speech` (`{model, input, voice}` -> audio/mpeg bytes: MPEG frame headers followed by the digest
 * of the input, so each text has its own audio). It records every request and can be switched into failure modes
 * (401, 429, 500, hang, malformed JSON, malformed or cut streams, embeddings of the wrong size, speech that is
 * not audio or is endless).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FailureMode =
  | 'none'
  | 'unauthorized'
  | 'rate-limited'
  | 'server-error'
  | 'hang'
  | 'malformed-json'
  | 'garbage-mid-stream'
  | 'stream-cut'
  | 'wrong-dimensions'
  | 'not-audio'
  | 'endless-audio';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface OpenAICompatibleServer {
  /** Base URL to configure a model with, e.g. http://127.0.0.1:1234/v1. */
  baseUrl: string;
  host: string;
  requests: RecordedRequest[];
  failure: FailureMode;
  /** The answer of every chat completion; streamed in the pieces given, or word by word from a string. */
  reply: string | string[];
  dimensions: number;
  /** Awaited for every request before it is answered, e.g. to look at the database between two calls. */
  beforeAnswer: ((request: RecordedRequest) => Promise<void>) | null;
  close(): Promise<void>;
}

/** Words reduced to a rough stem, so "refunds", "refunded" and "refund" land in the same dimension. */
function stemWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((word) => word.length > 1)
    .map((word) => word.replace(/(ing|ed|es|s)$/u, '') || word);
}

/** The audio the server answers for `input`: two MPEG-1 Layer III frame headers and the digest of the input. */
export function testSpeech(input: string): Buffer {
  const frame = Buffer.from([0xff, 0xfb, 0x90, 0x64]);
  return Buffer.concat([frame, createHash('sha256').update(input).digest(), frame]);
}

/** The deterministic embedding the server answers: hashed bag of stems, L2-normalised (a zero text gives zeros). */
function testEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const stem of stemWords(text)) {
    const digest = createHash('sha256').update(stem).digest();
    const slot = digest.readUInt32BE(0) % dimensions;
    vector[slot] = (vector[slot] ?? 0) + ((digest[4] ?? 0) & 1 ? 1 : -1);
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

const errorBody = (message: string, type: string) => ({ error: { message, type, code: type } });

function pieces(reply: string | string[]): string[] {
  return typeof reply === 'string' ? reply.split(/(?<= )/u) : reply;
}

export async function startOpenAICompatibleServer(
  options: { dimensions?: number; reply?: string | string[] } = {},
): Promise<OpenAICompatibleServer> {
  const hanging = new Set<ServerResponse>();
  const state: OpenAICompatibleServer = {
    baseUrl: '',
    host: '',
    requests: [],
    failure: 'none',
    reply: options.reply ?? 'The answer is 42 [1].',
    dimensions: options.dimensions ?? 64,
    beforeAnswer: null,
    close: () => Promise.resolve(),
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const path = (request.url ?? '').replace(/^\/v1/u, '');
      const recorded = { method: request.method ?? '', path, headers: request.headers, body };
      state.requests.push(recorded);
      await state.beforeAnswer?.(recorded);
      const payload = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;

      switch (state.failure) {
        case 'unauthorized':
          return json(response, 401, errorBody('Incorrect API key provided.', 'invalid_api_key'));
        case 'rate-limited':
          return json(response, 429, errorBody('Rate limit reached.', 'rate_limit_exceeded'));
        case 'server-error':
          return json(response, 500, errorBody('The server had an error.', 'server_error'));
        case 'hang':
          hanging.add(response);
          response.on('close', () => hanging.delete(response));
          return;
        case 'malformed-json':
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end('{"id": "x", "choices": [ {"message": ');
          return;
        default:
          break;
      }

      if (request.method === 'POST' && path === '/embeddings') {
        const input = payload.input;
        const texts = Array.isArray(input) ? input.map(String) : [String(input)];
        const requested = typeof payload.dimensions === 'number' ? payload.dimensions : state.dimensions;
        const dimensions = state.failure === 'wrong-dimensions' ? requested + 1 : requested;
        return json(response, 200, {
          object: 'list',
          model: payload.model,
          data: texts.map((text, index) => ({
            object: 'embedding',
            index,
            embedding: testEmbedding(text, dimensions),
          })),
          usage: { prompt_tokens: texts.length, total_tokens: texts.length },
        });
      }

      if (request.method === 'POST' && path === '/audio/speech') {
        if (typeof payload.input !== 'string' || typeof payload.voice !== 'string') {
          return json(response, 400, errorBody('input and voice are required.', 'invalid_request_error'));
        }
        if (state.failure === 'not-audio') return json(response, 200, { audio: 'none' });
        if (state.failure === 'endless-audio') {
          response.writeHead(200, { 'content-type': 'audio/mpeg' });
          const chunk = Buffer.alloc(64 * 1024, 0xff);
          const pump = () => {
            while (!response.destroyed && response.write(chunk));
            if (!response.destroyed) response.once('drain', pump);
          };
          return pump();
        }
        const audio = testSpeech(payload.input);
        response.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(audio.length) });
        response.end(audio);
        return;
      }

      if (request.method === 'POST' && path === '/chat/completions') {
        const parts = pieces(state.reply);
        const text = parts.join('');
        const usage = { prompt_tokens: 10, completion_tokens: parts.length, total_tokens: 10 + parts.length };
        if (payload.stream !== true) {
          return json(response, 200, {
            id: 'chatcmpl-test',
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: payload.model,
            choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
            usage,
          });
        }
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
          `data: ${JSON.stringify({
            id: 'chatcmpl-test',
            object: 'chat.completion.chunk',
            created: Math.floor(Date.now() / 1000),
            model: payload.model,
            choices: [{ index: 0, delta, finish_reason: finish }],
          })}\n\n`;
        response.write(chunk({ role: 'assistant', content: '' }));
        for (const [index, part] of parts.entries()) {
          response.write(chunk({ content: part }));
          if (index === 0 && state.failure === 'garbage-mid-stream') {
            response.end('data: {"choices": [{"delta": {"content": \n\n');
            return;
          }
          if (index === 0 && state.failure === 'stream-cut') {
            response.destroy();
            return;
          }
        }
        response.write(chunk({}, 'stop'));
        response.write(`data: ${JSON.stringify({ id: 'chatcmpl-test', choices: [], usage })}\n\n`);
        response.end('data: [DONE]\n\n');
        return;
      }

      json(response, 404, errorBody(`No route for ${request.method} ${path}`, 'not_found'));
    })();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.host = `127.0.0.1:${port}`;
  state.baseUrl = `http://${state.host}/v1`;
  state.close = async () => {
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
