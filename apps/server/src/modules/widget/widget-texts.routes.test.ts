/**
 * The widget's own texts in a visitor's language, translated by a LibreTranslate-protocol server over HTTP. Runs on
 * PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { BotSchema, WidgetTextsReplySchema } from '@omnibot/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, injectAs, type TestApp } from '../../test/app';
import { type LibreTranslateServer, startLibreTranslateServer } from '../../test/libretranslate-server';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';

let t: TestApp;
let libre: LibreTranslateServer;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'texts-a', b: 'texts-b', noRag: 'texts-norag' };
let address = 0;

const TRANSLATING = {
  language: { autoTranslate: true },
  welcome: {
    welcomeText: 'Welcome to the shop.',
    welcomeText_enabled: true,
    welcomeMenu: [{ label: 'Opening hours', text: 'When are you open?' }],
    start_suggestions: ['Track my parcel'],
  },
  feedback: { disclaimer: 'No secrets, please.' },
};

async function makeBot(name: string, config: Record<string, unknown>) {
  const response = await injectAs(t, 'POST', '/v1/bots', who.alice, { name, config });
  expect(response.statusCode, response.body).toBe(201);
  return BotSchema.parse(response.json());
}

async function textsOf(botId: string, language: string) {
  address += 1;
  const response = await t.app.inject({
    url: `/v1/widget/${botId}/texts?language=${encodeURIComponent(language)}`,
    remoteAddress: `10.2.${Math.floor(address / 250)}.${(address % 250) + 1}`,
  });
  return response;
}

async function translatedTexts(botId: string, language: string) {
  const response = await textsOf(botId, language);
  expect(response.statusCode, response.body).toBe(200);
  return WidgetTextsReplySchema.parse(response.json());
}

const translateCalls = () => libre.requests.filter((request) => request.path === '/translate').length;

beforeAll(async () => {
  libre = await startLibreTranslateServer();
  t = await createTestApp({ env: { FETCH_ALLOW_ADDRESSES: '127.0.0.1', RAG_MODEL_TIMEOUT_MS: '1500' } });
  Object.assign(who, await makeOmniragTenants(t, ids));
});
beforeEach(() => {
  libre.failure = 'none';
});
afterAll(async () => {
  await t.close();
  await libre.close();
});

describe('GET /v1/widget/:botId/texts', () => {
  it("translates the bot's own texts from its language into the visitor's, once per configuration and language", async () => {
    const bot = await makeBot('Shop', {
      ...TRANSLATING,
      engines: { translateEngine: 'libretranslate' },
      libretranslate: { url: libre.url },
    });
    const before = translateCalls();
    const german = await translatedTexts(bot.id, 'de');
    expect(german).toMatchObject({
      language: 'de',
      translated: true,
      texts: {
        welcomeText: '[de] Welcome to the shop.',
        welcomeMenu: ['[de] Opening hours'],
        start_suggestions: ['[de] Track my parcel'],
        feedback: { disclaimer: '[de] No secrets, please.', button1Text: '[de] Helpful' },
        titles: { sendTitle: '[de] Send', inputTitle: '[de] Message' },
        closeText: '[de] Close',
      },
    });
    const calls = libre.requests.slice(-1)[0]?.body;
    expect(calls).toMatchObject({ source: 'en', target: 'de' });
    const translatedOnce = translateCalls() - before;
    expect(translatedOnce).toBeGreaterThan(5);

    // The same configuration and language again: from the cache, no provider call.
    expect(await translatedTexts(bot.id, 'de')).toEqual(german);
    expect(translateCalls() - before).toBe(translatedOnce);

    // A new configuration is translated afresh.
    const patched = await injectAs(t, 'PATCH', `/v1/bots/${bot.id}`, who.alice, {
      config: { welcome: { welcomeText: 'Hello' } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await translatedTexts(bot.id, 'de')).texts.welcomeText).toBe('hallo');
    expect(translateCalls() - before).toBeGreaterThan(translatedOnce);
  });

  it("answers the bot's own texts, untranslated, in its own language, without automatic translation or a translator", async () => {
    const translating = await makeBot('Own language', {
      ...TRANSLATING,
      engines: { translateEngine: 'libretranslate' },
      libretranslate: { url: libre.url },
    });
    const off = await makeBot('Off', {
      ...TRANSLATING,
      language: { autoTranslate: false },
      engines: { translateEngine: 'libretranslate' },
      libretranslate: { url: libre.url },
    });
    const noTranslator = await makeBot('No translator', TRANSLATING);
    const before = translateCalls();
    for (const [botId, language] of [
      [translating.id, 'en-GB'],
      [off.id, 'de'],
      [noTranslator.id, 'de'],
    ] as const) {
      expect(await translatedTexts(botId, language)).toMatchObject({
        language: 'en',
        translated: false,
        texts: { welcomeText: 'Welcome to the shop.', titles: { sendTitle: 'Send' } },
      });
    }
    expect(translateCalls()).toBe(before);
  });

  it('answers the own texts when the translator fails, and translates once it works again', async () => {
    const bot = await makeBot('Flaky', {
      ...TRANSLATING,
      engines: { translateEngine: 'libretranslate' },
      libretranslate: { url: libre.url },
    });
    libre.failure = 'server-error';
    expect(await translatedTexts(bot.id, 'fr')).toMatchObject({
      translated: false,
      texts: { welcomeText: 'Welcome to the shop.' },
    });
    libre.failure = 'none';
    expect(await translatedTexts(bot.id, 'fr')).toMatchObject({
      language: 'fr',
      translated: true,
      texts: { welcomeText: '[fr] Welcome to the shop.' },
    });
  });

  it('refuses a language that is not a code, and an unknown or disabled bot, with a clear message', async () => {
    const bot = await makeBot('Refusing', TRANSLATING);
    for (const language of ['', 'German!', 'x'.repeat(40)]) {
      const response = await textsOf(bot.id, language);
      expect(response.statusCode, language).toBe(400);
      expect(response.json()).toMatchObject({
        code: expect.any(String) as string,
        message: expect.any(String) as string,
      });
    }
    const unknown = await textsOf('00000000-0000-4000-8000-000000000000', 'de');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'widget/bot-not-found' });
    await injectAs(t, 'PATCH', `/v1/bots/${bot.id}`, who.alice, { enabled: false });
    expect((await textsOf(bot.id, 'de')).statusCode).toBe(404);
  });
});
