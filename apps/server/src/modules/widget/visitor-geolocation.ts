import type { WidgetConfig } from '@omnibot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { isIP } from 'node:net';
import { z } from 'zod';
import { FetchError, type GuardedFetch } from '../../lib/guarded-http/guarded-fetch';

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

/**
 * Visitor geolocation over the geojs protocol (`GET {url}/v1/ip/country/{ip}.json`) through the guarded HTTP
 * client. Only the visitor's address is sent, to the bot's service; answers are cached per service and address.
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
        const response = await deps.fetch(`${base}/v1/ip/country/${encodeURIComponent(ip)}.json`, {
          headers: { accept: 'application/json' },
          maxBytes: 16 * 1024,
          timeoutMs: deps.timeoutMs ?? GEOLOCATION_TIMEOUT_MS,
          ...(signal === undefined ? {} : { signal }),
        });
        const answer = CountryAnswerSchema.safeParse(JSON.parse(response.body.toString('utf8')));
        // geojs names an address it cannot place XX.
        if (answer.success) country = answer.data.country === 'XX' ? null : answer.data.country;
        else deps.log.warn({ service: base }, 'the geolocation service sent an answer without a country');
      } catch (error) {
        // The visitor's address is not logged: it is personal data, and the service's address says enough.
        const reason = error instanceof FetchError ? error.code : 'not JSON';
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
