import { Readable } from 'node:stream';
import type { HttpHandlerOptions, HttpRequest } from '@smithy/types';
import { PollyClient, SynthesizeSpeechCommand, type Engine, type VoiceId } from '@aws-sdk/client-polly';
import { TranslateClient, TranslateTextCommand } from '@aws-sdk/client-translate';
import { primaryLanguageOf } from '@omnibot/contracts';
import { FetchError, type GuardedWebFetch } from '../../lib/guarded-http/guarded-fetch';
import {
  GuardedSmithyHandler,
  RequestTimeoutError,
  ResponseTooLargeError,
} from '../integrations/providers/guarded-smithy-handler';
import { type ProviderErrorCode, ProviderError } from '../models/providers';
import { normaliseLanguage, type Translator } from './translator';

export interface AwsSpeechSettings {
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Endpoint override ('' for the region's own). */
  endpoint: string;
  timeoutMs: number;
}

interface ServiceErrorLike {
  name: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

const isServiceError = (error: unknown): error is ServiceErrorLike =>
  error instanceof Error && '$metadata' in error && typeof error.$metadata === 'object';

const PLAIN_WORDS: Record<string, string> = {
  AccessDeniedException: 'the access key is not allowed to do this',
  UnrecognizedClientException: 'the access key id is not known to AWS',
  InvalidSignatureException: 'the request signature does not match: the secret access key is wrong',
  MissingAuthenticationTokenException: 'the request was not signed',
  ExpiredTokenException: 'the credentials have expired',
  ThrottlingException: 'too many requests for now',
  TooManyRequestsException: 'too many requests for now',
  UnsupportedLanguagePairException: 'the language pair is not supported',
  DetectedLanguageLowConfidenceException: 'the language of the text could not be detected',
  TextSizeLimitExceededException: 'the text is too long',
  InvalidRequestException: 'the request was refused as invalid',
  ValidationException: 'the request was refused as invalid',
  InvalidSsmlException: 'the text was refused',
  LexiconNotFoundException: 'a lexicon was not found',
  EngineNotSupportedException: 'the voice does not support this engine',
  TextLengthExceededException: 'the text is too long',
  ServiceFailureException: 'an internal error at AWS',
  InternalServerException: 'an internal error at AWS',
  ServiceUnavailableException: 'the service is unavailable for now',
};

/** An AWS SDK failure in plain words, the secret key masked in anything AWS sent back. */
export function awsFailure(error: unknown, service: string, secret: string): ProviderError {
  if (error instanceof ProviderError) return error;
  const scrub = (text: string) => (secret.length >= 8 ? text.split(secret).join('[hidden]') : text);
  if (error instanceof RequestTimeoutError) {
    return new ProviderError('provider/timeout', `${service} did not answer in time.`);
  }
  if (error instanceof ResponseTooLargeError) {
    return new ProviderError('provider/bad-response', `The answer of ${service} was larger than expected.`);
  }
  if (error instanceof FetchError) {
    return new ProviderError(
      'provider/unreachable',
      `${service} could not be reached: ${scrub(error.reason)}`,
      error.code,
    );
  }
  if (isServiceError(error)) {
    const status = error.$metadata?.httpStatusCode ?? 500;
    const words = PLAIN_WORDS[error.name] ?? 'an error';
    const code: ProviderErrorCode =
      status === 401 || status === 403
        ? 'provider/unauthorized'
        : status === 429 || error.name === 'ThrottlingException'
          ? 'provider/rate-limited'
          : 'provider/error';
    return new ProviderError(code, `${service} answered HTTP ${String(status)} ${error.name}: ${words}.`);
  }
  // The SDK could not read the answer (not the JSON or audio AWS sends).
  return new ProviderError('provider/bad-response', `${service} sent an answer that could not be read.`);
}

function clientConfig(fetch: GuardedWebFetch, settings: AwsSpeechSettings, maxBytes: number) {
  return {
    region: settings.region,
    ...(settings.endpoint === '' ? {} : { endpoint: settings.endpoint }),
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    requestHandler: new GuardedSmithyHandler(fetch, { requestTimeoutMs: settings.timeoutMs, maxBytes }),
    // One attempt: a visitor waits for the answer, and a hang is not multiplied by retries.
    maxAttempts: 1,
  };
}

/** The detection target when only the language of a text is asked: Translate always needs a target. */
const DETECTION_TARGET = 'en';

/**
 * Amazon Translate's TranslateText through the official SDK over the guarded client, with the bot's Formality and
 * Profanity settings; the language is detected by Translate's `auto` source (a text without a target is translated
 * into English only to learn its language).
 */
export function awsTranslator(
  fetch: GuardedWebFetch,
  settings: AwsSpeechSettings & { formality: 'FORMAL' | 'INFORMAL'; profanity: 'MASK' },
): Translator {
  const client = new TranslateClient(clientConfig(fetch, settings, 1024 * 1024));
  const service = 'Amazon Translate';
  return {
    async translate(request) {
      const target = request.target ?? DETECTION_TARGET;
      let answer;
      try {
        answer = await client.send(
          new TranslateTextCommand({
            Text: request.text,
            SourceLanguageCode: request.source ?? 'auto',
            TargetLanguageCode: target,
            Settings: { Formality: settings.formality, Profanity: settings.profanity },
          }),
          request.signal === undefined ? {} : { abortSignal: request.signal },
        );
      } catch (error) {
        throw awsFailure(error, service, settings.secretAccessKey);
      }
      const detected = normaliseLanguage(answer.SourceLanguageCode);
      if (detected === null || typeof answer.TranslatedText !== 'string') {
        throw new ProviderError('provider/bad-response', `${service} sent an answer it should not.`);
      }
      if (request.target === null || primaryLanguageOf(detected) === primaryLanguageOf(request.target)) {
        return { detected, text: request.text };
      }
      return { detected, text: answer.TranslatedText };
    },
  };
}

/** A server voice: MP3 audio of a text. */
export interface Voice {
  /** What identifies the voice in the audio cache (engine and voice, never a key). */
  readonly id: string;
  speak(text: string, signal?: AbortSignal): Promise<Buffer>;
}

/**
 * The guarded handler for operations that answer a stream (Polly's audio): the SDK reads such a body only as a
 * Node stream, so the capped bytes are handed over as one.
 */
class StreamingGuardedHandler extends GuardedSmithyHandler {
  override async handle(request: HttpRequest, options?: HttpHandlerOptions) {
    const { response } = await super.handle(request, options);
    return { response: { ...response, body: Readable.from([Buffer.from(response.body as Uint8Array)]) } };
  }
}

/** Polly's audio is short speech; anything larger than this is refused. */
const POLLY_MAX_BYTES = 8 * 1024 * 1024;

/** Amazon Polly's SynthesizeSpeech (MP3) through the official SDK over the guarded client. */
export function pollyVoice(
  fetch: GuardedWebFetch,
  settings: AwsSpeechSettings & { voiceId: string; engine: string },
): Voice {
  const client = new PollyClient({
    ...clientConfig(fetch, settings, POLLY_MAX_BYTES),
    requestHandler: new StreamingGuardedHandler(fetch, {
      requestTimeoutMs: settings.timeoutMs,
      maxBytes: POLLY_MAX_BYTES,
    }),
  });
  const service = 'Amazon Polly';
  const voiceId = settings.voiceId === '' ? 'Joanna' : settings.voiceId;
  return {
    id: `polly:${settings.region}:${voiceId}:${settings.engine}`,
    async speak(text, signal) {
      try {
        const answer = await client.send(
          new SynthesizeSpeechCommand({
            Text: text,
            OutputFormat: 'mp3',
            VoiceId: voiceId as VoiceId,
            ...(settings.engine === '' ? {} : { Engine: settings.engine as Engine }),
          }),
          signal === undefined ? {} : { abortSignal: signal },
        );
        const bytes = await answer.AudioStream?.transformToByteArray();
        if (bytes === undefined || bytes.byteLength === 0) {
          throw new ProviderError('provider/bad-response', `${service} sent no audio.`);
        }
        return Buffer.from(bytes);
      } catch (error) {
        throw awsFailure(error, service, settings.secretAccessKey);
      }
    },
  };
}
