/** Raised on window when a lazily loaded chunk cannot be fetched (typically: a newer deploy removed it). */
export const PRELOAD_ERROR_EVENT = 'preload-error';

const chunkLoadErrors = new WeakSet<object>();

const CHUNK_ERROR_MESSAGES = [
  'Failed to fetch dynamically imported module',
  'error loading dynamically imported module',
  'Importing a module script failed',
  'Unable to preload CSS',
];

/** True for errors of a failed lazy import: those seen by lazyRoute or Vite, or with a browser's wording. */
export function isChunkLoadError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (chunkLoadErrors.has(error)) return true;
  const message = error instanceof Error ? error.message : '';
  return CHUNK_ERROR_MESSAGES.some((text) => message.includes(text));
}

/**
 * Wraps a route module import for React Router's `lazy`: a failure dispatches a cancelable
 * `preload-error` event (detail: the error) and is rethrown, so the route's error boundary offers a reload.
 */
export function lazyRoute<T>(load: () => Promise<T>): () => Promise<T> {
  return async () => {
    try {
      return await load();
    } catch (error) {
      if (typeof error === 'object' && error !== null) chunkLoadErrors.add(error);
      window.dispatchEvent(new CustomEvent(PRELOAD_ERROR_EVENT, { cancelable: true, detail: error }));
      throw error;
    }
  };
}

/**
 * Vite raises `vite:preloadError` when a chunk's dependencies fail to preload, then rejects the import;
 * remembering that error lets the boundary recognise it whatever the browser's message says.
 */
export function listenForVitePreloadErrors(target: Window = window): () => void {
  const onPreloadError = (event: Event) => {
    const payload = (event as Event & { payload?: unknown }).payload;
    if (typeof payload === 'object' && payload !== null) chunkLoadErrors.add(payload);
  };
  target.addEventListener('vite:preloadError', onPreloadError);
  return () => target.removeEventListener('vite:preloadError', onPreloadError);
}
