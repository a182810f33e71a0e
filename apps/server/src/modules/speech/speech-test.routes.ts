import {
  BotIdParamsSchema,
  BotServiceTestBodySchema,
  ErrorBodySchema,
  IntegrationTestResultSchema,
  type IntegrationTestResult,
  NoQuerySchema,
} from '@omnibot/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { type Identity, requirePrincipal } from '../auth/principal';
import { type BotSecrets, getBot } from '../bots/bots.service';
import { type SpeechDeps, translateText, voiceFor } from './speech.service';
import { GEOLOCATION_TIMEOUT_MS, lookUpCountry } from './visitor-geolocation';
import { ProviderError } from '../models/providers';

/** The address a geolocation test asks about: a well-known public resolver's, never a visitor's. */
const PROBE_ADDRESS = '8.8.8.8';

const failed = (error: unknown, code: string): IntegrationTestResult => {
  if (error instanceof AppError) return { ok: false, code: error.code, message: error.message };
  if (error instanceof ProviderError) return { ok: false, code, message: error.message };
  throw error;
};

/**
 * "Test connection" for a bot's translator, server voice and geolocation service, with its saved settings: one
 * harmless real call (a word translated, a word read aloud, the country of a public resolver's address), the
 * provider's refusal in plain words. Nothing is cached or stored.
 */
export async function speechTestRoutes(
  app: FastifyInstance,
  deps: { identity: Identity; botSecrets: BotSecrets; speech: SpeechDeps },
) {
  const { db } = deps.identity;
  const signedIn = [requirePrincipal(deps.identity, { credentials: true })];
  await app.register(async (scope) => {
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/v1/bots/:id/services/test',
      {
        onRequest: [...signedIn],
        schema: {
          tags: ['bots'],
          summary:
            "Try a bot's translator, server voice or geolocation service with its saved settings (one harmless call)",
          params: BotIdParamsSchema,
          querystring: NoQuerySchema,
          body: BotServiceTestBodySchema,
          response: {
            200: IntegrationTestResultSchema,
            400: ErrorBodySchema,
            401: ErrorBodySchema,
            403: ErrorBodySchema,
            404: ErrorBodySchema,
          },
        },
      },
      async (request): Promise<IntegrationTestResult> => {
        const bot = await getBot(
          { db, secrets: deps.botSecrets },
          actorOf(request).principal,
          request.params.id,
        );
        const { tenantId } = bot.row;
        const started = performance.now();
        const latency = () => Math.round(performance.now() - started);
        const { service } = request.body;
        if (service === 'translate') {
          try {
            const result = await translateText(deps.speech, tenantId, bot.config, {
              text: 'Hello',
              target: 'fr',
            });
            return {
              ok: true,
              latency_ms: latency(),
              detail: `"Hello" (detected ${result.detected}) in French: "${result.text}".`,
            };
          } catch (error) {
            return failed(error, 'language/provider-error');
          }
        }
        if (service === 'tts') {
          try {
            const voice = await voiceFor(deps.speech, tenantId, bot.config);
            const audio = await voice.speak('Hello');
            return {
              ok: true,
              latency_ms: latency(),
              detail: `"Hello" read aloud: ${String(audio.byteLength)} bytes of audio.`,
            };
          } catch (error) {
            return failed(error, 'tts/provider-error');
          }
        }
        if (!bot.config.geojs.enabled) {
          return {
            ok: false,
            code: 'geolocation/off',
            message: 'Geolocation is off for this bot: switch it on first.',
          };
        }
        try {
          const country = await lookUpCountry(deps.speech.fetch, bot.config.geojs.url, PROBE_ADDRESS, {
            timeoutMs: GEOLOCATION_TIMEOUT_MS,
          });
          return {
            ok: true,
            latency_ms: latency(),
            detail: `The service placed ${PROBE_ADDRESS} (a public resolver) in ${country ?? 'no country'}.`,
          };
        } catch (error) {
          return failed(error, 'geolocation/provider-error');
        }
      },
    );
  });
}
