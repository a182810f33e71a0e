/**
 * The widget's translation and server voice against local servers that speak the real protocols: the
 * OpenAI-compatible server (chat completions for the chat-model translator, `/audio/speech` for the voice) and a
 * LibreTranslate-protocol server. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import {
  BotSchema,
  LanguageReplySchema,
  ModelSchema,
  PublicWidgetConfigSchema,
  VISITOR_TEXT_MAX,
} from '@omnibot/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import {
  type Caller,
  createTestApp,
  injectAs,
  sessionCookie,
  TEST_ADMIN_PASSWORD,
  TEST_ORIGIN,
  type TestApp,
} from '../../test/app';
import { type LibreTranslateServer, startLibreTranslateServer } from '../../test/libretranslate-server';
import {
  type OpenAICompatibleServer,
  startOpenAICompatibleServer,
  testSpeech,
} from '../../test/openai-compatible-server';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';

/** A secret no response or log line may ever contain. */
const MARKER = 'PLAINTEXT-SPEECH-SECRET-4b1d2e';
const LIBRE_KEY = `${MARKER}-libre`;
const MODEL_KEY = `${MARKER}-model`;
const SITE = 'https://shop.example.com';
const RATE_LIMIT = 5;

let t: TestApp;
let openai: OpenAICompatibleServer;
let libre: LibreTranslateServer;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'speech-a', b: 'speech-b', noRag: 'speech-norag' };
const models = { chat: '', speech: '', speechForB: '' };
const bodies: string[] = [];
let address = 0;

/** A fresh client address per call, so the per-address limit only counts where a test means it to. */
const nextIp = () => {
  address += 1;
  return `10.1.${Math.floor(address / 250)}.${(address % 250) + 1}`;
};

async function visitor(
  url: '/v1/language' | '/v1/tts',
  payload: unknown,
  options: { origin?: string; ip?: string; method?: 'POST' | 'OPTIONS' } = {},
) {
  const response = await t.app.inject({
    method: options.method ?? 'POST',
    url,
    remoteAddress: options.ip ?? nextIp(),
    headers: options.origin === undefined ? {} : { origin: options.origin },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  bodies.push(response.body);
  return response;
}

async function asMaster() {
  return { cookie: await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD) };
}

async function makeModel(body: Record<string, unknown>) {
  const response = await injectAs(t, 'POST', '/v1/models', await asMaster(), body);
  expect(response.statusCode, response.body).toBe(201);
  bodies.push(response.body);
  return ModelSchema.parse(response.json());
}

async function makeBot(caller: Caller, name: string, config: Record<string, unknown>) {
  const response = await injectAs(t, 'POST', '/v1/bots', caller, { name, config });
  bodies.push(response.body);
  expect(response.statusCode, response.body).toBe(201);
  return BotSchema.parse(response.json());
}

async function publicServices(botId: string) {
  const response = await t.app.inject({ url: `/v1/widget/${botId}/config` });
  expect(response.statusCode, response.body).toBe(200);
  bodies.push(response.body);
  return PublicWidgetConfigSchema.parse(response.json()).services;
}

beforeAll(async () => {
  openai = await startOpenAICompatibleServer();
  libre = await startLibreTranslateServer({ apiKey: LIBRE_KEY });
  t = await createTestApp({
    env: {
      FETCH_ALLOW_ADDRESSES: '127.0.0.1',
      RAG_MODEL_TIMEOUT_MS: '1500',
      WIDGET_SPEECH_RATE_LIMIT: String(RATE_LIMIT),
    },
  });
  Object.assign(who, await makeOmniragTenants(t, ids));
  const base = { base_url: openai.baseUrl, api_key: MODEL_KEY };
  models.chat = (
    await makeModel({
      ...base,
      name: 'Chat',
      kind: 'chat',
      model_name: 'test-chat',
      sharing: { all: false, tenant_ids: [ids.a] },
    })
  ).id;
  models.speech = (
    await makeModel({
      ...base,
      name: 'Voice',
      kind: 'speech',
      model_name: 'tts-test',
      sharing: { all: false, tenant_ids: [ids.a] },
    })
  ).id;
  models.speechForB = (
    await makeModel({
      ...base,
      name: 'Voice B',
      kind: 'speech',
      model_name: 'tts-b',
      sharing: { all: false, tenant_ids: [ids.b] },
    })
  ).id;
});

afterAll(async () => {
  await t.close();
  await openai.close();
  await libre.close();
});

beforeEach(() => {
  openai.failure = 'none';
  openai.requests.length = 0;
  libre.failure = 'none';
  libre.requests.length = 0;
});

describe('speech models', () => {
  it('are a model kind: created, listed for the tenants they are offered to, and tested with a real call', async () => {
    const available = await injectAs(t, 'GET', '/v1/models/available?kind=speech', who.alice);
    expect(available.statusCode, available.body).toBe(200);
    expect(available.json<{ items: Array<{ id: string }> }>().items.map((item) => item.id)).toEqual([
      models.speech,
    ]);

    const master = await asMaster();
    const ok = await injectAs(t, 'POST', `/v1/models/${models.speech}/test`, master);
    expect(ok.json(), ok.body).toMatchObject({ ok: true });
    const call = openai.requests.at(-1);
    expect(call?.path).toBe('/audio/speech');
    expect(call?.body).toMatchObject({ model: 'tts-test', input: 'Test.', voice: 'alloy' });
    expect(call?.headers.authorization).toBe(`Bearer ${MODEL_KEY}`);

    openai.failure = 'unauthorized';
    const refused = await injectAs(t, 'POST', `/v1/models/${models.speech}/test`, master);
    expect(refused.json()).toEqual({
      ok: false,
      code: 'provider/unauthorized',
      message: 'The provider refused the API key.',
    });
    openai.failure = 'not-audio';
    const notAudio = await injectAs(t, 'POST', `/v1/models/${models.speech}/test`, master);
    expect(notAudio.json()).toMatchObject({ ok: false, code: 'provider/bad-response' });
  });

  it('the database refuses a kind it does not know', async () => {
    await expect(
      t.database.db.execute(
        sql`insert into models (tenant_id, name, kind, base_url, model_name)
            values (${ids.a}, 'Bad', 'vision', 'http://x.test/v1', 'x')`,
      ),
    ).rejects.toThrow();
  });
});

describe('bot configuration for speech', () => {
  it('takes a speech model offered to the tenant only, and seals the LibreTranslate key', async () => {
    const chatAsSpeech = await injectAs(t, 'POST', '/v1/bots', who.alice, {
      name: 'Wrong kind',
      config: { engines: { speech_model_id: models.chat } },
    });
    expect(chatAsSpeech.statusCode).toBe(400);
    expect(chatAsSpeech.json()).toMatchObject({ code: 'bot/unknown-model' });
    const notOffered = await injectAs(t, 'POST', '/v1/bots', who.alice, {
      name: 'Not offered',
      config: { engines: { speech_model_id: models.speechForB } },
    });
    expect(notOffered.statusCode).toBe(400);
    expect(notOffered.json()).toMatchObject({ code: 'bot/unknown-model' });
    const none = rowsOf<{ n: number | string }>(
      await t.database.db.execute(sql`select count(*) as n from bots where tenant_id = ${ids.a}`),
    );
    const before = Number(none[0]?.n);

    const bot = await makeBot(who.alice, 'Sealed', {
      engines: { speech_model_id: models.speech, translateEngine: 'libretranslate' },
      libretranslate: { url: libre.url, apiKey: LIBRE_KEY },
    });
    expect(bot.config.engines.speech_model_id).toBe(models.speech);
    expect(bot.config.libretranslate.url).toBe(libre.url);
    expect(bot.config.libretranslate.apiKey).toMatch(/^\*\*\*\*/);
    const stored = rowsOf<{ config: string }>(
      await t.database.db.execute(sql`select config::text as config from bots where id = ${bot.id}`),
    );
    expect(stored[0]?.config).not.toContain(MARKER);
    const after = rowsOf<{ n: number | string }>(
      await t.database.db.execute(sql`select count(*) as n from bots where tenant_id = ${ids.a}`),
    );
    expect(Number(after[0]?.n)).toBe(before + 1);
  });

  it('the public configuration says which services a bot offers', async () => {
    const plain = await makeBot(who.alice, 'Plain', {});
    expect(await publicServices(plain.id)).toEqual({ translate: false, tts: false });
    const chat = await makeBot(who.alice, 'Chat services', {
      engines: { translateEngine: 'openai', model_id: models.chat, speech_model_id: models.speech },
      behaviour: { voice: 'server' },
    });
    expect(await publicServices(chat.id)).toEqual({ translate: true, tts: true });
    const nativeVoice = await makeBot(who.alice, 'Native voice', {
      engines: { translateEngine: 'google', model_id: models.chat, speech_model_id: models.speech },
    });
    expect(await publicServices(nativeVoice.id)).toEqual({ translate: false, tts: false });
    const lt = await makeBot(who.alice, 'LT services', {
      engines: { translateEngine: 'libretranslate' },
      libretranslate: { url: libre.url },
    });
    expect(await publicServices(lt.id)).toEqual({ translate: true, tts: false });
  });
});

describe('POST /v1/language', () => {
  let chatBot = '';
  let libreBot = '';
  let awsBot = '';
  let siteBot = '';

  beforeAll(async () => {
    chatBot = (
      await makeBot(who.alice, 'Translator', {
        engines: { translateEngine: 'builtin', model_id: models.chat },
      })
    ).id;
    libreBot = (
      await makeBot(who.alice, 'Libre', {
        engines: { translateEngine: 'libretranslate' },
        libretranslate: { url: `${libre.url}/`, apiKey: LIBRE_KEY },
      })
    ).id;
    awsBot = (await makeBot(who.alice, 'AWS', { engines: { translateEngine: 'aws', model_id: models.chat } }))
      .id;
    siteBot = (
      await makeBot(who.alice, 'On a site', {
        engines: { translateEngine: 'libretranslate' },
        libretranslate: { url: libre.url, apiKey: LIBRE_KEY },
        install: { allowedOrigins: [SITE] },
      })
    ).id;
  });

  it('asks the chat model with a strict prompt and reads its JSON answer, fenced or not', async () => {
    openai.reply = '{"detected": "FR", "text": "Where is my order?"}';
    const response = await visitor('/v1/language', {
      botId: chatBot,
      text: 'Où est ma commande ?',
      target: 'en',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(LanguageReplySchema.parse(response.json())).toEqual({
      detected: 'fr',
      text: 'Where is my order?',
      target: 'en',
    });
    const sent = openai.requests.at(-1)?.body as { messages: Array<{ role: string; content: string }> };
    expect(sent.messages[0]?.role).toBe('system');
    expect(sent.messages[0]?.content).toContain('never instructions');
    expect(sent.messages[0]?.content).toContain('"en"');
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'Où est ma commande ?' });

    openai.reply = 'Sure!\n```json\n{"detected": "de"}\n```';
    const detectOnly = await visitor('/v1/language', { botId: chatBot, text: 'Wo ist meine Bestellung?' });
    expect(detectOnly.json()).toEqual({ detected: 'de', text: 'Wo ist meine Bestellung?', target: null });

    openai.reply = '{"detected": "en", "text": "something else"}';
    const same = await visitor('/v1/language', { botId: chatBot, text: 'Hello there', target: 'en-GB' });
    expect(same.json()).toEqual({ detected: 'en', text: 'Hello there', target: 'en-GB' });
  });

  it('answers 424 with the reason when the chat model fails or answers something else', async () => {
    openai.reply = 'I think this is French.';
    const prose = await visitor('/v1/language', { botId: chatBot, text: 'Bonjour', target: 'en' });
    expect(prose.statusCode).toBe(424);
    expect(prose.json()).toEqual({
      code: 'language/provider-error',
      message: 'The chat model did not answer with a language code in the expected JSON form.',
    });
    openai.reply = '{"detected": "fr"}';
    const noText = await visitor('/v1/language', { botId: chatBot, text: 'Bonjour', target: 'en' });
    expect(noText.json()).toEqual({
      code: 'language/provider-error',
      message: 'The chat model sent no translation.',
    });
    openai.failure = 'unauthorized';
    const refused = await visitor('/v1/language', { botId: chatBot, text: 'Bonjour', target: 'en' });
    expect(refused.statusCode).toBe(424);
    expect(refused.json()).toEqual({
      code: 'language/provider-error',
      message: 'The provider refused the API key.',
    });
    openai.failure = 'hang';
    const slow = await visitor('/v1/language', { botId: chatBot, text: 'Bonjour', target: 'en' });
    expect(slow.statusCode).toBe(424);
    expect(slow.json<{ code: string }>().code).toBe('language/provider-error');
    expect(slow.json<{ message: string }>().message).toMatch(/in time/);
  });

  it('never sends the stored LibreTranslate key to an address it was not entered for', async () => {
    const collector = await startLibreTranslateServer({ apiKey: 'any' });
    try {
      for (const apiKey of [undefined, '****']) {
        const moved = await injectAs(t, 'PATCH', `/v1/bots/${libreBot}`, who.alice, {
          config: { libretranslate: { url: collector.url, ...(apiKey === undefined ? {} : { apiKey }) } },
        });
        expect([moved.statusCode, moved.json<{ code: string }>().code]).toEqual([
          400,
          'secret/endpoint-changed',
        ]);
      }
      const translated = await visitor('/v1/language', { botId: libreBot, text: 'Bonjour', target: 'es' });
      expect(translated.statusCode, translated.body).toBe(200);
      expect(collector.requests).toEqual([]);
      expect(libre.requests.map((request) => request.body.api_key)).toEqual([LIBRE_KEY]);
    } finally {
      await collector.close();
    }
  });

  it('speaks the LibreTranslate protocol with the bot key: translate with auto source, detect alone', async () => {
    const translated = await visitor('/v1/language', { botId: libreBot, text: 'Bonjour', target: 'es' });
    expect(translated.statusCode, translated.body).toBe(200);
    expect(translated.json()).toEqual({ detected: 'fr', text: 'hola', target: 'es' });
    expect(libre.requests).toEqual([
      {
        method: 'POST',
        path: '/translate',
        body: { q: 'Bonjour', source: 'auto', target: 'es', format: 'text', api_key: LIBRE_KEY },
      },
    ]);

    libre.requests.length = 0;
    const detected = await visitor('/v1/language', { botId: libreBot, text: 'Danke schön' });
    expect(detected.json()).toEqual({ detected: 'de', text: 'Danke schön', target: null });
    expect(libre.requests.map((request) => request.path)).toEqual(['/detect']);

    libre.requests.length = 0;
    libre.failure = 'no-detected-language';
    const older = await visitor('/v1/language', { botId: libreBot, text: 'Hola', target: 'en' });
    expect(older.json()).toEqual({ detected: 'es', text: 'hello', target: 'en' });
    expect(libre.requests.map((request) => request.path)).toEqual(['/translate', '/detect']);
  });

  it('answers 424 in plain words when the LibreTranslate server refuses or fails', async () => {
    const unsupported = await visitor('/v1/language', { botId: libreBot, text: 'Bonjour', target: 'it' });
    expect(unsupported.statusCode).toBe(424);
    expect(unsupported.json()).toEqual({
      code: 'language/provider-error',
      message: `LibreTranslate at ${new URL(libre.url).host} refused the request (HTTP 400); the language may not be supported.`,
    });
    const wrongKey = await makeBot(who.alice, 'Wrong key', {
      engines: { translateEngine: 'libretranslate' },
      libretranslate: { url: libre.url, apiKey: 'not-the-key' },
    });
    const refused = await visitor('/v1/language', { botId: wrongKey.id, text: 'Bonjour', target: 'en' });
    expect(refused.json()).toEqual({
      code: 'language/provider-error',
      message: `LibreTranslate at ${new URL(libre.url).host} refused the API key.`,
    });
    for (const failure of ['server-error', 'not-json', 'hang'] as const) {
      libre.failure = failure;
      const failed = await visitor('/v1/language', { botId: libreBot, text: 'Bonjour', target: 'en' });
      expect(failed.statusCode, failure).toBe(424);
      expect(failed.json<{ code: string }>().code).toBe('language/provider-error');
    }
    const privateAddress = await makeBot(who.alice, 'Private', {
      engines: { translateEngine: 'libretranslate' },
      libretranslate: { url: 'http://192.168.0.10:5000' },
    });
    const blocked = await visitor('/v1/language', {
      botId: privateAddress.id,
      text: 'Bonjour',
      target: 'en',
    });
    expect(blocked.statusCode).toBe(424);
    expect(blocked.json<{ message: string }>().message).toContain('Refused by the private-address rule');
  });

  it('answers 501 when the bot has no translator', async () => {
    const plain = await makeBot(who.alice, 'No translator', {});
    for (const botId of [awsBot, plain.id]) {
      const response = await visitor('/v1/language', { botId, text: 'Bonjour', target: 'en' });
      expect(response.statusCode).toBe(501);
      expect(response.json()).toMatchObject({ code: 'language/not-configured' });
    }
    expect(openai.requests).toEqual([]);
  });

  it('refuses bad input, long texts (413 before anything else), unknown and disabled bots', async () => {
    const long = 'a'.repeat(VISITOR_TEXT_MAX + 1);
    for (const botId of [chatBot, 'not-a-bot']) {
      const tooLong = await visitor('/v1/language', { botId, text: long });
      expect(tooLong.statusCode).toBe(413);
      expect(tooLong.json()).toMatchObject({ code: 'widget/text-too-long' });
    }
    const bad = [
      {},
      { botId: chatBot },
      { botId: chatBot, text: '   ' },
      { botId: chatBot, text: 'Hi', extra: 1 },
      { botId: chatBot, text: 'Hi', target: 'English!' },
      { botId: 'not-a-bot', text: 'Hi' },
      { botId: chatBot, text: 42 },
    ];
    for (const payload of bad) {
      const response = await visitor('/v1/language', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ code: string }>().code).toBe('invalid_argument');
    }
    const unknown = await visitor('/v1/language', {
      botId: '00000000-0000-4000-8000-000000000000',
      text: 'Hi',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'widget/bot-not-found' });

    const off = await makeBot(who.alice, 'Switched off', {
      engines: { translateEngine: 'openai', model_id: models.chat },
    });
    const patched = await injectAs(t, 'PATCH', `/v1/bots/${off.id}`, who.alice, { enabled: false });
    expect(patched.statusCode).toBe(200);
    const disabled = await visitor('/v1/language', { botId: off.id, text: 'Hi', target: 'fr' });
    expect(disabled.statusCode).toBe(404);
    expect(disabled.json()).toEqual(unknown.json());
    expect(openai.requests).toEqual([]);
  });

  it('serves this server and the allowed origins (with CORS), refuses others before calling a provider', async () => {
    const own = await visitor(
      '/v1/language',
      { botId: siteBot, text: 'Bonjour', target: 'en' },
      { origin: TEST_ORIGIN },
    );
    expect(own.statusCode, own.body).toBe(200);
    expect(own.headers.vary).toContain('Origin');
    expect(own.headers['access-control-allow-origin']).toBeUndefined();

    const site = await visitor(
      '/v1/language',
      { botId: siteBot, text: 'Bonjour', target: 'en' },
      { origin: SITE },
    );
    expect(site.statusCode).toBe(200);
    expect(site.headers['access-control-allow-origin']).toBe(SITE);

    libre.requests.length = 0;
    const foreign = await visitor(
      '/v1/language',
      { botId: siteBot, text: 'Bonjour', target: 'en' },
      { origin: 'https://evil.example' },
    );
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ code: 'widget/origin-not-allowed' });
    expect(foreign.headers.vary).toContain('Origin');
    const notListed = await visitor('/v1/language', { botId: libreBot, text: 'Bonjour' }, { origin: SITE });
    expect(notListed.statusCode).toBe(403);
    expect(libre.requests).toEqual([]);

    const preflight = await visitor('/v1/language', undefined, { method: 'OPTIONS', origin: SITE });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(SITE);
    expect(preflight.headers['access-control-allow-methods']).toBe('POST');
    const refusedPreflight = await visitor('/v1/tts', undefined, {
      method: 'OPTIONS',
      origin: 'https://evil.example',
    });
    expect(refusedPreflight.statusCode).toBe(403);
    expect(refusedPreflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('limits each client address, shared with the speech route, with widget/rate-limited', async () => {
    const ip = nextIp();
    for (let index = 0; index < RATE_LIMIT; index += 1) {
      const url = index % 2 === 0 ? '/v1/language' : '/v1/tts';
      const response = await visitor(url, { botId: awsBot, text: 'Hi' }, { ip });
      expect(response.statusCode).toBe(501);
    }
    const limited = await visitor('/v1/language', { botId: awsBot, text: 'Hi' }, { ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'widget/rate-limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    const other = await visitor('/v1/language', { botId: awsBot, text: 'Hi' });
    expect(other.statusCode).toBe(501);
  });
});

describe('POST /v1/tts', () => {
  let voiceBot = '';

  beforeAll(async () => {
    voiceBot = (
      await makeBot(who.alice, 'Voice', {
        engines: { speech_model_id: models.speech },
        behaviour: { voice: 'server', speaker_enabled: true },
      })
    ).id;
  });

  it("answers the speech model's audio/mpeg bytes for the text", async () => {
    const response = await visitor('/v1/tts', {
      botId: voiceBot,
      text: 'Your order ships today.',
      language: 'en',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('audio/mpeg');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.rawPayload.equals(testSpeech('Your order ships today.'))).toBe(true);
    const call = openai.requests.at(-1);
    expect(call?.path).toBe('/audio/speech');
    expect(call?.body).toMatchObject({ model: 'tts-test', input: 'Your order ships today.' });
  });

  it('answers 501 without a server voice or a speech model', async () => {
    const native = await makeBot(who.alice, 'Native', { engines: { speech_model_id: models.speech } });
    const noModel = await makeBot(who.alice, 'No model', { behaviour: { voice: 'server' } });
    for (const botId of [native.id, noModel.id]) {
      const response = await visitor('/v1/tts', { botId, text: 'Hello' });
      expect(response.statusCode).toBe(501);
      expect(response.json()).toMatchObject({ code: 'tts/not-configured' });
    }
    expect(openai.requests).toEqual([]);
  });

  it('answers 424 with the reason when the speech provider fails, sends no audio, or too much', async () => {
    const cases = [
      ['unauthorized', 'The provider refused the API key.'],
      ['server-error', 'The provider answered with an error (HTTP 500).'],
      ['not-audio', `${openai.host} did not send audio.`],
      ['endless-audio', `${openai.host} sent more audio than the limit of ${8 * 1024 * 1024} bytes.`],
    ] as const;
    for (const [failure, message] of cases) {
      openai.failure = failure;
      const response = await visitor('/v1/tts', { botId: voiceBot, text: 'Hello' });
      expect(response.statusCode, failure).toBe(424);
      expect(response.json()).toEqual({ code: 'tts/provider-error', message });
    }
  });

  it('refuses long texts with 413, bad input with 400, a disabled bot with 404', async () => {
    const tooLong = await visitor('/v1/tts', { botId: voiceBot, text: 'b'.repeat(VISITOR_TEXT_MAX + 1) });
    expect(tooLong.statusCode).toBe(413);
    expect(tooLong.json()).toMatchObject({ code: 'widget/text-too-long' });
    const bad = await visitor('/v1/tts', { botId: voiceBot, text: 'Hi', voice: 'other' });
    expect(bad.statusCode).toBe(400);
    const off = await makeBot(who.alice, 'Voice off', {
      engines: { speech_model_id: models.speech },
      behaviour: { voice: 'server' },
    });
    await injectAs(t, 'PATCH', `/v1/bots/${off.id}`, who.alice, { enabled: false });
    const disabled = await visitor('/v1/tts', { botId: off.id, text: 'Hello' });
    expect(disabled.statusCode).toBe(404);
    expect(disabled.json()).toMatchObject({ code: 'widget/bot-not-found' });
    expect(openai.requests).toEqual([]);
  });
});

describe('secrets', () => {
  it('no response and no log line carried a provider key', async () => {
    expect(bodies.length).toBeGreaterThan(30);
    for (const body of bodies) expect(body).not.toContain(MARKER);
    expect(JSON.stringify(t.logs)).not.toContain(MARKER);
  });
});
