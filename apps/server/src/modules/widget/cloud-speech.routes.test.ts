/**
 * Cloud translation, cloud voices and visitor geolocation through the widget's public routes, against local servers
 * that speak the providers' protocols: Google Cloud (OAuth JWT bearer grant, Cloud Translation v3 and v2,
 * Text-to-Speech v1), Amazon Translate and Polly (SigV4 verified) and a geojs service. Every failure of a provider
 * degrades (424 with the reason in plain words, or the answer untranslated), never a 5xx; no secret reaches an
 * answer, the public configuration or a log line. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import {
  BotSchema,
  ConversationListSchema,
  IntentReplySchema,
  LanguageReplySchema,
} from '@omnibot/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, injectAs, type TestApp } from '../../test/app';
import { type AwsSpeechServer, startAwsSpeechServer } from '../../test/aws-speech-server';
import { type GeojsServer, startGeojsServer } from '../../test/geojs-server';
import { fakeAudio, type GoogleCloudServer, startGoogleCloudServer } from '../../test/google-cloud-server';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';

const MARKER = 'PLAINTEXT-CLOUD-SPEECH-SECRET-7c2f';
const REGION = 'eu-west-1';
const AWS_KEYS = { accessKeyId: 'AKIATESTCLOUDSPEECH1', secretAccessKey: `${MARKER}-aws-secret-key` };

let t: TestApp;
let google: GoogleCloudServer;
let translate: AwsSpeechServer;
let polly: AwsSpeechServer;
let geojs: GeojsServer;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'cloud-speech-a', b: 'cloud-speech-b', noRag: 'cloud-speech-norag' };
const bodies: string[] = [];
let address = 0;
const nextIp = () => {
  address += 1;
  return `10.2.${Math.floor(address / 250)}.${(address % 250) + 1}`;
};

async function visitor(url: string, payload: object, ip = nextIp()) {
  const response = await t.app.inject({ method: 'POST', url, remoteAddress: ip, payload });
  bodies.push(response.body);
  return response;
}

async function makeBot(config: Record<string, unknown>, caller: Caller = who.alice) {
  const response = await injectAs(t, 'POST', '/v1/bots', caller, {
    name: `Cloud ${String(++address)}`,
    config,
  });
  bodies.push(response.body);
  expect(response.statusCode, response.body).toBe(201);
  return BotSchema.parse(response.json());
}

const googleServiceAccountBot = (extra: Record<string, unknown> = {}) =>
  makeBot({
    engines: { translateEngine: 'google' },
    google: { translate_url: google.url, tts_url: google.url, serviceAccountKey: google.serviceAccountKey },
    ...extra,
  });
const googleApiKeyBot = () =>
  makeBot({
    engines: { translateEngine: 'google' },
    google: { translate_url: google.url, tts_url: google.url, apiKey: google.apiKey },
  });
const awsBot = (extra: Record<string, unknown> = {}, keys = AWS_KEYS) =>
  makeBot({
    engines: { translateEngine: 'aws' },
    behaviour: { voice: 'server', useAWSTTS: true },
    aws: {
      key: keys.accessKeyId,
      secret: keys.secretAccessKey,
      region: REGION,
      translate_url: translate.url,
      polly_url: polly.url,
      polly: { voiceId: 'Lea', engine: 'neural' },
    },
    ...extra,
  });

beforeAll(async () => {
  google = await startGoogleCloudServer({ apiKey: `AIza-${MARKER}-google` });
  translate = await startAwsSpeechServer({ service: 'translate', keys: AWS_KEYS, region: REGION });
  polly = await startAwsSpeechServer({ service: 'polly', keys: AWS_KEYS, region: REGION });
  geojs = await startGeojsServer();
  t = await createTestApp({
    env: {
      FETCH_ALLOW_ADDRESSES: '127.0.0.1',
      RAG_MODEL_TIMEOUT_MS: '1500',
      WIDGET_SPEECH_RATE_LIMIT: '1000',
    },
  });
  Object.assign(who, await makeOmniragTenants(t, ids));
});

afterAll(async () => {
  await t.close();
  await Promise.all([google.close(), translate.close(), polly.close(), geojs.close()]);
});

beforeEach(() => {
  google.failure = 'none';
  translate.failure = 'none';
  polly.failure = 'none';
  geojs.failure = 'none';
});

const FAILURES = [401, 403, 429, 500, 'hang', 'malformed'] as const;

describe('Google Cloud Translation', () => {
  it('translates and detects with v3 and a service account, exchanging the signed JWT once for many calls', async () => {
    const bot = await googleServiceAccountBot();
    const issued = google.tokensIssued;
    const translated = await visitor('/v1/language', { botId: bot.id, text: 'bonjour', target: 'en' });
    expect(translated.statusCode, translated.body).toBe(200);
    expect(LanguageReplySchema.parse(translated.json())).toEqual({
      detected: 'fr',
      text: 'hello',
      target: 'en',
    });
    const detected = await visitor('/v1/language', { botId: bot.id, text: 'danke ich bin hier' });
    expect(detected.json()).toMatchObject({ detected: 'de', target: null });
    expect(google.tokensIssued - issued).toBe(1);
    const calls = google.requests.slice(-2);
    expect(calls.map((call) => call.path)).toEqual([
      '/v3/projects/omnibot-test-project/locations/global:translateText',
      '/v3/projects/omnibot-test-project/locations/global:detectLanguage',
    ]);
    expect(calls.every((call) => call.auth === 'bearer')).toBe(true);
  });

  it('translates with v2 and an API key sent in a header, never in the address', async () => {
    const bot = await googleApiKeyBot();
    const response = await visitor('/v1/language', {
      botId: bot.id,
      text: 'where is my order?',
      target: 'fr',
    });
    expect(response.json()).toEqual({ detected: 'en', text: 'où est ma commande ?', target: 'fr' });
    const call = google.requests.at(-1);
    expect(call).toMatchObject({ path: '/language/translate/v2', auth: 'api-key' });
  });

  it('says in plain words that a service account key Google does not know was refused', async () => {
    const bot = await makeBot({
      engines: { translateEngine: 'google' },
      google: { translate_url: google.url, serviceAccountKey: google.foreignServiceAccountKey },
    });
    const response = await visitor('/v1/language', { botId: bot.id, text: 'bonjour', target: 'en' });
    expect(response.statusCode).toBe(424);
    expect(response.json()).toMatchObject({ code: 'language/provider-error' });
    expect(response.json<{ message: string }>().message).toMatch(/Google sign-in/u);
  });

  it.each(FAILURES)('degrades to a clear 424 when Google answers %s', async (failure) => {
    const bot = await googleApiKeyBot();
    google.failure = failure;
    const response = await visitor('/v1/language', { botId: bot.id, text: 'bonjour', target: 'en' });
    expect(response.statusCode, response.body).toBe(424);
    expect(response.json<{ code: string; message: string }>().message).toMatch(/Google Cloud Translation/u);
  });

  it('uses the fallback translator when the translate engine is Dialogflow CX', async () => {
    const bot = await makeBot({
      engines: { translateEngine: 'dialogflowcx', translateFallback: 'google' },
      google: { translate_url: google.url, apiKey: google.apiKey },
    });
    const response = await visitor('/v1/language', { botId: bot.id, text: 'merci', target: 'de' });
    expect(response.json()).toEqual({ detected: 'fr', text: 'danke', target: 'de' });
  });

  it('answers a French visitor in French through automatic translation, and untranslated when Google fails', async () => {
    const bot = await googleServiceAccountBot({
      language: { autoTranslate: true, default_language: 'en' },
      engines: { translateEngine: 'google', fallbackText: 'thank you' },
    });
    const translated = await visitor('/v1/intent', { botId: bot.id, text: 'bonjour' });
    expect(translated.statusCode, translated.body).toBe(200);
    expect(IntentReplySchema.parse(translated.json())).toMatchObject({
      language: 'fr',
      messages: [{ text: 'merci' }],
    });
    google.failure = 500;
    const untranslated = await visitor('/v1/intent', { botId: bot.id, text: 'bonjour' });
    expect(untranslated.statusCode, untranslated.body).toBe(200);
    expect(untranslated.json()).toMatchObject({ language: 'en', messages: [{ text: 'thank you' }] });
  });
});

describe('Amazon Translate', () => {
  it('translates with the bot Formality and Profanity settings and detects through the auto source', async () => {
    const bot = await awsBot();
    const response = await visitor('/v1/language', { botId: bot.id, text: 'bonjour', target: 'en' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ detected: 'fr', text: 'hello', target: 'en' });
    expect(translate.requests.at(-1)).toMatchObject({
      target: 'AWSShineFrontendService_20170701.TranslateText',
      body: {
        Text: 'bonjour',
        SourceLanguageCode: 'auto',
        TargetLanguageCode: 'en',
        Settings: { Formality: 'FORMAL', Profanity: 'MASK' },
      },
    });
    const detected = await visitor('/v1/language', { botId: bot.id, text: 'hola gracias' });
    expect(detected.json()).toEqual({ detected: 'es', text: 'hola gracias', target: null });
  });

  it('names a wrong secret key in plain words without repeating it', async () => {
    const bot = await awsBot(
      {},
      { accessKeyId: AWS_KEYS.accessKeyId, secretAccessKey: `${MARKER}-wrong-secret` },
    );
    const response = await visitor('/v1/language', { botId: bot.id, text: 'bonjour', target: 'en' });
    expect(response.statusCode).toBe(424);
    expect(response.json<{ message: string }>().message).toMatch(
      /InvalidSignatureException.*secret access key is wrong/u,
    );
  });

  it.each(FAILURES)('degrades to a clear 424 when Amazon Translate answers %s', async (failure) => {
    const bot = await awsBot();
    translate.failure = failure;
    const response = await visitor('/v1/language', { botId: bot.id, text: 'bonjour', target: 'en' });
    expect(response.statusCode, response.body).toBe(424);
    expect(response.json<{ message: string }>().message).toMatch(/Amazon Translate/u);
  });
});

describe('server voices', () => {
  it('reads a text with Polly once and serves the repeat from the cache', async () => {
    const bot = await awsBot();
    const before = polly.requests.length;
    const first = await visitor('/v1/tts', { botId: bot.id, text: 'Bonjour, je suis là.' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toBe('audio/mpeg');
    expect(first.headers['x-speech-cache']).toBe('miss');
    expect(first.rawPayload.equals(fakeAudio('Lea/neural', 'Bonjour, je suis là.'))).toBe(true);
    expect(polly.requests.at(-1)?.body).toMatchObject({
      OutputFormat: 'mp3',
      VoiceId: 'Lea',
      Engine: 'neural',
    });
    const again = await visitor('/v1/tts', { botId: bot.id, text: 'Bonjour, je suis là.' });
    expect(again.headers['x-speech-cache']).toBe('hit');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(polly.requests.length - before).toBe(1);
    const other = await visitor('/v1/tts', { botId: bot.id, text: 'Autre chose.' });
    expect(other.headers['x-speech-cache']).toBe('miss');
    expect(polly.requests.length - before).toBe(2);
  });

  it('keeps cached audio per tenant: another tenant with the same text and voice asks Polly itself', async () => {
    const text = 'The same words in two tenants.';
    const mine = await awsBot();
    const theirs = await makeBot(
      {
        behaviour: { voice: 'server', useAWSTTS: true },
        aws: {
          key: AWS_KEYS.accessKeyId,
          secret: AWS_KEYS.secretAccessKey,
          region: REGION,
          polly_url: polly.url,
          polly: { voiceId: 'Lea', engine: 'neural' },
        },
      },
      who.bob,
    );
    expect((await visitor('/v1/tts', { botId: mine.id, text })).headers['x-speech-cache']).toBe('miss');
    expect((await visitor('/v1/tts', { botId: theirs.id, text })).headers['x-speech-cache']).toBe('miss');
  });

  it.each(FAILURES)('answers no audio with a clear 424 when Polly answers %s', async (failure) => {
    const bot = await awsBot();
    polly.failure = failure;
    const response = await visitor('/v1/tts', { botId: bot.id, text: `Polly ${String(failure)}` });
    expect(response.statusCode, response.body).toBe(424);
    expect(response.json()).toMatchObject({ code: 'tts/provider-error' });
    expect(response.json<{ message: string }>().message).toMatch(/Amazon Polly/u);
  });

  it('reads a text with Google Text-to-Speech in the configured voice', async () => {
    const bot = await googleServiceAccountBot({
      behaviour: { voice: 'server', useGoogleTTS: true },
      google: {
        tts_url: google.url,
        serviceAccountKey: google.serviceAccountKey,
        ttsVoice: 'fr-FR-Standard-A',
      },
    });
    const response = await visitor('/v1/tts', { botId: bot.id, text: 'Merci beaucoup.' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.rawPayload.equals(fakeAudio('fr-FR-Standard-A', 'Merci beaucoup.'))).toBe(true);
    expect(google.requests.at(-1)).toMatchObject({
      path: '/v1/text:synthesize',
      body: {
        voice: { languageCode: 'fr-FR', name: 'fr-FR-Standard-A' },
        audioConfig: { audioEncoding: 'MP3' },
      },
    });
  });

  it.each([...FAILURES, 'not-json'] as const)(
    'answers no audio with a clear 424 when Google Text-to-Speech answers %s',
    async (failure) => {
      const bot = await makeBot({
        behaviour: { voice: 'server', useGoogleTTS: true },
        google: { tts_url: google.url, apiKey: google.apiKey },
      });
      google.failure = failure;
      const response = await visitor('/v1/tts', { botId: bot.id, text: `Google ${String(failure)}` });
      expect(response.statusCode, response.body).toBe(424);
      expect(response.json<{ message: string }>().message).toMatch(/Google Text-to-Speech/u);
    },
  );

  it('offers no server voice while the chosen provider has no credentials', async () => {
    const bot = await makeBot({ behaviour: { voice: 'server', useAWSTTS: true } });
    const config = await t.app.inject({ url: `/v1/widget/${bot.id}/config` });
    expect(config.json()).toMatchObject({ services: { tts: false } });
    const response = await visitor('/v1/tts', { botId: bot.id, text: 'Hello' });
    expect(response.statusCode).toBe(501);
  });
});

describe('visitor geolocation', () => {
  async function conversationsOf(botId: string) {
    const response = await injectAs(t, 'GET', `/v1/bots/${botId}/conversations`, who.alice);
    expect(response.statusCode, response.body).toBe(200);
    return ConversationListSchema.parse(response.json()).items;
  }

  it('looks the country up once per conversation, stores it and shows it in the conversation log', async () => {
    const bot = await makeBot({ geojs: { enabled: true, url: geojs.url } });
    const before = geojs.paths.length;
    const first = await visitor('/v1/intent', { botId: bot.id, text: 'hello' }, '198.51.100.7');
    expect(first.statusCode, first.body).toBe(200);
    const token = IntentReplySchema.parse(first.json()).conversationToken;
    for (const text of ['second', 'third']) {
      const next = await visitor(
        '/v1/intent',
        { botId: bot.id, text, conversationToken: token },
        '198.51.100.8',
      );
      expect(next.statusCode, next.body).toBe(200);
    }
    expect(geojs.paths.slice(before)).toEqual(['/v1/ip/country/198.51.100.7.json']);
    const [conversation] = await conversationsOf(bot.id);
    expect(conversation?.country).toBe('FR');
    const detail = await injectAs(t, 'GET', `/v1/conversations/${conversation?.id ?? ''}`, who.alice);
    expect(detail.json()).toMatchObject({ country: 'FR' });
  });

  it('asks nothing while the bot has geolocation off', async () => {
    const bot = await makeBot({ geojs: { url: geojs.url } });
    const before = geojs.paths.length;
    expect((await visitor('/v1/intent', { botId: bot.id, text: 'hello' }, '198.51.100.7')).statusCode).toBe(
      200,
    );
    expect(geojs.paths.length).toBe(before);
    const [conversation] = await conversationsOf(bot.id);
    expect(conversation?.country).toBeNull();
  });

  it.each([429, 500, 'hang', 'not-json', 'malformed'] as const)(
    'starts the conversation without a country when the service answers %s',
    async (failure) => {
      const bot = await makeBot({ geojs: { enabled: true, url: geojs.url } });
      geojs.failure = failure;
      const response = await visitor('/v1/intent', { botId: bot.id, text: 'hello' }, '2001:db8::5');
      expect(response.statusCode, response.body).toBe(200);
      const [conversation] = await conversationsOf(bot.id);
      expect(conversation?.country).toBeNull();
    },
    10_000,
  );
});

/** A test-connection answer, read loosely so a test can look at either shape. */
type TestResult = { ok: boolean; code?: string; message?: string; detail?: string };

describe('test connection', () => {
  const test = async (botId: string, service: string, caller: Caller = who.alice) => {
    const response = await injectAs(t, 'POST', `/v1/bots/${botId}/services/test`, caller, { service });
    bodies.push(response.body);
    return response;
  };

  it('tries the translator, the voice and the geolocation service with one harmless call each', async () => {
    const bot = await awsBot({ geojs: { enabled: true, url: geojs.url } });
    const translated = await test(bot.id, 'translate');
    expect(translated.statusCode, translated.body).toBe(200);
    expect(translated.json<TestResult>()).toMatchObject({ ok: true });
    expect(translated.json<TestResult>().detail).toContain('in French: "bonjour"');
    const spoken = await test(bot.id, 'tts');
    expect(spoken.json<TestResult>()).toMatchObject({ ok: true });
    expect(spoken.json<TestResult>().detail).toMatch(/bytes of audio/u);
    const placed = await test(bot.id, 'geolocation');
    expect(placed.json()).toMatchObject({ ok: true });
    expect(geojs.paths.at(-1)).toBe('/v1/ip/country/8.8.8.8.json');
  });

  it('says in plain words what failed, and that geolocation is off', async () => {
    const bot = await awsBot({}, { accessKeyId: AWS_KEYS.accessKeyId, secretAccessKey: `${MARKER}-wrong` });
    const spoken = await test(bot.id, 'tts');
    expect(spoken.statusCode).toBe(200);
    expect(spoken.json<TestResult>()).toMatchObject({ ok: false, code: 'tts/provider-error' });
    expect(spoken.json<TestResult>().message).toMatch(/Amazon Polly.*secret access key is wrong/u);
    expect((await test(bot.id, 'geolocation')).json()).toMatchObject({ ok: false, code: 'geolocation/off' });
    const geoBot = await makeBot({ geojs: { enabled: true, url: geojs.url } });
    geojs.failure = 500;
    const failed = (await test(geoBot.id, 'geolocation')).json<TestResult>();
    expect(failed).toMatchObject({ ok: false, code: 'geolocation/provider-error' });
    expect(failed.message).toMatch(/HTTP 500/u);
    expect((await test(geoBot.id, 'translate')).json()).toMatchObject({
      ok: false,
      code: 'language/not-configured',
    });
  });

  it("refuses another tenant's bot and an unknown service", async () => {
    const bot = await awsBot();
    expect((await test(bot.id, 'translate', who.bob)).statusCode).toBe(404);
    const bad = await test(bot.id, 'weather');
    expect(bad.statusCode).toBe(400);
  });
});

describe('secrets', () => {
  it('never serves a provider secret in the public configuration, an answer or a log line', async () => {
    const bot = await awsBot({
      google: { apiKey: google.apiKey, serviceAccountKey: google.serviceAccountKey },
    });
    const config = await t.app.inject({ url: `/v1/widget/${bot.id}/config` });
    expect(config.statusCode).toBe(200);
    for (const secret of [AWS_KEYS.secretAccessKey, google.apiKey, 'PRIVATE KEY', AWS_KEYS.accessKeyId]) {
      expect(config.body).not.toContain(secret);
    }
    const read = await injectAs(t, 'GET', `/v1/bots/${bot.id}`, who.alice);
    expect(read.body).not.toContain(MARKER);
    expect(read.body).not.toContain('PRIVATE KEY');
    expect(bodies.join('\n')).not.toContain(MARKER);
    expect(bodies.join('\n')).not.toContain('PRIVATE KEY');
    const logs = JSON.stringify(t.logs);
    expect(logs).not.toContain(MARKER);
    expect(logs).not.toContain('PRIVATE KEY');
    // The geolocation warnings name the service, never the visitor's address.
    const geolocationLines = t.logs.filter((line) => String(line.msg).startsWith('visitor geolocation'));
    expect(JSON.stringify(geolocationLines)).not.toMatch(/2001:db8::5|198\.51\.100/u);
  });
});
