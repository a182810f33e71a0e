import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import tls from 'node:tls';
import { Readable, Transform } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import {
  type AllowEntry,
  blockedHostName,
  classifyAddress,
  isAllowed,
  isAllowedPort,
  isLocalhostName,
  isMetadataAddress,
  parseAddress,
  parseAllowEntry,
  ruleOf,
  type AddressRule,
} from './address-policy';
import { FetchError } from './fetch-error';

export { FetchError, type FetchErrorCode, PRIVATE_SITE_HINT, refusalReasonFor } from './fetch-error';

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

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_REDIRECTS = 5;
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
      `Refused by the http-only rule: only http and https addresses can be fetched; this one uses "${scheme}:".`,
      { url: raw, rule: 'http-only' },
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
    throw new FetchError(
      'fetch/unsupported-scheme',
      'Refused by the http-only rule: only http and https addresses can be fetched.',
      { url: raw, rule: 'http-only' },
    );
  }
  const authority = /^(?:https?:)?\/\/([^/?#]*)/i.exec(raw)?.[1] ?? '';
  if (url.username || url.password || authority.includes('@')) {
    throw new FetchError(
      'fetch/credentials-in-url',
      'Refused by the no-credentials rule: the address contains a user name or password.',
      { rule: 'no-credentials' },
    );
  }
  if (authority.includes('%')) throw invalid('has a percent-encoded host name');
  if (!url.hostname) throw invalid('has no host name');
  return url;
}

const defaultPort = (url: URL) => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

const RULE_NAMES: Record<AddressRule, string> = {
  'private-address': 'private-address rule',
  loopback: 'loopback rule',
  'link-local': 'link-local rule',
  'cloud-metadata': 'cloud-metadata rule',
  'reserved-address': 'reserved-address rule',
};

/** Names the rule that refused the address and what the address is; only public internet addresses pass. */
function refusal(url: URL, address: string, description: string, literal: boolean): FetchError {
  const rule = ruleOf(description);
  const what = literal
    ? `${address} is ${description}`
    : `the host ${url.hostname} resolves to ${address}, ${description}`;
  const reason = `Refused by the ${RULE_NAMES[rule]}: ${what}; only public internet addresses can be fetched.`;
  // A metadata endpoint is refused by what it is, which no allow list changes.
  const code = rule === 'cloud-metadata' ? 'fetch/blocked-host' : 'fetch/blocked-address';
  return new FetchError(code, reason, { url: url.href, rule });
}

// Ports of other protocols (the fetch standard's "bad ports"): a request there could speak to mail, shell or
// name servers; an allow-list entry naming the address and port opens one.
const BAD_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

interface Target {
  address: string;
  family: 4 | 6;
  /** False for an address only the operator's allow list opens. */
  isPublic: boolean;
}

interface Policy {
  allow: readonly AllowEntry[];
  lookup: (hostname: string) => Promise<ResolvedAddress[]>;
}

/** The verdict on one address the URL's host is (literal) or resolves to: refused, or where to connect. */
function checkAddress(url: URL, allow: readonly AllowEntry[], text: string, literal: boolean): Target {
  const port = defaultPort(url);
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
  const listed = isAllowed(allow, address, port);
  const { allowed, description } = classifyAddress(address);
  if (!listed && !allowed) throw refusal(url, canonical, description, literal);
  if (BAD_PORTS.has(port) && !isAllowedPort(allow, address, port)) throw portRefusal(url, port);
  return { address: canonical, family: address.kind() === 'ipv4' ? 4 : 6, isPublic: allowed };
}

function portRefusal(url: URL, port: number): FetchError {
  return new FetchError(
    'fetch/blocked-port',
    `Refused by the port rule: port ${port} belongs to another protocol and is not fetched over http.`,
    { url: url.href, rule: 'port-not-allowed' },
  );
}

/** Refuses a host name that is refused by name alone (a metadata service). */
function checkName(url: URL): void {
  const blockedName = blockedHostName(url.hostname);
  if (blockedName) {
    throw new FetchError(
      'fetch/blocked-host',
      `Refused by the cloud-metadata rule: the host ${url.hostname} is ${blockedName}.`,
      { url: url.href, rule: 'cloud-metadata' },
    );
  }
}

/**
 * Every check that needs no DNS answer, on the URL as each later fetch reads it: http(s) only, no credentials,
 * no private, loopback or metadata literal address or name, no port of another protocol. Returns the URL
 * normalised (scheme and host in lower case, IP addresses in their one canonical form, IDN as punycode), for
 * storing an address a tenant gives before anything fetches it; fetching checks again, DNS included.
 */
export function precheckUrl(raw: string, options: Pick<GuardedFetchOptions, 'allowAddresses'> = {}): URL {
  const allow = (options.allowAddresses ?? []).map(parseAllowEntry);
  const url = checkUrl(raw);
  if (parseAddress(url.hostname)) {
    checkAddress(url, allow, url.hostname, true);
    return url;
  }
  checkName(url);
  if (isLocalhostName(url.hostname)) {
    checkAddress(url, allow, '127.0.0.1', false);
    return url;
  }
  const port = defaultPort(url);
  // Which address a name has is only known when it is fetched; a port of another protocol is refused here
  // unless some allow-list entry names that port.
  if (BAD_PORTS.has(port) && !allow.some((entry) => entry.port === port)) throw portRefusal(url, port);
  return url;
}

/** Resolves the URL's host once and returns an address to connect to, when every address it has is allowed. */
async function resolveTarget(url: URL, policy: Policy, signal: AbortSignal): Promise<Target> {
  const verdict = (text: string, literal: boolean): Target => checkAddress(url, policy.allow, text, literal);
  if (parseAddress(url.hostname)) return verdict(url.hostname, true);
  checkName(url);
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

/**
 * Where a WebSocket to a tenant's address may connect (`ws:`/`wss:` are checked by the rules of `http:`/`https:`):
 * the URL and one checked address, or the same refusal a fetch would give. The caller pins its socket to that
 * address, so DNS cannot change it in between.
 */
export async function resolveSocketTarget(
  raw: string,
  options: Pick<GuardedFetchOptions, 'allowAddresses' | 'lookup'>,
  signal: AbortSignal,
): Promise<{ url: URL; address: string; family: 4 | 6 }> {
  const scheme = /^(wss?):/i.exec(raw)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    throw new FetchError('fetch/unsupported-scheme', 'A socket address starts with wss:// or ws://.', {
      url: raw,
      rule: 'http-only',
    });
  }
  const asHttp = checkUrl(`${scheme === 'wss' ? 'https' : 'http'}${raw.slice(scheme.length)}`);
  const policy: Policy = {
    allow: (options.allowAddresses ?? []).map(parseAllowEntry),
    lookup: options.lookup ?? defaultLookup,
  };
  const target = await resolveTarget(asHttp, policy, signal);
  const url = new URL(raw);
  return { url, address: target.address, family: target.family };
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
  isPublic: boolean,
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
  // On a private address the operator opened, refused, reset and garbled connections read alike, so a tenant
  // cannot map which ports listen there.
  if (!isPublic) {
    return new FetchError(
      'fetch/connection-failed',
      `Could not fetch from ${url.host}: no HTTP answer came back.`,
      {
        url: url.href,
      },
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

interface Exchange {
  method: string;
  headers: Record<string, string>;
  body: Buffer | null;
  signal: AbortSignal;
  deadline: AbortSignal;
  caller: AbortSignal | undefined;
  timeoutMs: number;
}

/** The final answer of a guarded exchange (redirects followed, each hop re-checked), whatever its status. */
interface Answer {
  response: IncomingMessage;
  status: number;
  url: URL;
  method: string;
  isPublic: boolean;
}

interface Client {
  policy: Policy;
  maxRedirects: number;
  headersTimeoutMs: number;
  tlsCa: string | Buffer | undefined;
}

function clientOf(options: GuardedFetchOptions): Client {
  return {
    policy: {
      allow: (options.allowAddresses ?? []).map(parseAllowEntry),
      lookup: options.lookup ?? defaultLookup,
    },
    maxRedirects: options.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
    headersTimeoutMs: options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
    tlsCa: options.tlsCa,
  };
}

/** Sends the request to a checked address and follows redirects, checking every hop like the first. */
async function exchange(client: Client, input: string, exchangeInit: Exchange): Promise<Answer> {
  const { signal, deadline, caller, timeoutMs, headers } = exchangeInit;
  let { method, body } = exchangeInit;
  let url = checkUrl(input);
  for (let redirects = 0; ; redirects += 1) {
    let response: IncomingMessage;
    let isPublic = true;
    try {
      if (signal.aborted) throw new Error('aborted');
      const target = await resolveTarget(url, client.policy, signal);
      isPublic = target.isPublic;
      response = await sendRequest({
        url,
        target,
        method,
        headers,
        body,
        signal,
        headersTimeoutMs: client.headersTimeoutMs,
        tlsCa: client.tlsCa,
      });
    } catch (error) {
      throw explain(error, url, deadline, caller, timeoutMs, isPublic);
    }
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (!REDIRECTS.has(status) || !location) return { response, status, url, method, isPublic };
    response.destroy();
    if (redirects >= client.maxRedirects) {
      throw new FetchError(
        'fetch/too-many-redirects',
        `The address redirected more than ${client.maxRedirects} times.`,
        { url: url.href, status },
      );
    }
    const next = checkUrl(location, url);
    // Like browsers: 303 (and 301/302 after a POST) continue as a GET without the body; 307/308 keep both.
    if ((status === 303 && method !== 'HEAD') || (method === 'POST' && (status === 301 || status === 302))) {
      method = 'GET';
      body = null;
      delete headers['content-type'];
    }
    if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
    url = next;
  }
}

function deadlineOf(timeoutMs: number, caller: AbortSignal | undefined) {
  const deadline = AbortSignal.timeout(timeoutMs);
  return { deadline, signal: caller ? AbortSignal.any([deadline, caller]) : deadline };
}

/** The one client for fetching addresses that tenants supply: public addresses only, capped in size and time. */
export function createGuardedFetch(options: GuardedFetchOptions = {}): GuardedFetch {
  const client = clientOf(options);
  return async function guardedFetch(input, init = {}) {
    const maxBytes = init.maxBytes ?? options.maxBytes ?? DEFAULT_MAX_BYTES;
    const timeoutMs = init.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const { deadline, signal } = deadlineOf(timeoutMs, init.signal);
    const method: string = init.method ?? 'GET';
    const headers: Record<string, string> = {
      'user-agent': options.userAgent ?? 'OmnibotFetcher/1.0',
      accept: '*/*',
      'accept-encoding': 'gzip, deflate, br',
    };
    for (const [name, value] of Object.entries(init.headers ?? {})) {
      if (name.toLowerCase() !== 'host') headers[name.toLowerCase()] = value;
    }
    const answer = await exchange(client, input, {
      method,
      headers,
      body: method === 'POST' && init.body !== undefined ? Buffer.from(init.body, 'utf8') : null,
      signal,
      deadline,
      caller: init.signal,
      timeoutMs,
    });
    const { response, status, url } = answer;
    // A conditional request's 304 is an answer, not a failure: the caller's copy is still current.
    if (status === 304 && (headers['if-none-match'] || headers['if-modified-since'])) {
      response.resume();
      return {
        status,
        headers: flattenHeaders(response),
        url: url.href,
        body: Buffer.alloc(0),
        contentType: null,
      };
    }
    if (status < 200 || status > 299) {
      response.destroy();
      throw new FetchError('fetch/http-status', `The site answered with HTTP status ${status}.`, {
        url: url.href,
        status,
      });
    }
    try {
      if (answer.method === 'HEAD') response.resume();
      const body = answer.method === 'HEAD' ? Buffer.alloc(0) : await readBody(response, url, maxBytes);
      const contentType = response.headers['content-type']?.split(';')[0]?.trim().toLowerCase() || null;
      return { status, headers: flattenHeaders(response), url: url.href, body, contentType };
    } catch (error) {
      response.destroy();
      throw explain(error, url, deadline, init.signal, timeoutMs, answer.isPublic);
    }
  };
}

/** The web variant's outer limits: its callers (model calls) bound each call more tightly with their own signal. */
const DEFAULT_WEB_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_WEB_MAX_BYTES = 64 * 1024 * 1024;

/** A `fetch` of the Web platform's shape, for client libraries that take one (the AI SDK's providers). */
export type GuardedWebFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

function webHeadersOf(init: RequestInit['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  new Headers(init).forEach((value, name) => {
    if (name !== 'host' && name !== 'content-length') headers[name] = value;
  });
  return headers;
}

async function webBodyOf(body: RequestInit['body']): Promise<Buffer | null> {
  if (body === null || body === undefined) return null;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  return Buffer.from(await new Response(body).arrayBuffer());
}

/** The response body as a stream: decoded, and cut off with a FetchError past `maxBytes` of decoded bytes. */
function streamBody(response: IncomingMessage, url: URL, maxBytes: number): Readable {
  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const decoders: Record<string, () => Transform> = {
    gzip: () => zlib.createGunzip(),
    'x-gzip': () => zlib.createGunzip(),
    deflate: () => zlib.createInflate(),
    br: () => zlib.createBrotliDecompress(),
  };
  const decoder = decoders[encoding];
  let received = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > maxBytes) {
        callback(
          new FetchError(
            'fetch/too-large',
            `The response is larger than the limit of ${formatBytes(maxBytes)}.`,
            {
              url: url.href,
            },
          ),
        );
        return;
      }
      callback(null, chunk);
    },
  });
  const fail = (error: Error) => {
    response.destroy();
    cap.destroy(error);
  };
  // A reader that stops early (a cancelled stream, a body past the cap) closes the connection too.
  cap.once('close', () => response.destroy());
  if (decoder) {
    const decoding = decoder();
    decoding.on('error', fail);
    response.on('error', fail);
    return response.pipe(decoding).pipe(cap);
  }
  response.on('error', fail);
  return response.pipe(cap);
}

/**
 * The guarded client with the Web `fetch` signature: the same address rules, redirect checks and time limit, and
 * the answer streamed (any status) with its body capped at `maxBytes`. A refusal rejects with a FetchError.
 */
export function createGuardedWebFetch(options: GuardedFetchOptions = {}): GuardedWebFetch {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEB_TIMEOUT_MS;
  // A model may think for as long as its caller allows before the first byte, so only the caller's signal and
  // the overall limit bound the wait.
  const client = clientOf({ headersTimeoutMs: timeoutMs, ...options });
  const maxBytes = options.maxBytes ?? DEFAULT_WEB_MAX_BYTES;
  return async function guardedWebFetch(input, init = {}) {
    const request = typeof input === 'string' || input instanceof URL ? null : input;
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const caller = init.signal ?? request?.signal ?? undefined;
    const { deadline, signal } = deadlineOf(timeoutMs, caller);
    const method = (init.method ?? request?.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = {
      'user-agent': options.userAgent ?? 'OmnibotFetcher/1.0',
      accept: '*/*',
      'accept-encoding': 'gzip, deflate, br',
      ...webHeadersOf(request?.headers),
      ...webHeadersOf(init.headers),
    };
    const body =
      init.body !== undefined ? await webBodyOf(init.body) : request ? await webBodyOf(request.body) : null;
    const answer = await exchange(client, href, {
      method,
      headers,
      body,
      signal,
      deadline,
      caller,
      timeoutMs,
    });
    const { response, status, url } = answer;
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(flattenHeaders(response))) {
      if (name !== 'content-encoding' && name !== 'content-length') responseHeaders.set(name, value);
    }
    const noBody = method === 'HEAD' || status === 204 || status === 304;
    if (noBody) response.resume();
    const stream = noBody
      ? null
      : (Readable.toWeb(streamBody(response, url, maxBytes)) as ReadableStream<Uint8Array>);
    const web = new Response(stream, { status, headers: responseHeaders });
    Object.defineProperty(web, 'url', { value: url.href });
    return web;
  };
}
