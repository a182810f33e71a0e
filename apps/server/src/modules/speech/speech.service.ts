import {
  offersTranslation,
  textTranslatorOf,
  type WidgetConfig,
  type WidgetServices,
} from '@omnibot/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { GuardedFetch, GuardedWebFetch } from '../../lib/guarded-http/guarded-fetch';
import { type SecretBox, SecretBoxError } from '../../lib/secret-box';
import { modelsOfferedTo } from '../models/models.service';
import { modelFromRow, ProviderError, type SpeechModel } from '../models/providers';
import { awsTranslator, pollyVoice, type Voice } from './aws-speech';
import { createGoogleTokens, type GoogleTokens } from './google-auth';
import { type GoogleCredentials, GOOGLE_TRANSLATE_URL_DEFAULT, googleTranslator } from './google-translator';
import { GOOGLE_TTS_URL_DEFAULT, googleVoice } from './google-voice';
import { cachedSpeechAudio, keepSpeechAudio, speechAudioKey } from './speech-audio-cache';
import { chatTranslator, libreTranslator, type Translation, type Translator } from './translator';

export interface SpeechDeps {
  db: Db;
  /** Opens models' API keys (purpose "model-api-key"). */
  secretBox: SecretBox;
  /** The guarded client for addresses tenants configure (LibreTranslate). */
  fetch: GuardedFetch;
  /** The guarded client model calls go through: a model's address is one a tenant supplies. */
  modelFetch: GuardedWebFetch;
  /** Upper bound of one provider call. */
  timeoutMs: number;
}

/** The server voice a bot chose: Amazon Polly (useAWSTTS), Google Text-to-Speech (useGoogleTTS) or its speech model. */
export function voiceEngineOf(config: WidgetConfig): 'polly' | 'google' | 'model' {
  if (config.behaviour.useAWSTTS) return 'polly';
  return config.behaviour.useGoogleTTS ? 'google' : 'model';
}

const hasGoogleCredentials = (config: WidgetConfig) =>
  config.google.serviceAccountKey !== '' || config.google.apiKey !== '';
const hasAwsKeys = (config: WidgetConfig) => config.aws.key !== '' && config.aws.secret !== '';

/**
 * Which speech services a bot's configuration offers (what the widget may show), read from the configuration
 * alone: translation with a configured translator, a server voice with Polly's or Google's credentials or a speech
 * model.
 */
export function widgetServices(config: WidgetConfig): WidgetServices {
  const engine = voiceEngineOf(config);
  const voiceReady =
    engine === 'polly'
      ? hasAwsKeys(config)
      : engine === 'google'
        ? hasGoogleCredentials(config)
        : config.engines.speech_model_id !== null;
  return {
    translate: offersTranslation(config),
    tts: config.behaviour.voice === 'server' && voiceReady,
  };
}

// One token cache per guarded client, so every request of an app shares the tokens it exchanged.
const googleTokenCaches = new WeakMap<object, GoogleTokens>();

function googleCredentialsOf(deps: SpeechDeps, config: WidgetConfig): GoogleCredentials {
  if (config.google.serviceAccountKey !== '') {
    let tokens = googleTokenCaches.get(deps.fetch);
    if (tokens === undefined) {
      tokens = createGoogleTokens(deps.fetch, { timeoutMs: deps.timeoutMs });
      googleTokenCaches.set(deps.fetch, tokens);
    }
    return { kind: 'service-account', keyJson: config.google.serviceAccountKey, tokens };
  }
  return { kind: 'api-key', apiKey: config.google.apiKey };
}

const awsSettingsOf = (deps: SpeechDeps, config: WidgetConfig, endpoint: string) => ({
  region: config.aws.region,
  accessKeyId: config.aws.key,
  secretAccessKey: config.aws.secret,
  endpoint,
  timeoutMs: deps.timeoutMs,
});

const languageNotConfigured = (message = 'This bot offers no translation.') =>
  new AppError(501, 'language/not-configured', message);
const ttsNotConfigured = (message = 'This bot offers no server voice.') =>
  new AppError(501, 'tts/not-configured', message);

/**
 * A provider's failure as the widget receives it: 424 (the request depended on a provider that failed) with the
 * provider's reason in plain words; the widget goes on without translation or server voice.
 */
const providerFailure = (code: 'language/provider-error' | 'tts/provider-error', error: unknown) => {
  if (error instanceof ProviderError) return new AppError(424, code, error.message);
  if (error instanceof SecretBoxError) {
    return new AppError(
      424,
      code,
      'The stored API key cannot be decrypted (the installation secret changed); enter the key again.',
    );
  }
  return error;
};

/** The model `id` of `kind` when it is still offered to the tenant, opened for calls. */
async function offeredModel(deps: SpeechDeps, tenantId: string, kind: 'chat' | 'speech', id: string) {
  const row = (await modelsOfferedTo(deps.db, tenantId, kind)).find((model) => model.id === id);
  return row
    ? modelFromRow(row, deps.secretBox, { timeoutMs: deps.timeoutMs, fetch: deps.modelFetch })
    : null;
}

/**
 * The translator of a bot (its configuration opened): its chat model for `builtin` and `openai`, its LibreTranslate
 * server for `libretranslate`, Cloud Translation for `google`, Amazon Translate for `aws` (under `dialogflowcx`, its
 * `translateFallback`); 501 language/not-configured when none is set up or the model is gone.
 */
export async function translatorFor(
  deps: SpeechDeps,
  tenantId: string,
  config: WidgetConfig,
): Promise<Translator> {
  if (!widgetServices(config).translate) throw languageNotConfigured();
  const { model_id: modelId } = config.engines;
  const translateEngine = textTranslatorOf(config);
  if (translateEngine === 'google') {
    return googleTranslator(deps.fetch, {
      baseUrl:
        config.google.translate_url === '' ? GOOGLE_TRANSLATE_URL_DEFAULT : config.google.translate_url,
      credentials: googleCredentialsOf(deps, config),
      timeoutMs: deps.timeoutMs,
    });
  }
  if (translateEngine === 'aws') {
    return awsTranslator(deps.modelFetch, {
      ...awsSettingsOf(deps, config, config.aws.translate_url),
      formality: config.aws.translate.Formality,
      profanity: config.aws.translate.Profanity,
    });
  }
  if (translateEngine === 'libretranslate') {
    return libreTranslator(deps.fetch, {
      url: config.libretranslate.url,
      apiKey: config.libretranslate.apiKey,
      timeoutMs: deps.timeoutMs,
    });
  }
  let model;
  try {
    model = modelId === null ? null : await offeredModel(deps, tenantId, 'chat', modelId);
  } catch (error) {
    throw providerFailure('language/provider-error', error);
  }
  if (model?.kind !== 'chat') {
    throw languageNotConfigured("This bot's chat model is no longer offered to its organisation.");
  }
  return chatTranslator(model.chat);
}

/** Detects and, with a target, translates a visitor's text with the bot's translator. */
export async function translateText(
  deps: SpeechDeps,
  tenantId: string,
  config: WidgetConfig,
  request: { text: string; target: string | null; signal?: AbortSignal },
): Promise<Translation> {
  const translator = await translatorFor(deps, tenantId, config);
  try {
    return await translator.translate(request);
  } catch (error) {
    throw providerFailure('language/provider-error', error);
  }
}

/**
 * The bot's server voice when its voice is `server`: Amazon Polly, Google Text-to-Speech or its speech model; 501
 * tts/not-configured otherwise or when the model is gone.
 */
export async function voiceFor(deps: SpeechDeps, tenantId: string, config: WidgetConfig): Promise<Voice> {
  if (!widgetServices(config).tts) throw ttsNotConfigured();
  const engine = voiceEngineOf(config);
  if (engine === 'polly') {
    return pollyVoice(deps.modelFetch, {
      ...awsSettingsOf(deps, config, config.aws.polly_url),
      voiceId: config.aws.polly.voiceId,
      engine: config.aws.polly.engine,
    });
  }
  if (engine === 'google') {
    return googleVoice(deps.fetch, {
      baseUrl: config.google.tts_url === '' ? GOOGLE_TTS_URL_DEFAULT : config.google.tts_url,
      credentials: googleCredentialsOf(deps, config),
      timeoutMs: deps.timeoutMs,
      voice: config.google.ttsVoice,
      language: config.language.default_language,
    });
  }
  const speaker = await speakerFor(deps, tenantId, config);
  return {
    id: `model:${config.engines.speech_model_id ?? ''}`,
    speak: (text, signal) => speaker.speak(text, signal),
  };
}

/** The bot's speech model; 501 tts/not-configured when the model is gone. */
async function speakerFor(deps: SpeechDeps, tenantId: string, config: WidgetConfig): Promise<SpeechModel> {
  const speechModelId = config.engines.speech_model_id;
  if (speechModelId === null) throw ttsNotConfigured();
  let model;
  try {
    model = await offeredModel(deps, tenantId, 'speech', speechModelId);
  } catch (error) {
    throw providerFailure('tts/provider-error', error);
  }
  if (model?.kind !== 'speech') {
    throw ttsNotConfigured("This bot's speech model is no longer offered to its organisation.");
  }
  return model.speech;
}

/**
 * MP3 audio of a text read aloud by the bot's server voice; the same text in the same voice within a day comes
 * from the tenant's audio cache without a provider call.
 */
export async function speakText(
  deps: SpeechDeps,
  tenantId: string,
  config: WidgetConfig,
  request: { text: string; signal?: AbortSignal },
): Promise<{ audio: Buffer; cached: boolean }> {
  const voice = await voiceFor(deps, tenantId, config);
  const key = speechAudioKey(voice.id, request.text);
  const cached = await cachedSpeechAudio(deps.db, tenantId, key);
  if (cached !== null) return { audio: cached, cached: true };
  let audio: Buffer;
  try {
    audio = await voice.speak(request.text, request.signal);
  } catch (error) {
    throw providerFailure('tts/provider-error', error);
  }
  await keepSpeechAudio(deps.db, tenantId, key, audio);
  return { audio, cached: false };
}
