import { offersTranslation, type WidgetConfig, type WidgetServices } from '@omnibot/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { GuardedFetch, GuardedWebFetch } from '../../lib/guarded-http/guarded-fetch';
import { type SecretBox, SecretBoxError } from '../../lib/secret-box';
import { modelsOfferedTo } from '../models/models.service';
import { modelFromRow, ProviderError, type SpeechModel } from '../models/providers';
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

/**
 * Which speech services a bot's configuration offers (what the widget may show), read from the configuration
 * alone: translation with a chat model or a LibreTranslate address, a server voice with a speech model.
 */
export function widgetServices(config: WidgetConfig): WidgetServices {
  const speechModelId = config.engines.speech_model_id;
  return {
    translate: offersTranslation(config),
    tts: config.behaviour.voice === 'server' && speechModelId !== null,
  };
}

const languageNotConfigured = (message = 'This bot offers no translation.') =>
  new AppError(501, 'language/not-configured', message);
const ttsNotConfigured = (message = 'This bot offers no server voice.') =>
  new AppError(501, 'tts/not-configured', message);

/** A provider's failure as the widget receives it: 502 with the provider's reason in plain words. */
const providerFailure = (code: 'language/provider-error' | 'tts/provider-error', error: unknown) => {
  if (error instanceof ProviderError) return new AppError(502, code, error.message);
  if (error instanceof SecretBoxError) {
    return new AppError(
      502,
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
 * server for `libretranslate`; 501 language/not-configured for anything else or when the model is gone.
 */
export async function translatorFor(
  deps: SpeechDeps,
  tenantId: string,
  config: WidgetConfig,
): Promise<Translator> {
  if (!widgetServices(config).translate) throw languageNotConfigured();
  const { translateEngine, model_id: modelId } = config.engines;
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

/** The bot's speech model when its voice is `server`; 501 tts/not-configured otherwise or when the model is gone. */
async function speakerFor(deps: SpeechDeps, tenantId: string, config: WidgetConfig): Promise<SpeechModel> {
  const speechModelId = config.engines.speech_model_id;
  if (!widgetServices(config).tts || speechModelId === null) throw ttsNotConfigured();
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

/** MP3 audio of a text read aloud by the bot's server voice. */
export async function speakText(
  deps: SpeechDeps,
  tenantId: string,
  config: WidgetConfig,
  request: { text: string; signal?: AbortSignal },
): Promise<Buffer> {
  const speaker = await speakerFor(deps, tenantId, config);
  try {
    return await speaker.speak(request.text, request.signal);
  } catch (error) {
    throw providerFailure('tts/provider-error', error);
  }
}
