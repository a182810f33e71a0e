import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import tls from 'node:tls';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import {
  type AllowEntry,
  blockedHostName,
  classifyAddress,
  isAllowed,
  isLocalhostName,
  isMetadataAddress,
  parseAddress,
  parseAllowEntry,
} from './address-policy';
import { FetchError } from './fetch-error';

export { describeFetchError, FetchError, type FetchErrorCode } from './fetch-error';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface GuardedFetchOptions {
  /** Addresses, CIDR ranges or address:port entries that may be reached although they are not public. */
  allowAddresses?: readonly string[];
  /** Resolves a host name to every address it has; defaults to dns.lookup with all families. */
  lookup?: (hostname: string) => Promise<ResolvedAddress[]>;
  maxBytes?: number;
  timeoutMs?: number;
  headersTimeoutMs?: number;
  maxRedirects?: number;
  userAgent?: string;
  /** A certificate authority trusted for https besides the public ones (the private CA of an allowed intranet host). */
  tlsCa?: string | Buffer;
}

export interface GuardedFetchInit {
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  /** The request body (POST only); a redirect that turns the request into a GET drops it. */
  body?: string;
  maxBytes?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface GuardedResponse {
  status: number;
  headers: Record<string, string>;
  /** The final address, after redirects. */
  url: string;
  body: Buffer;
  /** The media type without parameters, lower case (`text/html`), or null when the response names none. */
  contentType: string | null;
}

export type GuardedFetch = (url: string, init?: GuardedFetchInit) => Promise<GuardedResponse>;

export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_REDIRECTS = 5;
const MAX_URL_LENGTH = 8192;

const defaultLookup = async (hostname: string): Promise<ResolvedAddress[]> =>
  dnsLookup(hostname, { all: true, family: 0 });

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const inflateRaw = promisify(zlib.inflateRaw);
const brotli = promisify(zlib.brotliDecompress);

/** Refuses anything but a plain absolute http(s) URL without credentials, in a form every parser reads alike. */
export function checkUrl(raw: string, base?: URL): URL {
  const invalid = (why: string) => new FetchError('fetch/invalid-url', `The address ${why}.`, { url: raw });
  if (raw.length > MAX_URL_LENGTH) throw invalid(`is longer than ${MAX_URL_LENGTH} characters`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(raw)) throw invalid('contains spaces or control characters');
  if (raw.includes('\\')) throw invalid('contains a backslash');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(raw)?.[1]?.toLowerCase();
  if (scheme === undefined && !base) throw invalid('is not a complete http or https address');
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
    throw new FetchError(
      'fetch/unsupported-scheme',
      `Only http and https addresses can be fetched; this one uses "${scheme}:".`,
      { url: raw },
    );
  }
  if (scheme !== undefined && !/^https?:\/\/[^/?#]/i.test(raw)) {
    throw invalid('must start with http:// or https:// followed by a host name');
  }
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw invalid('is not a valid web address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchError('fetch/unsupported-scheme', 'Only http and https addresses can be fetched.', {
      url: raw,
    });
  }
  const authority = /^(?:https?:)?\/\/([^/?#]*)/i.exec(raw)?.[1] ?? '';
  if (url.username || url.password || authority.includes('@')) {
    throw new FetchError(
      'fetch/credentials-in-url',
      'The address contains a user name or password, which is not allowed.',
    );
  }
  if (authority.includes('%')) throw invalid('has a percent-encoded host name');
  if (!url.hostname) throw invalid('has no host name');
  return url;
}

const defaultPort = (url: URL) => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

function refusal(url: URL, address: string, description: string, literal: boolean): FetchError {
  const reason = literal
    ? `The address ${address} is ${description}, which is not allowed.`
    : `The host ${url.hostname} resolves to ${address}, ${description}, which is not allowed.`;
  return new FetchError('fetch/blocked-address', reason, { url: url.href });
}

interface Target {
  address: string;
  family: 4 | 6;
}

interface Policy {
  allow: readonly AllowEntry[];
  lookup: (hostname: string) => Promise<ResolvedAddress[]>;
}

/** Resolves the URL's host once and returns an address to connect to, when every address it has is allowed. */
async function resolveTarget(url: URL, policy: Policy, signal: AbortSignal): Promise<Target> {
  const port = defaultPort(url);
  const verdict = (text: string, literal: boolean): Target => {
    const address = parseAddress(text);
    if (!address) {
      throw new FetchError('fetch/dns-failure', `The host ${url.hostname} resolved to an unusable address.`, {
        url: url.href,
      });
    }
    const canonical = address.toString();
    if (isMetadataAddress(address)) {
      throw refusal(url, canonical, classifyAddress(address).description, literal);
    }
    if (!isAllowed(policy.allow, address, port)) {
      const { allowed, description } = classifyAddress(address);
      if (!allowed) throw refusal(url, canonical, description, literal);
    }
    return { address: canonical, family: address.kind() === 'ipv4' ? 4 : 6 };
  };

  if (parseAddress(url.hostname)) return verdict(url.hostname, true);

  const blockedName = blockedHostName(url.hostname);
  if (blockedName) {
    throw new FetchError(
      'fetch/blocked-host',
      `The host ${url.hostname} is ${blockedName}, which is not allowed.`,
      { url: url.href },
    );
  }
  let resolved: ResolvedAddress[] = [{ address: '127.0.0.1', family: 4 }];
  try {
    if (!isLocalhostName(url.hostname)) resolved = await abortable(policy.lookup(url.hostname), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new FetchError('fetch/dns-failure', `The host name ${url.hostname} could not be found.`, {
      url: url.href,
    });
  }
  // Every address must pass: a name with one public and one private address is refused.
  const targets = resolved.map((entry) => verdict(entry.address, false));
  const [first] = targets;
  if (!first) {
    throw new FetchError('fetch/dns-failure', `The host name ${url.hostname} has no addresses.`, {
      url: url.href,
    });
  }
  return first;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

interface HopRequest {
  url: URL;
  target: Target;
  method: string;
  headers: OutgoingHttpHeaders;
  body: Buffer | null;
  signal: AbortSignal;
  headersTimeoutMs: number;
  tlsCa: string | Buffer | undefined;
}

/** Sends one request to the checked address; the name only travels in the Host header and TLS server name. */
function sendRequest(hop: HopRequest): Promise<IncomingMessage> {
  const { url, target } = hop;
  // Any lookup the socket makes returns the address that was checked, so DNS cannot change it in between.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const isHttps = url.protocol === 'https:';
  const literal = parseAddress(url.hostname) !== null;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const request = (isHttps ? https : http).request({
      host: target.address,
      family: target.family,
      port: defaultPort(url),
      path: `${url.pathname}${url.search}`,
      method: hop.method,
      headers: {
        ...hop.headers,
        host: url.host,
        ...(hop.body === null ? {} : { 'content-length': String(hop.body.length) }),
      },
      agent: false,
      lookup: pinned,
      signal: hop.signal,
      ...(isHttps && !literal ? { servername: url.hostname } : {}),
      ...(isHttps && hop.tlsCa ? { ca: [...tls.rootCertificates, hop.tlsCa] } : {}),
    });
    const headersTimer = setTimeout(() => {
      request.destroy(
        new FetchError(
          'fetch/timeout',
          `The site did not start answering within ${seconds(hop.headersTimeoutMs)}.`,
          { url: url.href },
        ),
      );
    }, hop.headersTimeoutMs);
    request.once('response', (response) => {
      clearTimeout(headersTimer);
      resolve(response);
    });
    request.on('error', (error) => {
      clearTimeout(headersTimer);
      reject(error);
    });
    if (hop.body === null) request.end();
    else request.end(hop.body);
  });
}

async function readBody(response: IncomingMessage, url: URL, maxBytes: number): Promise<Buffer> {
  const tooLarge = () =>
    new FetchError('fetch/too-large', `The response is larger than the limit of ${formatBytes(maxBytes)}.`, {
      url: url.href,
    });
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (!['identity', '', 'gzip', 'x-gzip', 'deflate', 'br'].includes(encoding)) {
    response.destroy();
    throw new FetchError(
      'fetch/unsupported-encoding',
      `The response uses an unsupported encoding (${encoding}).`,
      {
        url: url.href,
      },
    );
  }
  const chunks: Buffer[] = [];
  let received = 0;
  // The count is kept while streaming, so a missing or false Content-Length cannot push past the limit.
  for await (const chunk of response as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > maxBytes) {
      response.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks);
  if (encoding === 'identity' || encoding === '') return raw;
  const options = { maxOutputLength: maxBytes };
  try {
    if (encoding === 'br') return await brotli(raw, options);
    if (encoding === 'deflate') {
      // Servers send "deflate" both zlib-wrapped and raw; a zlib stream starts with 0x78.
      return raw[0] === 0x78 ? await inflate(raw, options) : await inflateRaw(raw, options);
    }
    return await gunzip(raw, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw new FetchError('fetch/bad-response', `The ${encoding}-compressed response could not be decoded.`, {
      url: url.href,
    });
  }
}

function seconds(ms: number): string {
  const whole = Math.ceil(ms / 1000);
  return whole === 1 ? '1 second' : `${whole} seconds`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}

function flattenHeaders(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** Turns a low-level failure into a FetchError, telling a timeout and a cancellation apart from network errors. */
function explain(
  error: unknown,
  url: URL,
  deadline: AbortSignal,
  caller: AbortSignal | undefined,
  timeoutMs: number,
) {
  if (error instanceof FetchError) return error;
  if (caller?.aborted) return new FetchError('fetch/aborted', 'The fetch was cancelled.', { url: url.href });
  if (deadline.aborted) {
    return new FetchError(
      'fetch/timeout',
      `The site did not answer completely within ${seconds(timeoutMs)}.`,
      { url: url.href },
    );
  }
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const why =
    code === 'ECONNREFUSED'
      ? 'the connection was refused'
      : code === 'ECONNRESET'
        ? 'the connection was reset'
        : code.startsWith('ERR_TLS') || code.includes('CERT') || code.startsWith('ERR_SSL')
          ? 'its TLS certificate could not be verified'
          : code.startsWith('HPE_')
            ? 'it sent a malformed HTTP response'
            : `a network error occurred${code ? ` (${code})` : ''}`;
  return new FetchError('fetch/connection-failed', `Could not fetch from ${url.host}: ${why}.`, {
    url: url.href,
  });
}

/** The one client for fetching addresses that tenants supply: public addresses only, capped in size and time. */
export function createGuardedFetch(options: GuardedFetchOptions = {}): GuardedFetch {
  const policy: Policy = {
    allow: (options.allowAddresses ?? []).map(parseAllowEntry),
    lookup: options.lookup ?? defaultLookup,
  };
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;

  return async function guardedFetch(input, init = {}) {
    const maxBytes = init.maxBytes ?? options.maxBytes ?? DEFAULT_MAX_BYTES;
    const timeoutMs = init.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([deadline, init.signal]) : deadline;
    let method: string = init.method ?? 'GET';
    let body = method === 'POST' && init.body !== undefined ? Buffer.from(init.body, 'utf8') : null;
    const headers: Record<string, string> = {
      'user-agent': options.userAgent ?? 'OmnibotFetcher/1.0',
      accept: '*/*',
      'accept-encoding': 'gzip, deflate, br',
    };
    for (const [name, value] of Object.entries(init.headers ?? {})) {
      if (name.toLowerCase() !== 'host') headers[name.toLowerCase()] = value;
    }

    let url = checkUrl(input);
    for (let redirects = 0; ; redirects += 1) {
      let response: IncomingMessage;
      try {
        if (signal.aborted) throw new Error('aborted');
        const target = await resolveTarget(url, policy, signal);
        response = await sendRequest({
          url,
          target,
          method,
          headers,
          body,
          signal,
          headersTimeoutMs,
          tlsCa: options.tlsCa,
        });
      } catch (error) {
        throw explain(error, url, deadline, init.signal, timeoutMs);
      }
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECTS.has(status) && location) {
        response.destroy();
        if (redirects >= maxRedirects) {
          throw new FetchError(
            'fetch/too-many-redirects',
            `The address redirected more than ${maxRedirects} times.`,
            { url: url.href, status },
          );
        }
        const next = checkUrl(location, url);
        // Like browsers: 303 (and 301/302 after a POST) continue as a GET without the body; 307/308 keep both.
        if (
          (status === 303 && method !== 'HEAD') ||
          (method === 'POST' && (status === 301 || status === 302))
        ) {
          method = 'GET';
          body = null;
          delete headers['content-type'];
        }
        if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
        url = next;
        continue;
      }
      if (status < 200 || status > 299) {
        response.destroy();
        throw new FetchError('fetch/http-status', `The site answered with HTTP status ${status}.`, {
          url: url.href,
          status,
        });
      }
      try {
        if (method === 'HEAD') response.resume();
        const body = method === 'HEAD' ? Buffer.alloc(0) : await readBody(response, url, maxBytes);
        const contentType = response.headers['content-type']?.split(';')[0]?.trim().toLowerCase() || null;
        return { status, headers: flattenHeaders(response), url: url.href, body, contentType };
      } catch (error) {
        response.destroy();
        throw explain(error, url, deadline, init.signal, timeoutMs);
      }
    }
  };
}
