import { ERROR_CATALOGUE } from '@omnibot/contracts';

/** An error answer from the API: the HTTP status and the server's `{ code, message }`. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** From a Retry-After header (429, 503): how many seconds to wait before trying again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Anything with zod's `parse`, so callers can validate responses with the contracts' schemas. */
export interface ResponseParser<T> {
  parse(data: unknown): T;
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** Extra request headers, such as the account service's application identifier. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  schema?: ResponseParser<T>;
}

function urlFor(path: string, query: RequestOptions<unknown>['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** Retry-After in seconds; the HTTP-date form is turned into seconds from now. */
function retryAfterOf(response: Response): number | undefined {
  const value = response.headers.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = /^\d+$/.test(value) ? Number(value) : Math.ceil((Date.parse(value) - Date.now()) / 1000);
  return Number.isFinite(seconds) ? Math.max(0, seconds) : undefined;
}

/** The ApiError an answer outside 2xx stands for: its `{ code, message }`, or the status when it has none. */
export async function errorFrom(response: Response): Promise<ApiError> {
  const fallback = `Request failed with status ${response.status}`;
  const retryAfter = retryAfterOf(response);
  try {
    const data = (await response.json()) as { code?: unknown; message?: unknown };
    return new ApiError(
      response.status,
      typeof data.code === 'string' ? data.code : 'http_error',
      typeof data.message === 'string' ? data.message : fallback,
      retryAfter,
    );
  } catch {
    return new ApiError(response.status, 'http_error', fallback, retryAfter);
  }
}

/**
 * Calls the same-origin API with the session cookie, sending and receiving JSON. Answers outside 2xx
 * throw an ApiError; a network failure throws ApiError status 0. 204 resolves to undefined.
 */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const { method = 'GET', body, query, signal, schema } = options;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(urlFor(path, query), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'include',
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', ERROR_CATALOGUE.network_error);
  }
  if (!response.ok) throw await errorFrom(response);
  if (response.status === 204) return undefined as T;
  const data: unknown = await response.json();
  return schema ? schema.parse(data) : (data as T);
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions<T>, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
