/** The protocols a link shown to a person may use: web pages and downloads, never `javascript:` or `data:`. */
const WEB_LINK_PROTOCOLS: readonly string[] = ['http:', 'https:'];

/** Where the server serves a file through a signed download link. */
export const SIGNED_DOWNLOAD_PATH = '/v1/files/download';

/** Whether `value` is an absolute http(s) address. */
export function isWebLink(value: string): boolean {
  try {
    return WEB_LINK_PROTOCOLS.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * The href a source link may be given: an absolute http(s) address, or a signed download path of the server
 * (`/v1/files/download?…`) resolved against `origin`; null for anything else (another scheme, another path).
 */
export function safeSourceHref(value: string | null | undefined, origin: string): string | null {
  if (!value) return null;
  if (isWebLink(value)) return new URL(value).href;
  if (!value.startsWith(`${SIGNED_DOWNLOAD_PATH}?`)) return null;
  try {
    const url = new URL(value, origin);
    return url.origin === new URL(origin).origin && url.pathname === SIGNED_DOWNLOAD_PATH ? url.href : null;
  } catch {
    return null;
  }
}
