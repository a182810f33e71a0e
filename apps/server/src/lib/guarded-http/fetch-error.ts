export type FetchErrorCode =
  | 'fetch/invalid-url'
  | 'fetch/unsupported-scheme'
  | 'fetch/credentials-in-url'
  | 'fetch/blocked-host'
  | 'fetch/blocked-address'
  | 'fetch/dns-failure'
  | 'fetch/connection-failed'
  | 'fetch/timeout'
  | 'fetch/aborted'
  | 'fetch/too-large'
  | 'fetch/too-many-redirects'
  | 'fetch/http-status'
  | 'fetch/unsupported-encoding'
  | 'fetch/bad-response';

/** A refused or failed outbound fetch: a stable `code`, and a `reason` in plain words fit to show a tenant. */
export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    readonly reason: string,
    /** The address being fetched when it failed (after redirects), and the HTTP status when there was one. */
    readonly details: { url?: string; status?: number } = {},
  ) {
    super(reason);
    this.name = 'FetchError';
  }
}

/** Plain words for any error thrown by a guarded fetch, for storing on the thing that was being fetched. */
export function describeFetchError(error: unknown): string {
  if (error instanceof FetchError) return error.reason;
  return 'The address could not be fetched because of an unexpected error.';
}
