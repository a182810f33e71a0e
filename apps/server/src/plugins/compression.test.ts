/**
 * What the server sends compressed, against the real app (PGlite, or PostgreSQL with TEST_DATABASE_URL): built files
 * by their brotli and gzip copies, a bot's generated loader, JSON answers above the threshold, and server-sent events
 * never. Each test app gets small build folders of its own, with the copies the build writes beside each file.
 * The event-stream test reads over a real socket (Node's fetch), the model answering through a local server that
 * speaks the OpenAI chat-completions protocol.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { BotSchema } from '@omnibot/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, injectAs, type TestApp } from '../test/app';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '../test/openai-compatible-server';
import { makeOmniragTenants } from '../modules/accounts/accounts.fixtures';
import { makeChatModel, makeIndex, makeKnowledge, parseEvents } from '../modules/rag/rags.test-support';
import { BOOT_TOKEN } from '../modules/widget/widget-files';

/** Some kilobytes of script that compress well, as a bundle does. */
const script = (name: string) =>
  Array.from(
    { length: 200 },
    (_, n) => `export function ${name}${n}(value) { return value * ${n} + 1; }\n`,
  ).join('');
const LOADER = `(function(){var embedded = '${BOOT_TOKEN}';\n${script('loader')}})();\n`;
const APP_HTML =
  '<!doctype html><html><head><script type="module" src="/widget/assets/app-3f9a1c.js"></script></head><body><div id="root"></div></body></html>';
const WIDGET_ASSET = script('chat');
const CONSOLE_ASSET = script('console');
const CONSOLE_INDEX = '<html><head><!--omnibot-config--><title>x</title></head><body>console</body></html>';

let t: TestApp;
let model: OpenAICompatibleServer;
const dirs: string[] = [];
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'compress-a', b: 'compress-b', noRag: 'compress-norag' };
const refs = { rag: '' };

/** A build file with the brotli and gzip copies the build step writes beside it. */
function writeBuilt(file: string, content: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  writeFileSync(`${file}.br`, brotliCompressSync(content));
  writeFileSync(`${file}.gz`, gzipSync(content));
}

function decoded(response: LightMyRequestResponse): string {
  const raw = response.rawPayload;
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(raw).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(raw).toString('utf8');
  expect(encoding).toBeUndefined();
  return raw.toString('utf8');
}

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({ method, url, headers });

const varies = (response: LightMyRequestResponse) =>
  String(response.headers.vary ?? '')
    .toLowerCase()
    .split(/,\s*/u)
    .includes('accept-encoding');

beforeAll(async () => {
  const widgetDir = mkdtempSync(path.join(tmpdir(), 'omnibot-widget-'));
  const consoleDir = mkdtempSync(path.join(tmpdir(), 'omnibot-console-'));
  dirs.push(widgetDir, consoleDir);
  writeFileSync(path.join(widgetDir, 'widget.js'), LOADER);
  mkdirSync(path.join(widgetDir, 'app'));
  writeFileSync(path.join(widgetDir, 'app', 'index.html'), APP_HTML);
  writeBuilt(path.join(widgetDir, 'app', 'assets', 'app-3f9a1c.js'), WIDGET_ASSET);
  writeFileSync(path.join(consoleDir, 'index.html'), CONSOLE_INDEX);
  writeBuilt(path.join(consoleDir, 'assets', 'index-77ab01.js'), CONSOLE_ASSET);
  t = await createTestApp({
    widgetDir,
    consoleDir,
    env: { FETCH_ALLOW_ADDRESSES: '127.0.0.1' },
  });
  model = await startOpenAICompatibleServer({ reply: 'Parcels arrive in three working days [1].' });
  Object.assign(who, await makeOmniragTenants(t, ids));
  const kb = await makeKnowledge(t, who.alice, 'Help', [
    { type: 'text', title: 'Shipping', text: 'Delivery of parcels takes three working days in Europe.' },
  ]);
  const chat = await makeChatModel(t, {
    name: 'Local',
    base_url: model.baseUrl,
    api_key: 'sk-local-test-key',
    tenant_ids: [ids.a],
  });
  const rag = await injectAs(t, 'POST', '/v1/rags', who.alice, {
    name: 'Help',
    index_id: await makeIndex(t, ids.a, 'Main', [kb.id]),
    model_id: chat.id,
  });
  expect(rag.statusCode, rag.body).toBe(201);
  refs.rag = rag.json<{ id: string }>().id;
});

afterAll(async () => {
  await model.close();
  await t.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.each([
  ['the chat app', '/widget/assets/app-3f9a1c.js', WIDGET_ASSET],
  ['the console', '/assets/index-77ab01.js', CONSOLE_ASSET],
])('built files of %s', (_name, url, content) => {
  it('are sent as their brotli copy, else gzip, else as they are, each with its type, length and ETag', async () => {
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await get(url, { 'accept-encoding': 'gzip, deflate' });
    const identity = await get(url);
    const none = await get(url, { 'accept-encoding': 'identity' });
    expect([br, gzip, identity, none].map((response) => response.statusCode)).toEqual([200, 200, 200, 200]);
    expect([br, gzip, identity, none].map((response) => response.headers['content-encoding'])).toEqual([
      'br',
      'gzip',
      undefined,
      undefined,
    ]);
    for (const response of [br, gzip, identity, none]) {
      expect(decoded(response)).toBe(content);
      expect(response.headers['content-type']).toBe(identity.headers['content-type']);
      expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/u);
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(varies(response)).toBe(true);
    }
    expect(br.rawPayload.length).toBeLessThan(gzip.rawPayload.length);
    expect(gzip.rawPayload.length).toBeLessThan(content.length / 4);
    expect(new Set([br.headers.etag, gzip.headers.etag, identity.headers.etag]).size).toBe(3);
    // Brotli is preferred unless the client weighs it lower or refuses it.
    expect((await get(url, { 'accept-encoding': 'br;q=0.5, gzip' })).headers['content-encoding']).toBe(
      'gzip',
    );
    expect((await get(url, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
  });

  it('revalidate per encoding, answer HEAD with the encoded length, and serve ranges of what is sent', async () => {
    const br = await get(url, { 'accept-encoding': 'br' });
    const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.statusCode).toBe(304);
    const otherEncoding = await get(url, {
      'accept-encoding': 'gzip',
      'if-none-match': String(br.headers.etag),
    });
    expect(otherEncoding.statusCode).toBe(200);
    expect(otherEncoding.headers['content-encoding']).toBe('gzip');

    const head = await get(url, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(String(br.rawPayload.length));
    expect(head.rawPayload.length).toBe(0);

    const part = await get(url, { range: 'bytes=7-26' });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe(content.slice(7, 27));
    expect(part.headers['content-range']).toBe(`bytes 7-26/${content.length}`);
    const encodedPart = await get(url, { range: 'bytes=0-9', 'accept-encoding': 'br' });
    expect(encodedPart.statusCode).toBe(206);
    expect(encodedPart.headers['content-encoding']).toBe('br');
    expect(encodedPart.rawPayload).toEqual(br.rawPayload.subarray(0, 10));
    expect(encodedPart.headers['content-range']).toBe(`bytes 0-9/${br.rawPayload.length}`);
  });
});

describe('GET /widget.js?bot=', () => {
  it('sends the bot’s loader compressed by Accept-Encoding, with an ETag and a 304 per encoding', async () => {
    const created = await injectAs(t, 'POST', '/v1/bots', who.alice, { name: 'Shop', config: {} });
    expect(created.statusCode, created.body).toBe(201);
    const bot = BotSchema.parse(created.json());
    const url = `/widget.js?bot=${bot.id}`;
    const identity = await get(url);
    const br = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await get(url, { 'accept-encoding': 'gzip' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toContain(bot.id);
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    for (const response of [identity, br, gzip]) {
      expect(response.statusCode).toBe(200);
      expect(decoded(response)).toBe(identity.body);
      expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      expect(varies(response)).toBe(true);
    }
    expect(br.rawPayload.length).toBeLessThan(identity.body.length / 4);
    expect(new Set([identity.headers.etag, br.headers.etag, gzip.headers.etag]).size).toBe(3);

    const revalidated = await get(url, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
    expect(varies(revalidated)).toBe(true);
    const otherEncoding = await get(url, {
      'accept-encoding': 'gzip',
      'if-none-match': String(br.headers.etag),
    });
    expect(otherEncoding.statusCode).toBe(200);
    const head = await get(url, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(String(br.rawPayload.length));
  });
});

describe('JSON answers', () => {
  it('are compressed above the threshold with Vary, and sent as they are below it', async () => {
    const large = await get('/docs/json', { 'accept-encoding': 'gzip, br' });
    expect(large.statusCode).toBe(200);
    expect(large.headers['content-type']).toContain('application/json');
    expect(large.headers['content-encoding']).toBe('br');
    expect(varies(large)).toBe(true);
    const document = JSON.parse(decoded(large)) as { openapi: string };
    expect(document.openapi).toMatch(/^3\./u);

    const created = await injectAs(t, 'POST', '/v1/bots', who.alice, { name: 'Listed', config: {} });
    expect(created.statusCode, created.body).toBe(201);
    const bot = await t.app.inject({
      url: `/v1/bots/${created.json<{ id: string }>().id}`,
      headers: { cookie: who.alice.cookie ?? '', 'accept-encoding': 'gzip' },
    });
    expect(bot.statusCode).toBe(200);
    expect(bot.headers['content-encoding']).toBe('gzip');
    expect(BotSchema.parse(JSON.parse(decoded(bot))).name).toBe('Listed');

    const small = await get('/healthz', { 'accept-encoding': 'gzip, br' });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ status: 'ok' });
  });
});

describe('server-sent events', () => {
  it('stream uncompressed to a client accepting gzip and br: the first event arrives before the answer exists', async () => {
    const created = await injectAs(t, 'POST', '/v1/bots', who.alice, {
      name: 'Streamer',
      config: { engines: { rag_id: refs.rag } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const botId = created.json<{ id: string }>().id;
    // The model answers only once the first event has been read, so a buffering compressor would wait forever.
    let release = () => {};
    const firstEventRead = new Promise<void>((resolve) => {
      release = resolve;
    });
    model.beforeAnswer = () => firstEventRead;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    try {
      const response = await fetch(`http://127.0.0.1:${port}/v1/intent`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'accept-encoding': 'gzip, br',
        },
        body: JSON.stringify({ botId, text: 'How long does delivery of parcels take?' }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      expect(response.headers.get('content-encoding')).toBeNull();
      const reader = response.body?.getReader();
      if (!reader) throw new Error('no body');
      const first = await reader.read();
      expect(first.done).toBe(false);
      expect(Buffer.from(first.value ?? []).toString('utf8')).toContain('event: conversation');
      release();
      let rest = '';
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        rest += Buffer.from(chunk.value).toString('utf8');
      }
      expect(parseEvents(rest).at(-1)?.event).toBe('reply');
    } finally {
      release();
      model.beforeAnswer = null;
    }
  });
});

describe('the request budget', () => {
  it('is not spent on content-hashed built files, and is on everything else', async () => {
    const [widgetDir, consoleDir] = dirs;
    const limited = await createTestApp({
      widgetDir,
      consoleDir,
      env: { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_MS: '600000' },
    });
    try {
      const statuses = async (url: string, times: number) => {
        const answers: number[] = [];
        for (let i = 0; i < times; i++) answers.push((await limited.app.inject({ url })).statusCode);
        return answers;
      };
      expect(await statuses('/widget/assets/app-3f9a1c.js', 6)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(await statuses('/assets/index-77ab01.js', 6)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(await statuses('/v1/session', 4)).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
