/**
 * Automatic translation with the `dialogflowcx` translate engine, against the local Google Cloud server (Cloud
 * Translation v2 with an API key) as the fallback translator. The answering engine is a scripted BotEngine standing
 * in for a Dialogflow CX agent: it answers in the language it is asked in when it supports it, in English otherwise,
 * and names the language of its reply as a cloud engine does.
 */
import { WidgetConfigSchema } from '@omnibot/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import type { BotRow } from '../../db/schema';
import { createGuardedFetch, createGuardedWebFetch } from '../../lib/guarded-http/guarded-fetch';
import { createSecretBox } from '../../lib/secret-box';
import { type GoogleCloudServer, startGoogleCloudServer } from '../../test/google-cloud-server';
import type { BotEngine, BotRequest } from '../bots/bot-engine';
import { autoTranslating } from './auto-translate';

let google: GoogleCloudServer;
beforeAll(async () => {
  google = await startGoogleCloudServer();
});
afterAll(() => google.close());

const policy = { allowAddresses: ['127.0.0.1'] };

function agentSpeaking(languages: string[]) {
  const asked: Array<string | undefined> = [];
  const engine: BotEngine = {
    respond(request) {
      asked.push(request.language);
      const language = languages.includes(request.language ?? '') ? (request.language ?? 'en') : 'en';
      const text = language === 'fr' ? 'merci' : 'thank you';
      return Promise.resolve({
        messages: [{ type: 'text', text }],
        sources: [],
        fallback: false,
        language,
        handoverOffered: false,
        trace: { engine: 'fallback', error: null, answerId: null, ms: 1 },
      });
    },
  };
  return { engine, asked };
}

function requestFor(): BotRequest {
  const config = WidgetConfigSchema.parse({
    language: { autoTranslate: true, default_language: 'en' },
    engines: { botEngine: 'dialogflowcx', translateEngine: 'dialogflowcx', translateFallback: 'google' },
    google: { translate_url: google.url, apiKey: google.apiKey },
  });
  const row = { id: crypto.randomUUID(), tenantId: 'tenant-x' } as BotRow;
  return { tenantId: 'tenant-x', bot: { row, config }, text: 'bonjour', history: [] };
}

const deps = () => ({
  // The Google translator reads nothing from the database.
  db: {} as Db,
  secretBox: createSecretBox('auto-translate-test-installation-secret-0123456789', 'model-api-key'),
  fetch: createGuardedFetch(policy),
  modelFetch: createGuardedWebFetch(policy),
  timeoutMs: 1500,
  log: pino({ level: 'silent' }),
});

describe('the dialogflowcx translate engine', () => {
  it("asks the agent in the visitor's language and keeps its answer when it speaks it", async () => {
    const { engine, asked } = agentSpeaking(['en', 'fr']);
    const before = google.requests.length;
    const reply = await autoTranslating(deps(), engine).respond(requestFor());
    expect(asked).toEqual(['fr']);
    expect(reply).toMatchObject({ language: 'fr', messages: [{ text: 'merci' }] });
    // Only the detection went to the translator.
    expect(google.requests.slice(before).map((request) => request.path)).toEqual([
      '/language/translate/v2/detect',
    ]);
  });

  it('translates the answer with the fallback translator when the agent answers in another language', async () => {
    const { engine, asked } = agentSpeaking(['en']);
    const reply = await autoTranslating(deps(), engine).respond(requestFor());
    expect(asked).toEqual(['fr']);
    expect(reply).toMatchObject({ language: 'fr', messages: [{ text: 'merci' }] });
    expect(google.requests.at(-1)).toMatchObject({
      path: '/language/translate/v2',
      body: { q: 'thank you', target: 'fr', source: 'en' },
    });
  });

  it("leaves the agent's answer as it is when the fallback translator fails", async () => {
    const { engine } = agentSpeaking(['en']);
    google.failure = 500;
    google.failurePath = '/language/translate/v2';
    try {
      const reply = await autoTranslating(deps(), engine).respond(requestFor());
      expect(reply).toMatchObject({ language: 'en', messages: [{ text: 'thank you' }] });
    } finally {
      google.failure = 'none';
      google.failurePath = null;
    }
  });
});
