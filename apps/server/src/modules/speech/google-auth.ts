import { createHash, createSign } from 'node:crypto';
import { z } from 'zod';
import { FetchError, type GuardedFetch } from '../../lib/guarded-http/guarded-fetch';
import { ProviderError } from '../models/providers';

const GOOGLE_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
/** A token is renewed this long before Google says it expires, so no call carries one that lapses in flight. */
const TOKEN_MARGIN_MS = 60_000;
const TOKEN_CACHE_MAX = 500;

const ServiceAccountKeySchema = z.object({
  type: z.literal('service_account').optional(),
  project_id: z.string().min(1),
  client_email: z.string().min(3),
  private_key: z.string().includes('PRIVATE KEY'),
  private_key_id: z.string().optional(),
  token_uri: z.url().optional(),
});

export interface ServiceAccountKey {
  projectId: string;
  clientEmail: string;
  privateKey: string;
  privateKeyId: string | undefined;
  tokenUri: string;
}

/** A Google service-account key file (JSON) read; ProviderError in plain words when it is not one. */
export function readServiceAccountKey(json: string): ServiceAccountKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new ProviderError('provider/unauthorized', 'The Google service account key is not JSON.');
  }
  const key = ServiceAccountKeySchema.safeParse(parsed);
  if (!key.success) {
    throw new ProviderError(
      'provider/unauthorized',
      'The Google service account key lacks project_id, client_email or private_key.',
    );
  }
  return {
    projectId: key.data.project_id,
    clientEmail: key.data.client_email,
    privateKey: key.data.private_key,
    privateKeyId: key.data.private_key_id,
    tokenUri: key.data.token_uri ?? GOOGLE_TOKEN_URI,
  };
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** The RS256-signed JWT assertion of the OAuth 2.0 JWT bearer grant (RFC 7523) Google's token endpoint takes. */
export function signedAssertion(key: ServiceAccountKey, nowMs = Date.now()): string {
  const issuedAt = Math.floor(nowMs / 1000);
  const header = { alg: 'RS256', typ: 'JWT', ...(key.privateKeyId ? { kid: key.privateKeyId } : {}) };
  const claims = {
    iss: key.clientEmail,
    scope: GOOGLE_SCOPE,
    aud: key.tokenUri,
    iat: issuedAt,
    exp: issuedAt + 3600,
  };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  let signature: Buffer;
  try {
    signature = createSign('RSA-SHA256').update(unsigned).sign(key.privateKey);
  } catch {
    throw new ProviderError(
      'provider/unauthorized',
      'The private key of the Google service account key cannot sign.',
    );
  }
  return `${unsigned}.${base64url(signature)}`;
}

const TokenAnswerSchema = z.object({ access_token: z.string().min(1), expires_in: z.number().positive() });

/** A Google refusal in plain words: its `{error: {code, message, status}}` or the OAuth `{error, error_description}`. */
export function googleFailure(error: unknown, service: string): ProviderError {
  if (error instanceof ProviderError) return error;
  if (error instanceof FetchError) {
    const { status } = error.details;
    if (error.code === 'fetch/timeout') {
      return new ProviderError('provider/timeout', `${service} did not answer in time.`);
    }
    if (status === undefined) {
      return new ProviderError(
        'provider/unreachable',
        `${service} could not be reached: ${error.reason}`,
        error.code,
      );
    }
    if (status === 401 || status === 403) {
      return new ProviderError(
        'provider/unauthorized',
        `${service} refused the credentials (HTTP ${String(status)}).`,
      );
    }
    if (status === 429) {
      return new ProviderError('provider/rate-limited', `${service} is limiting requests; try again later.`);
    }
    if (status === 400) {
      return new ProviderError(
        'provider/error',
        `${service} refused the request (HTTP 400): the API key may be invalid, or the language or voice not supported.`,
      );
    }
    return new ProviderError('provider/error', `${service} answered HTTP ${String(status)}.`);
  }
  return new ProviderError('provider/error', `The call to ${service} failed.`);
}

export interface GoogleTokens {
  /** A bearer token for the key, from the cache while it is good. */
  tokenFor(key: ServiceAccountKey, signal?: AbortSignal): Promise<string>;
}

/** Access tokens of service-account keys, exchanged at the key's token URI and kept until shortly before expiry. */
export function createGoogleTokens(
  fetch: GuardedFetch,
  options: { timeoutMs: number; now?: () => number },
): GoogleTokens {
  const now = options.now ?? Date.now;
  const cache = new Map<string, { token: string; expiresAt: number }>();
  return {
    async tokenFor(key, signal) {
      // The cache is keyed by a digest, so no private key is held as a map key.
      const id = createHash('sha256')
        .update(`${key.tokenUri}\n${key.clientEmail}\n${key.privateKey}`)
        .digest('hex');
      const cached = cache.get(id);
      if (cached && cached.expiresAt > now()) return cached.token;
      const body = new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion: signedAssertion(key, now()),
      }).toString();
      let answer: unknown;
      try {
        const response = await fetch(key.tokenUri, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body,
          maxBytes: 64 * 1024,
          timeoutMs: options.timeoutMs,
          ...(signal === undefined ? {} : { signal }),
        });
        answer = JSON.parse(response.body.toString('utf8'));
      } catch (error) {
        if (error instanceof SyntaxError) {
          throw new ProviderError('provider/bad-response', 'Google sign-in did not answer with JSON.');
        }
        throw googleFailure(error, 'Google sign-in (the service account key)');
      }
      const token = TokenAnswerSchema.safeParse(answer);
      if (!token.success) {
        throw new ProviderError('provider/bad-response', 'Google sign-in sent no access token.');
      }
      if (cache.size >= TOKEN_CACHE_MAX) cache.clear();
      cache.set(id, {
        token: token.data.access_token,
        expiresAt: now() + token.data.expires_in * 1000 - TOKEN_MARGIN_MS,
      });
      return token.data.access_token;
    },
  };
}
