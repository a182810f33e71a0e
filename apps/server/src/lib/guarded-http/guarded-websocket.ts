import type { LookupFunction } from 'node:net';
import { WebSocket } from 'ws';
import { FetchError, type GuardedFetchOptions, resolveSocketTarget } from './guarded-fetch';

export interface GuardedSocketInit {
  headers?: Record<string, string>;
  /** How long the connection and the upgrade may take. */
  timeoutMs?: number;
  /** The largest message accepted; a bigger one closes the socket. */
  maxPayload?: number;
  signal?: AbortSignal;
}

/** Opens a WebSocket to a tenant-supplied address under the guarded HTTP client's address policy. */
export type GuardedSocketOpener = (url: string, init?: GuardedSocketInit) => Promise<WebSocket>;

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

/**
 * A socket opener with the same address policy as `createGuardedFetch`: the host is resolved once, every address it
 * has must be public (or on the operator's allow list), and the socket connects to the checked address only.
 * Resolves once the upgrade succeeded; a refusal, an upgrade answered with an HTTP status, or a timeout rejects with
 * a FetchError in plain words.
 */
export function createGuardedSocketOpener(
  options: Pick<GuardedFetchOptions, 'allowAddresses' | 'lookup' | 'userAgent'> = {},
): GuardedSocketOpener {
  return async (raw, init = {}) => {
    const timeoutMs = init.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    const target = await resolveSocketTarget(raw, options, signal);
    const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
      if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    };
    return new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(target.url, {
        headers: { 'user-agent': options.userAgent ?? 'Omnibot', ...init.headers },
        handshakeTimeout: timeoutMs,
        maxPayload: init.maxPayload ?? DEFAULT_MAX_PAYLOAD,
        followRedirects: false,
        perMessageDeflate: false,
        lookup: pinned,
      });
      const fail = (error: FetchError) => {
        signal.removeEventListener('abort', onAbort);
        socket.removeAllListeners();
        socket.on('error', () => undefined);
        socket.terminate();
        reject(error);
      };
      const onAbort = () =>
        fail(
          new FetchError(
            'fetch/timeout',
            `The socket did not open within ${Math.round(timeoutMs / 1000)} s.`,
            {
              url: target.url.href,
            },
          ),
        );
      signal.addEventListener('abort', onAbort, { once: true });
      socket.once('unexpected-response', (_request, response) => {
        response.resume();
        fail(
          new FetchError('fetch/http-status', `The socket was refused with HTTP ${response.statusCode}.`, {
            url: target.url.href,
            status: response.statusCode,
          }),
        );
      });
      socket.once('error', (error) =>
        fail(
          new FetchError('fetch/connection-failed', `The socket could not be opened: ${error.message}.`, {
            url: target.url.href,
          }),
        ),
      );
      socket.once('open', () => {
        signal.removeEventListener('abort', onAbort);
        socket.removeAllListeners('error');
        socket.removeAllListeners('unexpected-response');
        resolve(socket);
      });
    });
  };
}
