import { z } from 'zod';
import type { GuardedFetch } from '../../lib/guarded-http/guarded-fetch';
import { ProviderError } from '../models/providers';
import type { Voice } from './aws-speech';
import { type GoogleCallSettings, postGoogle } from './google-translator';

export const GOOGLE_TTS_URL_DEFAULT = 'https://texttospeech.googleapis.com';
const SERVICE = 'Google Text-to-Speech';
/** Base64 of the longest audio accepted (8 MiB of MP3). */
const AUDIO_MAX_BYTES = 8 * 1024 * 1024;

const SynthesizeAnswerSchema = z.object({ audioContent: z.string().min(1) });

/** The language of a Google voice name: its first two parts (`en-US-Standard-C` -> `en-US`). */
export function languageOfVoice(voice: string, fallback: string): string {
  const parts = voice.split('-');
  return parts.length >= 3 ? `${parts[0] ?? ''}-${parts[1] ?? ''}` : fallback;
}

/**
 * Google Text-to-Speech v1 (`POST /v1/text:synthesize`, MP3) through the guarded client, with a service account's
 * token or an API key; the voice by name (the bot's `google.ttsVoice`) or Google's default for the language.
 */
export function googleVoice(
  fetch: GuardedFetch,
  settings: GoogleCallSettings & { voice: string; language: string },
): Voice {
  const languageCode = languageOfVoice(settings.voice, settings.language);
  return {
    id: `google:${languageCode}:${settings.voice}`,
    async speak(text, signal) {
      const answer = SynthesizeAnswerSchema.safeParse(
        await postGoogle(
          fetch,
          settings,
          SERVICE,
          '/v1/text:synthesize',
          {
            input: { text },
            voice: { languageCode, ...(settings.voice === '' ? {} : { name: settings.voice }) },
            audioConfig: { audioEncoding: 'MP3' },
          },
          { signal, maxBytes: Math.ceil((AUDIO_MAX_BYTES * 4) / 3) + 4096 },
        ),
      );
      if (!answer.success) {
        throw new ProviderError('provider/bad-response', `${SERVICE} sent no audio.`);
      }
      const audio = Buffer.from(answer.data.audioContent, 'base64');
      if (audio.byteLength === 0)
        throw new ProviderError('provider/bad-response', `${SERVICE} sent no audio.`);
      return audio;
    },
  };
}
