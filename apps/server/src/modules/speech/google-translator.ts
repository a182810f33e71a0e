import { primaryLanguageOf } from '@omnibot/contracts';
import { z } from 'zod';
import type { GuardedFetch } from '../../lib/guarded-http/guarded-fetch';
import { ProviderError } from '../models/providers';
import { type GoogleTokens, googleFailure, readServiceAccountKey } from './google-auth';
import { normaliseLanguage, type Translation, type TranslationRequest, type Translator } from './translator';

export const GOOGLE_TRANSLATE_URL_DEFAULT = 'https://translation.googleapis.com';
const SERVICE = 'Google Cloud Translation';

/** How a Google call is authorised: a service account (Cloud Translation v3) or an API key (v2). */
export type GoogleCredentials =
  { kind: 'service-account'; keyJson: string; tokens: GoogleTokens } | { kind: 'api-key'; apiKey: string };

export interface GoogleCallSettings {
  /** The API's base address (the default, or the bot's override). */
  baseUrl: string;
  credentials: GoogleCredentials;
  timeoutMs: number;
}

/** The authorisation headers of a call: a bearer token for a service account, X-Goog-Api-Key for an API key. */
export async function googleAuthHeaders(
  credentials: GoogleCredentials,
  signal: AbortSignal | undefined,
): Promise<Record<string, string>> {
  if (credentials.kind === 'api-key') return { 'x-goog-api-key': credentials.apiKey };
  const key = readServiceAccountKey(credentials.keyJson);
  return { authorization: `Bearer ${await credentials.tokens.tokenFor(key, signal)}` };
}

/** A JSON POST to a Google API through the guarded client; ProviderError in plain words when it fails. */
export async function postGoogle(
  fetch: GuardedFetch,
  settings: GoogleCallSettings,
  service: string,
  path: string,
  body: unknown,
  options: { signal: AbortSignal | undefined; maxBytes: number },
): Promise<unknown> {
  const base = settings.baseUrl.replace(/\/+$/u, '');
  let text: string;
  try {
    const headers = await googleAuthHeaders(settings.credentials, options.signal);
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      maxBytes: options.maxBytes,
      timeoutMs: settings.timeoutMs,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    text = response.body.toString('utf8');
  } catch (error) {
    throw googleFailure(error, service);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProviderError('provider/bad-response', `${service} did not answer with JSON.`);
  }
}

const V3TranslateSchema = z.object({
  translations: z
    .array(z.object({ translatedText: z.string(), detectedLanguageCode: z.string().optional() }))
    .min(1),
});
const V3DetectSchema = z.object({
  languages: z.array(z.object({ languageCode: z.string(), confidence: z.number().optional() })).min(1),
});
const V2TranslateSchema = z.object({
  data: z.object({
    translations: z
      .array(z.object({ translatedText: z.string(), detectedSourceLanguage: z.string().optional() }))
      .min(1),
  }),
});
const V2DetectSchema = z.object({
  data: z.object({ detections: z.array(z.array(z.object({ language: z.string() })).min(1)).min(1) }),
});

const badAnswer = () =>
  new ProviderError('provider/bad-response', `${SERVICE} sent an answer it should not.`);

function detectedOf(value: unknown): string {
  const detected = normaliseLanguage(value);
  if (detected === null) throw badAnswer();
  return detected;
}

/**
 * Cloud Translation through the guarded HTTP client: v3 (`projects/{project}/locations/global:translateText` and
 * `:detectLanguage`) with a service account's bearer token, v2 (`/language/translate/v2` and `/detect`) with an API
 * key in the X-Goog-Api-Key header (never in the address, which error messages may name).
 */
export function googleTranslator(fetch: GuardedFetch, settings: GoogleCallSettings): Translator {
  const call = (path: string, body: unknown, signal: AbortSignal | undefined) =>
    postGoogle(fetch, settings, SERVICE, path, body, { signal, maxBytes: 1024 * 1024 });
  const v3 = () => {
    if (settings.credentials.kind !== 'service-account') return null;
    const { projectId } = readServiceAccountKey(settings.credentials.keyJson);
    return `/v3/projects/${encodeURIComponent(projectId)}/locations/global`;
  };
  return {
    async translate(request: TranslationRequest): Promise<Translation> {
      const parent = v3();
      if (request.target === null) {
        if (parent !== null) {
          const answer = V3DetectSchema.safeParse(
            await call(
              `${parent}:detectLanguage`,
              { content: request.text, mimeType: 'text/plain' },
              request.signal,
            ),
          );
          if (!answer.success) throw badAnswer();
          return { detected: detectedOf(answer.data.languages[0]?.languageCode), text: request.text };
        }
        const answer = V2DetectSchema.safeParse(
          await call('/language/translate/v2/detect', { q: request.text }, request.signal),
        );
        if (!answer.success) throw badAnswer();
        return { detected: detectedOf(answer.data.data.detections[0]?.[0]?.language), text: request.text };
      }
      let translated: string;
      let reported: unknown;
      if (parent !== null) {
        const answer = V3TranslateSchema.safeParse(
          await call(
            `${parent}:translateText`,
            {
              contents: [request.text],
              targetLanguageCode: request.target,
              mimeType: 'text/plain',
              ...(request.source === undefined ? {} : { sourceLanguageCode: request.source }),
            },
            request.signal,
          ),
        );
        if (!answer.success) throw badAnswer();
        const [first] = answer.data.translations;
        translated = first?.translatedText ?? '';
        reported = first?.detectedLanguageCode ?? request.source;
      } else {
        const answer = V2TranslateSchema.safeParse(
          await call(
            '/language/translate/v2',
            {
              q: request.text,
              target: request.target,
              format: 'text',
              ...(request.source === undefined ? {} : { source: request.source }),
            },
            request.signal,
          ),
        );
        if (!answer.success) throw badAnswer();
        const [first] = answer.data.data.translations;
        translated = first?.translatedText ?? '';
        reported = first?.detectedSourceLanguage ?? request.source;
      }
      const detected = detectedOf(reported);
      if (primaryLanguageOf(detected) === primaryLanguageOf(request.target)) {
        return { detected, text: request.text };
      }
      return { detected, text: translated };
    },
  };
}
