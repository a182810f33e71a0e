/** The error code of a kept secret whose endpoint changed. */
export const SECRET_ENDPOINT_CHANGED = 'secret/endpoint-changed';

/** Why a kept secret is refused, in plain words; `what` names the secret and `where` its address field. */
export function secretEndpointChangedMessage(what = 'The API key', where = 'the URL'): string {
  return `${what} must be entered again when ${where} changes: a stored key is only sent to the address it was entered for.`;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * Where a secret is sent, normalised: scheme, host (lower case, IDN as punycode, no trailing dot), port (the
 * scheme's default written out) and path (dot segments resolved, trailing slashes dropped). Query, fragment and
 * user info are not part of it. '' for an empty address; null for one that is not an absolute URL.
 */
export function secretEndpointOf(address: string): string | null {
  const trimmed = address.trim();
  if (trimmed === '') return '';
  if (!URL.canParse(trimmed)) return null;
  const url = new URL(trimmed);
  const host = url.hostname.replace(/\.+$/u, '');
  const port = url.port === '' ? (DEFAULT_PORTS[url.protocol] ?? '') : url.port;
  const path = url.pathname.replace(/\/+$/u, '');
  return `${url.protocol}//${host}:${port}${path}`;
}

/**
 * Whether a stored secret may keep being sent after its address changed from `before` to `after`: only when both
 * name the same endpoint (scheme, host, port and path). An address that cannot be read never matches.
 */
export function isSameSecretEndpoint(before: string, after: string): boolean {
  const from = secretEndpointOf(before);
  return from !== null && from === secretEndpointOf(after);
}
