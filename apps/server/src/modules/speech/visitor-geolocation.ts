import type { WidgetConfig } from '@omnibot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { isIP } from 'node:net';
import { z } from 'zod';
import { FetchError, type GuardedFetch } from '../../lib/guarded-http/guarded-fetch';
import { ProviderError } from '../models/providers';

/** How long a country found for an address is reused (visitors' addresses change rarely within hours). */
const FOUND_TTL_MS = 6 * 60 * 60 * 1000;
/** How long an address the service could not place is not asked about again. */
const MISSED_TTL_MS = 10 * 60 * 1000;
const CACHE_MAX = 10_000;
export const GEOLOCATION_TIMEOUT_MS = 3000;

/** The geojs answer of `/v1/ip/country/{ip}.json`: `{country, country_3, ip, name}`. */
const CountryAnswerSchema = z.object({ country: z.string().regex(/^[A-Z]{2}$/u) });

export interface VisitorGeolocation {
  /**
   * The country (ISO 3166-1 alpha-2) of a visitor's address from the bot's geolocation service while the bot has it
   * on; null when off, unknown or the service fails (a conversation never waits on it for long or fails with it).
   */
  countryOf(config: WidgetConfig, ip: string, signal?: AbortSignal): Promise<string | null>;
}

const CountryFailure = (message: string, fetchCode: string | null = null) =>
  new ProviderError('provider/error', message, fetchCode);

/**
 * The country of an address from a geojs-protocol service (`GET {base}/v1/ip/country/{ip}.json`) through the guarded
 * client; null when the service cannot place it (`XX`). Throws ProviderError in plain words when the call fails.
 */
export async function lookUpCountry(
  fetch: GuardedFetch,
  base: string,
  ip: string,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<string | null> {
  const service = base.replace(/\/+$/u, '');
  let text: string;
  try {
    const response = await fetch(`${service}/v1/ip/country/${encodeURIComponent(ip)}.json`, {
      headers: { accept: 'application/json' },
      maxBytes: 16 * 1024,
      timeoutMs: options.timeoutMs,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    text = response.body.toString('utf8');
  } catch (error) {
    if (error instanceof FetchError) {
      const status = error.details.status;
      throw CountryFailure(
        error.code === 'fetch/timeout'
          ? `The geolocation service at ${service} did not answer in time.`
          : status === undefined
            ? `The geolocation service at ${service} could not be reached: ${error.reason}`
            : `The geolocation service at ${service} answered HTTP ${String(status)}.`,
        error.code,
      );
    }
    throw CountryFailure(`The call to the geolocation service at ${service} failed.`);
  }
  let answer;
  try {
    answer = CountryAnswerSchema.safeParse(JSON.parse(text));
  } catch {
    throw CountryFailure(`The geolocation service at ${service} did not answer with JSON.`);
  }
  if (!answer.success) {
    throw CountryFailure(`The geolocation service at ${service} sent an answer without a country code.`);
  }
  // geojs names an address it cannot place XX.
  return answer.data.country === 'XX' ? null : answer.data.country;
}

/**
 * Visitor geolocation over the geojs protocol through the guarded HTTP client. Only the visitor's address is sent,
 * to the bot's service; answers are cached per service and address.
 */
export function createVisitorGeolocation(deps: {
  fetch: GuardedFetch;
  log: FastifyBaseLogger;
  timeoutMs?: number;
  now?: () => number;
}): VisitorGeolocation {
  const now = deps.now ?? Date.now;
  const cache = new Map<string, { country: string | null; expiresAt: number }>();
  return {
    async countryOf(config, ip, signal) {
      if (!config.geojs.enabled || isIP(ip) === 0) return null;
      const base = config.geojs.url.replace(/\/+$/u, '');
      const id = `${base}\n${ip}`;
      const cached = cache.get(id);
      if (cached && cached.expiresAt > now()) return cached.country;
      let country: string | null = null;
      try {
        country = await lookUpCountry(deps.fetch, base, ip, {
          timeoutMs: deps.timeoutMs ?? GEOLOCATION_TIMEOUT_MS,
          ...(signal === undefined ? {} : { signal }),
        });
      } catch (error) {
        // The visitor's address is not logged: it is personal data, and the service's address says enough.
        const reason = error instanceof ProviderError ? (error.fetchCode ?? error.message) : 'failed';
        deps.log.warn(
          { service: base, reason },
          'visitor geolocation failed: the conversation has no country',
        );
      }
      if (cache.size >= CACHE_MAX) cache.clear();
      cache.set(id, { country, expiresAt: now() + (country === null ? MISSED_TTL_MS : FOUND_TTL_MS) });
      return country;
    },
  };
}
