export type FetchErrorCode =
  | 'fetch/invalid-url'
  | 'fetch/unsupported-scheme'
  | 'fetch/credentials-in-url'
  | 'fetch/blocked-host'
  | 'fetch/blocked-address'
  | 'fetch/blocked-port'
  | 'fetch/dns-failure'
  | 'fetch/connection-failed'
  | 'fetch/timeout'
  | 'fetch/aborted'
  | 'fetch/too-large'
  | 'fetch/too-many-redirects'
  | 'fetch/http-status'
  | 'fetch/unsupported-encoding'
  | 'fetch/bad-response';

/** The rule of the guarded client that refused an address before any connection. */
export type FetchRule =
  | 'http-only'
  | 'no-credentials'
  | 'private-address'
  | 'loopback'
  | 'link-local'
  | 'cloud-metadata'
  | 'reserved-address'
  | 'port-not-allowed';

/** A refused or failed outbound fetch: a stable `code`, and a `reason` in plain words fit to show a tenant. */
export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    readonly reason: string,
    /** The address being fetched when it failed (after redirects), and the HTTP status when there was one. */
    readonly details: { url?: string; status?: number; rule?: FetchRule } = {},
  ) {
    super(reason);
    this.name = 'FetchError';
  }
}

/** The refusals an operator can lift with FETCH_ALLOW_ADDRESSES (a metadata address or name never is). */
const ALLOWABLE_CODES: ReadonlySet<string> = new Set(['fetch/blocked-address', 'fetch/blocked-port']);

/** How a master administrator allows a private site, told only to masters since only the operator can do it. */
export const PRIVATE_SITE_HINT =
  'A master administrator allows a private site by adding its address, range or address:port to the ' +
  'FETCH_ALLOW_ADDRESSES environment variable (comma-separated, for example 10.0.0.5:8080 or 10.0.0.0/8) ' +
  'and restarting the server.';

/** A refusal's reason as a principal reads it: a master also learns how the refused site is allowed. */
export function refusalReasonFor(
  code: string,
  reason: string,
  principal: { role: string } | null | undefined,
): string {
  return principal?.role === 'master' && ALLOWABLE_CODES.has(code)
    ? `${reason} ${PRIVATE_SITE_HINT}`
    : reason;
}
