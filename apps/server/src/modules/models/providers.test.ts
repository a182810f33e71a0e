import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedWebFetch } from '../../lib/guarded-http/guarded-fetch';
import { createSecretBox } from '../../lib/secret-box';
import {
  type FailureMode,
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
} from '../../test/openai-compatible-server';
import type { ModelRow } from '../../db/schema';
import {
  type ChatModel,
  createChatModel,
  createEmbeddingModel,
  createSpeechModel,
  type EmbeddingModel,
  modelFromRow,
  ProviderError,
} from './providers';
import { loopbackModelFetch } from '../../test/loopback-fetch';

// The test server speaks the OpenAI chat-completions (JSON and SSE streaming) and embeddings protocols.

const API_KEY = 'sk-test-provider-key-9f8e7d6c';
const SHORT_TIMEOUT_MS = 800;
const LONG_TIMEOUT_MS = 20_000;

let server: OpenAICompatibleServer;
beforeAll(async () => {
  server = await startOpenAICompatibleServer({ dimensions: 64 });
});
afterAll(() => server.close());
afterEach(() => {
  server.failure = 'none';
  server.reply = 'The answer is 42 [1].';
  server.requests.length = 0;
});

const chat = (timeoutMs = 5000, baseUrl = server.baseUrl): ChatModel =>
  createChatModel(
    { baseUrl, modelName: 'test-chat', apiKey: API_KEY, timeoutMs, fetch: loopbackModelFetch },
    { maxTokens: 1024, temperature: 0.7 },
  );
const embedder = (dimensions: number | null = 64, timeoutMs = 5000): EmbeddingModel =>
  createEmbeddingModel(
    {
      baseUrl: server.baseUrl,
      modelName: 'test-embed',
      apiKey: API_KEY,
      timeoutMs,
      fetch: loopbackModelFetch,
    },
    dimensions,
  );

async function collect(stream: AsyncIterable<string>): Promise<string[]> {
  const parts: string[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

async function providerFailure(call: () => Promise<unknown>): Promise<{ error: ProviderError; ms: number }> {
  const started = Date.now();
  try {
    await call();
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    expect(String((error as Error).message)).not.toContain(API_KEY);
    return { error: error as ProviderError, ms: Date.now() - started };
  }
  throw new Error('the call succeeded');
}

const cosine = (a: number[], b: number[]) =>
  a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0);

describe('chat model against the local OpenAI-compatible server', () => {
  it('generates: sends system, messages, limits and the key as a Bearer token, and returns text and usage', async () => {
    const result = await chat().generate({
      system: 'Answer from the context only.',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'What is the answer?' },
      ],
      maxTokens: 200,
      temperature: 0.2,
    });
    expect(result.text).toBe('The answer is 42 [1].');
    expect(result.usage.inputTokens).toBe(10);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    const [request] = server.requests;
    expect(request?.path).toBe('/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.body).toMatchObject({
      model: 'test-chat',
      max_tokens: 200,
      temperature: 0.2,
      messages: [
        { role: 'system', content: 'Answer from the context only.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
        { role: 'user', content: 'What is the answer?' },
      ],
    });
  });

  it('uses the model defaults when a call gives no limits', async () => {
    await chat().generate({ messages: [{ role: 'user', content: 'q' }] });
    expect(server.requests[0]?.body).toMatchObject({ max_tokens: 1024, temperature: 0.7 });
  });

  it('streams the deltas in order', async () => {
    server.reply = ['Alpha ', 'beta ', 'gamma ', 'delta.'];
    const parts = await collect(chat().stream({ messages: [{ role: 'user', content: 'go' }] }));
    expect(parts).toEqual(['Alpha ', 'beta ', 'gamma ', 'delta.']);
    expect(server.requests[0]?.body).toMatchObject({ stream: true });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  const cases: Array<[FailureMode, string]> = [
    ['unauthorized', 'provider/unauthorized'],
    ['rate-limited', 'provider/rate-limited'],
    ['server-error', 'provider/error'],
    ['hang', 'provider/timeout'],
    ['malformed-json', 'provider/bad-response'],
  ];
  it.each(cases)('maps %s to %s on generate, within a bounded time', async (mode, code) => {
    server.failure = mode;
    const { error, ms } = await providerFailure(() =>
      chat(SHORT_TIMEOUT_MS).generate({ messages: [{ role: 'user', content: 'q' }] }),
    );
    expect(error.code).toBe(code);
    expect(ms).toBeLessThan(SHORT_TIMEOUT_MS + 2000);
    expect(server.requests).toHaveLength(1);
  });

  it('says the provider refused the key on 401', async () => {
    server.failure = 'unauthorized';
    const { error } = await providerFailure(() =>
      chat().generate({ messages: [{ role: 'user', content: 'q' }] }),
    );
    expect(error.message).toBe('The provider refused the API key.');
  });

  const streamCases: Array<[FailureMode, string]> = [
    ...cases,
    ['garbage-mid-stream', 'provider/bad-response'],
    ['stream-cut', 'provider/unreachable'],
  ];
  it.each(streamCases)('maps %s to %s on stream, within a bounded time', async (mode, code) => {
    server.failure = mode;
    server.reply = ['First ', 'second ', 'third.'];
    const { error, ms } = await providerFailure(() =>
      collect(chat(SHORT_TIMEOUT_MS).stream({ messages: [{ role: 'user', content: 'q' }] })),
    );
    expect(error.code).toBe(code);
    expect(ms).toBeLessThan(SHORT_TIMEOUT_MS + 2000);
  });

  it('names the host it could not connect to', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { error } = await providerFailure(() =>
      chat(5000, `http://127.0.0.1:${port}/v1`).generate({ messages: [{ role: 'user', content: 'q' }] }),
    );
    expect(error.code).toBe('provider/unreachable');
    // On a private address the operator opened, a closed port reads like any other failure.
    expect(error.message).toBe(`Could not fetch from 127.0.0.1:${port}: no HTTP answer came back.`);
  });

  it('calls through the guarded client: a private address is refused before any request, naming the rule', async () => {
    const strict = createGuardedWebFetch();
    const model = createChatModel(
      { baseUrl: server.baseUrl, modelName: 'test-chat', apiKey: API_KEY, timeoutMs: 5000, fetch: strict },
      { maxTokens: 16, temperature: 0 },
    );
    const { error } = await providerFailure(() =>
      model.generate({ messages: [{ role: 'user', content: 'q' }] }),
    );
    expect([error.code, error.fetchCode]).toEqual(['provider/unreachable', 'fetch/blocked-address']);
    expect(error.message).toMatch(/^Refused by the loopback rule: 127\.0\.0\.1 is a loopback address/);
    const streamed = await providerFailure(() =>
      collect(model.stream({ messages: [{ role: 'user', content: 'q' }] })),
    );
    expect(streamed.error.fetchCode).toBe('fetch/blocked-address');
    const speaker = createSpeechModel({
      baseUrl: server.baseUrl,
      modelName: 'tts',
      apiKey: API_KEY,
      timeoutMs: 5000,
      fetch: strict,
    });
    const spoken = await providerFailure(() => speaker.speak('hello'));
    expect(spoken.error.fetchCode).toBe('fetch/blocked-address');
    expect(server.requests).toHaveLength(0);
  });

  it('stops when the caller aborts', async () => {
    server.failure = 'hang';
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { ms } = await providerFailure(() =>
      chat(LONG_TIMEOUT_MS).generate({
        messages: [{ role: 'user', content: 'q' }],
        signal: controller.signal,
      }),
    );
    // Before the time limit, which is what a call ignoring the abort would wait for.
    expect(ms).toBeLessThan(LONG_TIMEOUT_MS);
  });
});

describe('embedding model against the local OpenAI-compatible server', () => {
  it('embeds in order with the configured dimensions, normalised, and sends the key as a Bearer token', async () => {
    const vectors = await embedder(32).embed(['refund policy', 'shipping times', 'refund policy']);
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) {
      expect(vector).toHaveLength(32);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 6);
    }
    expect(vectors[0]).toEqual(vectors[2]);
    expect(server.requests[0]?.body).toMatchObject({ model: 'test-embed', dimensions: 32 });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('gives similar texts closer vectors than unrelated ones', async () => {
    const [query, near, far] = await embedder(256).embed([
      'How do I get a refund for my order?',
      'Refunds for orders are issued within 14 days.',
      'Our office is closed on public holidays.',
    ]);
    expect(cosine(query ?? [], near ?? [])).toBeGreaterThan(cosine(query ?? [], far ?? []) + 0.2);
  });

  it('refuses vectors that do not have the configured dimensions', async () => {
    server.failure = 'wrong-dimensions';
    const { error } = await providerFailure(() => embedder(48).embed(['a', 'b']));
    expect(error.code).toBe('provider/bad-response');
    expect(error.message).toContain('48 dimensions');
  });

  it('takes the provider size when none is configured, and sends none', async () => {
    const [vector] = await embedder(null).embed(['a b c']);
    expect(vector).toHaveLength(64);
    expect(server.requests[0]?.body).not.toHaveProperty('dimensions');
  });

  it.each([
    ['unauthorized', 'provider/unauthorized'],
    ['rate-limited', 'provider/rate-limited'],
    ['server-error', 'provider/error'],
    ['hang', 'provider/timeout'],
    ['malformed-json', 'provider/bad-response'],
  ] as Array<[FailureMode, string]>)('maps %s to %s, within a bounded time', async (mode, code) => {
    server.failure = mode;
    const { error, ms } = await providerFailure(() => embedder(64, SHORT_TIMEOUT_MS).embed(['x']));
    expect(error.code).toBe(code);
    expect(ms).toBeLessThan(SHORT_TIMEOUT_MS + 2000);
  });
});

describe('modelFromRow', () => {
  const box = createSecretBox('installation-secret-for-provider-tests', 'model-api-key');
  const row = (overrides: Partial<ModelRow>): ModelRow => ({
    id: '00000000-0000-4000-8000-000000000001',
    tenantId: 'platform',
    name: 'Test',
    kind: 'chat',
    baseUrl: server.baseUrl,
    modelName: 'test-chat',
    apiKeyEncrypted: box.encrypt(API_KEY),
    apiKeyLast4: API_KEY.slice(-4),
    maxTokens: 321,
    temperature: 0.4,
    dimensions: null,
    sharedWithAll: false,
    createdBy: null,
    updatedBy: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...overrides,
  });

  it('decrypts the key and applies the row limits to a chat model', async () => {
    const model = modelFromRow(row({}), box, { fetch: loopbackModelFetch });
    if (model.kind !== 'chat') throw new Error('expected a chat model');
    await model.chat.generate({ messages: [{ role: 'user', content: 'q' }] });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(server.requests[0]?.body).toMatchObject({ max_tokens: 321, temperature: 0.4 });
  });

  it('builds an embedding model with the row dimensions, and sends no Authorization without a key', async () => {
    const model = modelFromRow(row({ kind: 'embedding', apiKeyEncrypted: null, dimensions: 24 }), box, {
      fetch: loopbackModelFetch,
    });
    if (model.kind !== 'embedding') throw new Error('expected an embedding model');
    expect(model.embedding.dimensions).toBe(24);
    const [vector] = await model.embedding.embed(['hello world']);
    expect(vector).toHaveLength(24);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });
});
