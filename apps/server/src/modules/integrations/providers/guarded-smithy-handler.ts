import type {
  HttpHandlerOptions,
  HttpRequest,
  HttpResponse,
  QueryParameterBag,
  RequestHandler,
} from '@smithy/types';
import type { GuardedWebFetch } from '../../../lib/guarded-http/guarded-fetch';

/** A request the AWS SDK sent that got no answer within its time limit. */
export class RequestTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`No answer within ${Math.round(timeoutMs / 100) / 10} s.`);
    this.name = 'RequestTimeoutError';
  }
}

/** An answer larger than the handler accepts (AWS chat API answers are a few kilobytes). */
export class ResponseTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The answer is larger than ${maxBytes} bytes.`);
    this.name = 'ResponseTooLargeError';
  }
}

// The AWS SDK encodes query strings as RFC 3986 does, which encodeURIComponent leaves four characters short of.
const escape = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/gu, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function queryOf(query: QueryParameterBag | undefined): string {
  const parts: string[] = [];
  for (const key of Object.keys(query ?? {}).sort()) {
    const value = query?.[key];
    if (value === null || value === undefined) parts.push(escape(key));
    else
      for (const one of Array.isArray(value) ? value : [value]) parts.push(`${escape(key)}=${escape(one)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let received = 0;
  // Leaving the loop early cancels the stream, which closes the connection.
  for await (const value of response.body as AsyncIterable<Uint8Array>) {
    received += value.byteLength;
    if (received > maxBytes) throw new ResponseTooLargeError(maxBytes);
    chunks.push(value);
  }
  const body = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

const EVENT_STREAM_TYPE = 'application/vnd.amazon.eventstream';

/**
 * An event-stream body as the SDK's event-stream reader takes it (an async iterable of bytes), capped at `maxBytes`
 * in all; the request's deadline cutting it off is a RequestTimeoutError.
 */
async function* streamCapped(
  response: Response,
  maxBytes: number,
  timedOut: () => boolean,
  timeoutMs: number,
): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  let received = 0;
  try {
    for await (const value of response.body as AsyncIterable<Uint8Array>) {
      received += value.byteLength;
      if (received > maxBytes) throw new ResponseTooLargeError(maxBytes);
      yield value;
    }
  } catch (error) {
    if (timedOut()) throw new RequestTimeoutError(timeoutMs);
    throw error;
  }
}

/**
 * The AWS SDK's request handler over the guarded HTTP client: every request a client with this handler sends goes
 * through the guarded client's address policy (a tenant's endpoint override is a tenant-supplied address), within
 * `requestTimeoutMs` for the whole exchange, its answer read whole and capped at `maxBytes` (an event stream is
 * handed on as it arrives, within the same limits).
 */
export class GuardedSmithyHandler implements RequestHandler<HttpRequest, HttpResponse, HttpHandlerOptions> {
  constructor(
    private readonly fetch: GuardedWebFetch,
    private readonly limits: { requestTimeoutMs: number; maxBytes: number },
  ) {}

  async handle(request: HttpRequest, options: HttpHandlerOptions = {}): Promise<{ response: HttpResponse }> {
    const timeoutMs = options.requestTimeout ?? this.limits.requestTimeoutMs;
    const deadline = AbortSignal.timeout(timeoutMs);
    const caller = options.abortSignal instanceof AbortSignal ? options.abortSignal : undefined;
    const signal = caller ? AbortSignal.any([deadline, caller]) : deadline;
    const port = request.port ? `:${request.port}` : '';
    const url = `${request.protocol}//${request.hostname}${port}${request.path}${queryOf(request.query)}`;
    const method = request.method.toUpperCase();
    const body = method === 'GET' || method === 'HEAD' ? undefined : (request.body as RequestInit['body']);
    try {
      const response = await this.fetch(url, { method, headers: request.headers, body, signal });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      // An event stream (Bedrock's ConverseStream) is handed on as it arrives; every other answer is read whole.
      const answer =
        response.ok && headers['content-type']?.startsWith(EVENT_STREAM_TYPE)
          ? streamCapped(
              response,
              this.limits.maxBytes,
              () => deadline.aborted && !caller?.aborted,
              timeoutMs,
            )
          : await readCapped(response, this.limits.maxBytes);
      return {
        response: { statusCode: response.status, reason: response.statusText, headers, body: answer },
      };
    } catch (error) {
      if (deadline.aborted && !caller?.aborted) throw new RequestTimeoutError(timeoutMs);
      throw error;
    }
  }

  updateHttpClientConfig(): void {
    // The limits are fixed when the handler is made.
  }

  httpHandlerConfigs(): Record<string, never> {
    return {};
  }

  destroy(): void {
    // Nothing is pooled: the guarded client opens one connection per request.
  }
}
