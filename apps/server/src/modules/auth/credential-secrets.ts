import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { shortId } from '../../lib/ids';

/** The public half of an API credential: a lookup id, not a secret (24 characters, URL-safe, no colon). */
export const newCredentialKey = () => shortId(24);

/** The secret half: 32 random bytes, shown to the caller once. */
export const newCredentialSecret = () => randomBytes(32).toString('base64url');

/**
 * The stored form of a credential secret. The secret is 32 random bytes (256 bits), so nobody can guess it and a
 * slow password hash (scrypt) would only add latency to every server-to-server call; a keyed HMAC-SHA256 is
 * enough. Keyed with the server's auth secret, a stolen database alone does not even allow testing guesses.
 */
export function hashCredentialSecret(serverSecret: string, secret: string): string {
  return createHmac('sha256', serverSecret)
    .update('omnibot/credential-secret/v1\0')
    .update(secret)
    .digest('hex');
}

/** Compares in constant time; a stored value of another length (or a placeholder) never matches. */
export function credentialSecretMatches(serverSecret: string, secret: string, storedHash: string): boolean {
  const isHash = /^[0-9a-f]{64}$/.test(storedHash);
  const actual = Buffer.from(hashCredentialSecret(serverSecret, secret), 'hex');
  const expected = Buffer.from(isHash ? storedHash : '0'.repeat(64), 'hex');
  return timingSafeEqual(actual, expected) && isHash;
}
