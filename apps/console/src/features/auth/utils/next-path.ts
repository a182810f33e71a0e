import { PUBLIC_PATHS } from '../../../config/paths';

/**
 * The `?next=` target after sign-in, when it is safe: a path on this site (never `//host` or a URL, so the
 * login page cannot be used to send people elsewhere) and not one of the signed-out pages.
 */
export function safeNextPath(value: string | null | undefined): string | undefined {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  let url: URL;
  try {
    url = new URL(value, 'http://console.invalid');
  } catch {
    return undefined;
  }
  if (url.origin !== 'http://console.invalid' || PUBLIC_PATHS.includes(url.pathname)) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** `/login?next=...` for a visitor who asked for `path` while signed out. */
export function loginPathFor(path: string, loginPath: string): string {
  const next = safeNextPath(path);
  return next ? `${loginPath}?${new URLSearchParams({ next }).toString()}` : loginPath;
}
