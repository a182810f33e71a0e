import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, apiRequest } from './api-client';
import { shouldRetry } from './query-client';
import { defined } from '../test/defined';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('apiRequest', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends JSON with the session cookie and returns the parsed answer', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(json(200, { id: 'b1' }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(
      api.post('/v1/bots', { name: 'Helper' }, { query: { draft: true, x: undefined } }),
    ).resolves.toEqual({ id: 'b1' });
    const [url, init] = defined(fetchMock.mock.calls[0]);
    expect(url).toBe('/v1/bots?draft=true');
    expect(init).toMatchObject({ method: 'POST', credentials: 'include', body: '{"name":"Helper"}' });
    expect(init?.headers).toMatchObject({ 'content-type': 'application/json', accept: 'application/json' });
  });

  it("throws an ApiError carrying the server's code and message", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>().mockResolvedValue(json(403, { code: 'forbidden', message: 'No.' })),
    );
    const error = await apiRequest('/v1/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, code: 'forbidden', message: 'No.' });
  });

  it('sends extra headers and reads Retry-After into the error', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(
      new Response(JSON.stringify({ code: 'auth/too-many-requests', message: 'Wait.' }), {
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '120' },
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const error = await api.get('/v1/x', { headers: { 'x-app-id': 'console' } }).catch((e: unknown) => e);
    expect(defined(fetchMock.mock.calls[0])[1]?.headers).toMatchObject({ 'x-app-id': 'console' });
    expect(error).toMatchObject({ status: 429, code: 'auth/too-many-requests', retryAfterSeconds: 120 });
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(json(400, { code: 'x', message: 'y' })));
    await expect(apiRequest('/v1/x')).rejects.toMatchObject({ retryAfterSeconds: undefined });
  });

  it('copes with error answers that are not JSON, and with network failures', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(new Response('<html>', { status: 502 })));
    await expect(apiRequest('/v1/x')).rejects.toMatchObject({ status: 502, code: 'http_error' });
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(apiRequest('/v1/x')).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  it('validates with the given schema and resolves 204 to undefined', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(json(200, { n: 1 })));
    const schema = { parse: (data: unknown) => ({ parsed: data }) };
    await expect(api.get('/v1/x', { schema })).resolves.toEqual({ parsed: { n: 1 } });
    vi.stubGlobal('fetch', vi.fn<typeof fetch>().mockResolvedValue(new Response(null, { status: 204 })));
    await expect(api.delete('/v1/x')).resolves.toBeUndefined();
  });
});

describe('shouldRetry', () => {
  it('never retries client errors and retries others twice', () => {
    expect(shouldRetry(0, new ApiError(404, 'not_found', 'x'))).toBe(false);
    expect(shouldRetry(0, new ApiError(503, 'unavailable', 'x'))).toBe(true);
    expect(shouldRetry(2, new ApiError(503, 'unavailable', 'x'))).toBe(false);
    expect(shouldRetry(1, new TypeError('x'))).toBe(true);
  });
});
