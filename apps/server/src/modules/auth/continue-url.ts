import { AUTH_ERROR_CODES, AUTH_MESSAGES } from '@omnibot/contracts';
import { AppError } from '../../lib/errors';

/** The origins a continue (redirect) URL may point to: this server's and TRUSTED_ORIGINS. */
export function trustedOrigins(publicUrl: string, extra: string[]): string[] {
  const own = new URL(publicUrl);
  const origins = new Set([own.origin, ...extra.map((origin) => origin.replace(/\/$/, ''))]);
  // A server published on localhost is also opened as 127.0.0.1 on the same machine.
  if (own.hostname === 'localhost')
    origins.add(`${own.protocol}//127.0.0.1${own.port ? `:${own.port}` : ''}`);
  return [...origins];
}

/** Checks a continue URL from a client: present, absolute http(s), and on a trusted origin. Never redirect elsewhere. */
export function assertContinueUrl(value: unknown, origins: string[]): string {
  if (value === undefined || value === null || value === '') {
    throw new AppError(400, AUTH_ERROR_CODES.missingContinueUri, AUTH_MESSAGES.missingContinueUri);
  }
  let url: URL;
  try {
    if (typeof value !== 'string' || value.length > 2048) throw new Error('not a string');
    url = new URL(value);
  } catch {
    throw new AppError(400, AUTH_ERROR_CODES.invalidContinueUri, AUTH_MESSAGES.invalidContinueUri);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError(400, AUTH_ERROR_CODES.invalidContinueUri, AUTH_MESSAGES.invalidContinueUri);
  }
  if (!origins.includes(url.origin) || url.username || url.password) {
    throw new AppError(403, AUTH_ERROR_CODES.unauthorizedContinueUri, AUTH_MESSAGES.unauthorizedContinueUri);
  }
  return url.toString();
}
