import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  APICallError,
  EmptyResponseBodyError,
  embedMany,
  generateText,
  InvalidResponseDataError,
  JSONParseError,
  NoContentGeneratedError,
  type ModelMessage,
  RetryError,
  streamText,
  TypeValidationError,
} from 'ai';
import type { ModelRow } from '../../db/schema';
import { FetchError, type GuardedWebFetch } from '../../lib/guarded-http/guarded-fetch';
import type { SecretBox } from '../../lib/secret-box';

export type ProviderErrorCode =
  | 'provider/unauthorized'
  | 'provider/unreachable'
  | 'provider/timeout'
  | 'provider/bad-response'
  | 'provider/rate-limited'
  | 'provider/error';

/** A model call that failed, with a message in plain words that never contains the API key. */
export class ProviderError extends Error {
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
    /** The guarded client's code when it refused or failed the call (fetch/blocked-address, ...). */
    readonly fetchCode: string | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  system?: string;
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

export interface ChatUsage {
  inputTokens: number | null;
  outputTokens: number | null;
}

export interface ChatModel {
  generate(request: ChatRequest): Promise<{ text: string; usage: ChatUsage }>;
  /** Text deltas in order; throws ProviderError when the call or the stream fails. */
  stream(request: ChatRequest): AsyncIterable<string>;
}

export interface EmbeddingModel {
  /** One vector per text, in order. */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
  /** The configured vector length, or null when the provider decides. */
  readonly dimensions: number | null;
}

export interface ConnectionSettings {
  baseUrl: string;
  modelName: string;
  apiKey: string | null;
  /** Upper bound of one whole call (a stream included). */
  timeoutMs: number;
  /** The guarded client every call goes through: a model's address is one a tenant supplies. */
  fetch: GuardedWebFetch;
}

const DEFAULT_TIMEOUT_MS = 60_000;

const hostOf = (baseUrl: string) => {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
};

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'Could not connect to {host}.',
  ENOTFOUND: 'The provider address {host} does not resolve.',
  EAI_AGAIN: 'The provider address {host} does not resolve.',
  ECONNRESET: 'The connection to {host} was reset.',
  EHOSTUNREACH: 'Could not connect to {host}.',
  ENETUNREACH: 'Could not connect to {host}.',
  UND_ERR_SOCKET: 'The connection to {host} was closed unexpectedly.',
  UND_ERR_CONNECT_TIMEOUT: 'Could not connect to {host}.',
  CERT_HAS_EXPIRED: 'The TLS certificate of {host} has expired.',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'The TLS certificate of {host} is not trusted.',
  SELF_SIGNED_CERT_IN_CHAIN: 'The TLS certificate of {host} is not trusted.',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'The TLS certificate of {host} is not trusted.',
  ERR_TLS_CERT_ALTNAME_INVALID: 'The TLS certificate does not match {host}.',
};

/** Every error in a cause chain (AI SDK errors wrap fetch errors, which wrap socket errors). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth += 1) {
    chain.push(current);
    if (RetryError.isInstance(current)) current = current.lastError;
    else current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined;
  }
  return chain;
}

/** A provider's refusal (HTTP status 400 or above) in plain words. */
function providerErrorOfStatus(status: number): ProviderError {
  if (status === 401 || status === 403) {
    return new ProviderError('provider/unauthorized', 'The provider refused the API key.');
  }
  if (status === 429) {
    return new ProviderError(
      'provider/rate-limited',
      'The provider is rate-limiting requests; try again later.',
    );
  }
  if (status === 404) {
    return new ProviderError(
      'provider/error',
      'The provider does not know this model or address (404); check the base URL and the model name.',
    );
  }
  return new ProviderError('provider/error', `The provider answered with an error (HTTP ${status}).`);
}

/** Turns whatever a provider call threw into a ProviderError in plain words. */
function toProviderError(error: unknown, baseUrl: string, timedOut: boolean): ProviderError {
  if (error instanceof ProviderError) return error;
  const host = hostOf(baseUrl);
  if (timedOut) return new ProviderError('provider/timeout', `${host} did not answer in time.`);
  const chain = causes(error);
  // The guarded client's refusal or failure already says, in plain words, which rule or what went wrong.
  const refused = chain.find((entry) => entry instanceof FetchError);
  if (refused) {
    return new ProviderError(
      refused.code === 'fetch/timeout' ? 'provider/timeout' : 'provider/unreachable',
      refused.reason,
      refused.code,
    );
  }
  const apiError = chain.find((entry) => APICallError.isInstance(entry));
  const status = apiError?.statusCode;
  if (status !== undefined && status >= 400) return providerErrorOfStatus(status);
  for (const entry of chain) {
    const code = typeof entry === 'object' && entry !== null ? (entry as { code?: unknown }).code : undefined;
    const template = typeof code === 'string' ? NETWORK_CODES[code] : undefined;
    if (template) return new ProviderError('provider/unreachable', template.replace('{host}', host));
  }
  const malformed = [JSONParseError, TypeValidationError, InvalidResponseDataError, EmptyResponseBodyError];
  if (
    chain.some(
      (entry) =>
        malformed.some((kind) => kind.isInstance(entry)) || NoContentGeneratedError.isInstance(entry),
    )
  ) {
    return new ProviderError(
      'provider/bad-response',
      `${host} sent an answer that is not valid model output.`,
    );
  }
  if (apiError) {
    // A fetch failure without a known socket code ("Cannot connect to API: terminated", "other side closed").
    return new ProviderError('provider/unreachable', `The connection to ${host} failed.`);
  }
  return new ProviderError('provider/error', `The call to ${host} failed.`);
}

/** Runs `call` under the caller's signal and a time limit; any failure becomes a ProviderError. */
async function bounded<T>(
  settings: ConnectionSettings,
  signal: AbortSignal | undefined,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    return await call(combined);
  } catch (error) {
    throw toProviderError(error, settings.baseUrl, timeout.aborted);
  }
}

function provider(settings: ConnectionSettings) {
  return createOpenAICompatible({
    name: 'omnibot',
    baseURL: settings.baseUrl.replace(/\/+$/u, ''),
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
    includeUsage: true,
    fetch: settings.fetch,
  });
}

const toMessages = (messages: ChatMessage[]): ModelMessage[] =>
  messages.map((message) => ({ role: message.role, content: message.content }));

export function createChatModel(
  settings: ConnectionSettings,
  defaults: { maxTokens: number; temperature: number },
): ChatModel {
  const model = provider(settings).chatModel(settings.modelName);
  const options = (request: ChatRequest, abortSignal: AbortSignal) => ({
    model,
    ...(request.system === undefined ? {} : { system: request.system }),
    messages: toMessages(request.messages),
    maxOutputTokens: request.maxTokens ?? defaults.maxTokens,
    temperature: request.temperature ?? defaults.temperature,
    maxRetries: 0,
    abortSignal,
  });
  return {
    generate: (request) =>
      bounded(settings, request.signal, async (abortSignal) => {
        const result = await generateText(options(request, abortSignal));
        return {
          text: result.text,
          usage: {
            inputTokens: result.usage.inputTokens ?? null,
            outputTokens: result.usage.outputTokens ?? null,
          },
        };
      }),
    async *stream(request) {
      const timeout = AbortSignal.timeout(settings.timeoutMs);
      const abortSignal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
      const fail = (error: unknown) => toProviderError(error, settings.baseUrl, timeout.aborted);
      let finished = false;
      try {
        // Errors arrive as stream parts; onError is silenced so the SDK never prints them.
        const result = streamText({ ...options(request, abortSignal), onError: () => undefined });
        for await (const part of result.fullStream) {
          if (part.type === 'text-delta') {
            if (part.text) yield part.text;
          } else if (part.type === 'error') {
            throw fail(part.error);
          } else if (part.type === 'abort') {
            throw fail(new Error('aborted'));
          } else if (part.type === 'finish') {
            finished = part.finishReason !== 'error' && part.finishReason !== 'other';
          }
        }
      } catch (error) {
        throw fail(error);
      }
      if (!finished) {
        throw new ProviderError(
          'provider/bad-response',
          `The answer from ${hostOf(settings.baseUrl)} ended before it was complete.`,
        );
      }
    },
  };
}

export function createEmbeddingModel(
  settings: ConnectionSettings,
  dimensions: number | null,
): EmbeddingModel {
  const model = provider(settings).embeddingModel(settings.modelName);
  return {
    dimensions,
    embed: (texts, signal) =>
      bounded(settings, signal, async (abortSignal) => {
        if (texts.length === 0) return [];
        const { embeddings } = await embedMany({
          model,
          values: texts,
          maxRetries: 0,
          abortSignal,
          ...(dimensions === null ? {} : { providerOptions: { omnibot: { dimensions } } }),
        });
        const expected = dimensions ?? embeddings[0]?.length ?? 0;
        const valid =
          embeddings.length === texts.length &&
          expected > 0 &&
          embeddings.every(
            (vector) => vector.length === expected && vector.every((value) => Number.isFinite(value)),
          );
        if (!valid) {
          throw new ProviderError(
            'provider/bad-response',
            dimensions === null
              ? `${hostOf(settings.baseUrl)} sent embeddings of inconsistent sizes.`
              : `${hostOf(settings.baseUrl)} sent embeddings that do not have ${dimensions} dimensions.`,
          );
        }
        return embeddings;
      }),
  };
}

/** Audio of a text read aloud (OpenAI-compatible `POST {base}/audio/speech`). */
export interface SpeechModel {
  /** MP3 bytes; throws ProviderError when the call fails or the audio is larger than `SPEECH_MAX_BYTES`. */
  speak(text: string, signal?: AbortSignal): Promise<Buffer>;
}

/** The longest audio accepted from a speech provider (4000 characters of speech are well under it). */
const SPEECH_MAX_BYTES = 8 * 1024 * 1024;
/** The voice asked for: every OpenAI-compatible speech server knows OpenAI's voice names. */
const SPEECH_VOICE = 'alloy';

/** Reads a response body up to `maxBytes`; more is a ProviderError, not a growing buffer. */
async function readCapped(response: Response, maxBytes: number, host: string): Promise<Buffer> {
  const tooLarge = () =>
    new ProviderError(
      'provider/bad-response',
      `${host} sent more audio than the limit of ${maxBytes} bytes.`,
    );
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let received = 0;
  const reader = (response.body as ReadableStream<Uint8Array> | null)?.getReader();
  for (;;) {
    const next = reader ? await reader.read() : { done: true as const };
    if (next.done) break;
    const chunk: Uint8Array = next.value;
    received += chunk.length;
    if (received > maxBytes) {
      await reader?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

export function createSpeechModel(settings: ConnectionSettings, maxBytes = SPEECH_MAX_BYTES): SpeechModel {
  const host = hostOf(settings.baseUrl);
  const endpoint = `${settings.baseUrl.replace(/\/+$/u, '')}/audio/speech`;
  return {
    speak: (text, signal) =>
      bounded(settings, signal, async (abortSignal) => {
        const response = await settings.fetch(endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'audio/mpeg',
            ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
          },
          body: JSON.stringify({
            model: settings.modelName,
            input: text,
            voice: SPEECH_VOICE,
            response_format: 'mp3',
          }),
          signal: abortSignal,
        });
        if (response.status >= 400) {
          await response.body?.cancel();
          throw providerErrorOfStatus(response.status);
        }
        const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
        if (!type.startsWith('audio/') && type !== 'application/octet-stream') {
          await response.body?.cancel();
          throw new ProviderError('provider/bad-response', `${host} did not send audio.`);
        }
        const audio = await readCapped(response, maxBytes, host);
        if (audio.length === 0) throw new ProviderError('provider/bad-response', `${host} sent no audio.`);
        return audio;
      }),
  };
}

export type ProviderModel =
  | { kind: 'chat'; chat: ChatModel }
  | { kind: 'embedding'; embedding: EmbeddingModel }
  | { kind: 'speech'; speech: SpeechModel };

/** The callable model of a stored row, with its API key decrypted. */
export function modelFromRow(
  row: ModelRow,
  secretBox: SecretBox,
  options: { timeoutMs?: number; fetch: GuardedWebFetch },
): ProviderModel {
  const settings: ConnectionSettings = {
    baseUrl: row.baseUrl,
    modelName: row.modelName,
    apiKey: row.apiKeyEncrypted === null ? null : secretBox.decrypt(row.apiKeyEncrypted),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    fetch: options.fetch,
  };
  if (row.kind === 'embedding') {
    return { kind: 'embedding', embedding: createEmbeddingModel(settings, row.dimensions) };
  }
  if (row.kind === 'speech') return { kind: 'speech', speech: createSpeechModel(settings) };
  return {
    kind: 'chat',
    chat: createChatModel(settings, { maxTokens: row.maxTokens, temperature: row.temperature }),
  };
}
