import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGuardedFetch,
  createGuardedWebFetch,
  FetchError,
  type FetchErrorCode,
  precheckUrl,
  PRIVATE_SITE_HINT,
  refusalReasonFor,
  type ResolvedAddress,
} from './guarded-fetch';

const servers: net.Server[] = [];

async function listen<T extends net.Server>(server: T, host: string, port = 0): Promise<T | null> {
  try {
    server.listen(port, host);
    await once(server, 'listening');
    servers.push(server);
    return server;
  } catch {
    return null;
  }
}

const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port;

// Counts every TCP connection on the loopback port that refused fetches aim at: it must stay at zero.
let connections = 0;
const counterHandler: http.RequestListener = (_request, response) => response.end('counted');
function counterServer() {
  const server = http.createServer(counterHandler);
  server.on('connection', () => (connections += 1));
  return server;
}

/** Test names and what they resolve to; any other name is not found. */
const names: Record<string, string[]> = {
  'internal.test': ['10.0.0.1'],
  'loop.test': ['127.0.0.1'],
  'loop2.test': ['127.0.0.2'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'v6loop.test': ['::1'],
  'mixed.test': ['93.184.215.14', '127.0.0.1'],
  'mixed6.test': ['2606:4700:4700::1111', '::1'],
  'meta.test': ['169.254.169.254'],
  'meta6.test': ['fd00:ec2::254'],
  'alibaba.test': ['100.100.100.200'],
  'ula.test': ['fd00::1'],
  'cgnat.test': ['100.64.0.1'],
  'nat64.test': ['64:ff9b::7f00:1'],
  'zero.test': ['0.0.0.0'],
  'linklocal6.test': ['fe80::1'],
  'secure.test': ['127.0.0.1'],
  'site.test': ['127.0.0.1'],
  'empty.test': [],
};
const lookups: string[] = [];
async function lookup(hostname: string): Promise<ResolvedAddress[]> {
  lookups.push(hostname);
  const found = names[hostname.toLowerCase().replace(/\.$/, '')];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: net.isIP(address) }));
}

async function refusal(promise: Promise<unknown>): Promise<FetchError> {
  const error = await promise.then(
    () => new Error('the fetch succeeded'),
    (caught: unknown) => caught,
  );
  if (!(error instanceof FetchError)) throw error;
  return error;
}

let P = 0; // the counter's port
let S = 0; // the allowed site's port
const closedStreams: Promise<void>[] = [];
const hanging: http.ServerResponse[] = [];

function site(request: http.IncomingMessage, response: http.ServerResponse) {
  const url = new URL(request.url ?? '/', 'http://site');
  const seen = {
    'x-seen-host': request.headers.host ?? '',
    'x-seen-method': request.method ?? '',
    'x-seen-auth': request.headers.authorization ?? 'none',
  };
  const path = url.pathname;
  if (path === '/echo') {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response
        .writeHead(200, {
          'content-type': 'text/plain',
          'x-seen-type': request.headers['content-type'] ?? 'none',
          ...seen,
        })
        .end(Buffer.concat(chunks).toString('utf8') || '(no body)');
    });
    return;
  }
  if (path === '/ok')
    return response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...seen })
      .end('<h1>hello</h1>');
  if (path === '/redirect') {
    const status = Number(url.searchParams.get('status') ?? 302);
    return response.writeHead(status, { location: url.searchParams.get('to') ?? '/ok' }).end();
  }
  if (path.startsWith('/chain/')) {
    const left = Number(path.slice('/chain/'.length));
    if (left === 0) return response.writeHead(200, { 'content-type': 'text/plain' }).end('end of chain');
    return response.writeHead(302, { location: `/chain/${left - 1}` }).end();
  }
  if (path === '/gzip') {
    return response
      .writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' })
      .end(zlib.gzipSync('zipped text'));
  }
  if (path === '/br') {
    return response.writeHead(200, { 'content-encoding': 'br' }).end(zlib.brotliCompressSync('brotli text'));
  }
  if (path === '/deflate') {
    return response.writeHead(200, { 'content-encoding': 'deflate' }).end(zlib.deflateSync('deflated text'));
  }
  if (path === '/deflate-raw') {
    return response
      .writeHead(200, { 'content-encoding': 'deflate' })
      .end(zlib.deflateRawSync('raw deflated text'));
  }
  if (path === '/bomb') {
    // 11 MB of zeros squeeze into about 11 KB of gzip.
    return response
      .writeHead(200, { 'content-encoding': 'gzip' })
      .end(zlib.gzipSync(Buffer.alloc(11 * 1024 * 1024)));
  }
  if (path === '/zstd') return response.writeHead(200, { 'content-encoding': 'zstd' }).end('whatever');
  if (path === '/bytes') {
    const size = Number(url.searchParams.get('n'));
    return response
      .writeHead(200, { 'content-type': 'application/octet-stream' })
      .end(Buffer.alloc(size, 97));
  }
  if (path === '/declared-huge') {
    response.writeHead(200, { 'content-length': String(20 * 1024 * 1024) });
    response.write(Buffer.alloc(1024));
    return hanging.push(response);
  }
  if (path === '/endless') {
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    closedStreams.push(once(response, 'close').then(() => undefined));
    const chunk = Buffer.alloc(64 * 1024, 98);
    const pump = () => {
      while (!response.destroyed && response.write(chunk));
      if (!response.destroyed) response.once('drain', pump);
    };
    return pump();
  }
  if (path.startsWith('/status/'))
    return response.writeHead(Number(path.slice('/status/'.length))).end('status page');
  if (path === '/no-answer') return hanging.push(response);
  if (path === '/stalled-body') {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.write('first part');
    return hanging.push(response);
  }
  return response.writeHead(404).end();
}

let liarPort = 0;
let tlsPort = 0;
let tlsCa = '';
let tlsServerName: string | undefined;
let certDir = '';

beforeAll(async () => {
  const counter = await listen(counterServer(), '127.0.0.1');
  if (!counter) throw new Error('could not start the counting server');
  P = portOf(counter);
  // The same port on other loopback addresses counts too, where the system offers them.
  await listen(counterServer(), '127.0.0.2', P);
  await listen(counterServer(), '::1', P);

  const allowedSite = await listen(http.createServer(site), '127.0.0.1');
  if (!allowedSite) throw new Error('could not start the site');
  S = portOf(allowedSite);

  // Declares 500 bytes, then sends 5000: the client must take no more than declared.
  const liar = await listen(
    net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.on('data', () => {
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 500\r\nConnection: close\r\n\r\n');
        socket.end(Buffer.alloc(5000, 99));
      });
    }),
    '127.0.0.1',
  );
  if (!liar) throw new Error('could not start the lying server');
  liarPort = portOf(liar);

  certDir = mkdtempSync(join(tmpdir(), 'guarded-fetch-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=secure.test',
      '-addext',
      'subjectAltName=DNS:secure.test',
      '-keyout',
      join(certDir, 'key.pem'),
      '-out',
      join(certDir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  tlsCa = readFileSync(join(certDir, 'cert.pem'), 'utf8');
  const secure = https.createServer(
    { key: readFileSync(join(certDir, 'key.pem')), cert: tlsCa },
    (request, response) => {
      tlsServerName = (request.socket as TLSSocket).servername || undefined;
      response
        .writeHead(200, { 'content-type': 'text/plain', 'x-seen-host': request.headers.host ?? '' })
        .end('secret handshake');
    },
  );
  if (!(await listen(secure, '127.0.0.1'))) throw new Error('could not start the https site');
  tlsPort = portOf(secure);
});

afterAll(async () => {
  for (const response of hanging) response.destroy();
  for (const server of servers) {
    if (server instanceof http.Server) server.closeAllConnections();
    server.close();
  }
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

describe('guarded fetch: refused before any connection', () => {
  const refused: string[] = [];

  it('refuses at least 60 addresses with the default configuration, and none of them connects', async () => {
    const guardedFetch = createGuardedFetch({ lookup });
    const cases: [string, string][] = [
      // Loopback in every notation WHATWG URL accepts.
      [`http://127.0.0.1:${P}/`, 'fetch/blocked-address'],
      [`http://2130706433:${P}/`, 'fetch/blocked-address'],
      [`http://0177.0.0.1:${P}/`, 'fetch/blocked-address'],
      [`http://0x7f.1:${P}/`, 'fetch/blocked-address'],
      [`http://0x7f000001:${P}/`, 'fetch/blocked-address'],
      [`http://0X7F.0.0.1:${P}/`, 'fetch/blocked-address'],
      [`http://017700000001:${P}/`, 'fetch/blocked-address'],
      [`http://127.1:${P}/`, 'fetch/blocked-address'],
      [`http://127.0.1:${P}/`, 'fetch/blocked-address'],
      [`http://127.000.000.001:${P}/`, 'fetch/blocked-address'],
      [`http://127.0.0.1.:${P}/`, 'fetch/blocked-address'],
      [`http://127.0.0.2:${P}/`, 'fetch/blocked-address'],
      [`http://127.255.255.254:${P}/`, 'fetch/blocked-address'],
      [`HTTP://127.0.0.1:${P}/path?query#fragment`, 'fetch/blocked-address'],
      [`http://127.0.0.1:${P}`, 'fetch/blocked-address'],
      [`https://127.0.0.1:${P}/`, 'fetch/blocked-address'],
      [`http://[::1]:${P}/`, 'fetch/blocked-address'],
      [`http://[0:0:0:0:0:0:0:1]:${P}/`, 'fetch/blocked-address'],
      [`http://[::ffff:127.0.0.1]:${P}/`, 'fetch/blocked-address'],
      [`http://[::ffff:7f00:1]:${P}/`, 'fetch/blocked-address'],
      [`http://[0:0:0:0:0:ffff:127.0.0.1]:${P}/`, 'fetch/blocked-address'],
      [`http://[::127.0.0.1]:${P}/`, 'fetch/blocked-address'],
      [`http://[64:ff9b::127.0.0.1]:${P}/`, 'fetch/blocked-address'],
      [`http://[64:ff9b:1::7f00:1]:${P}/`, 'fetch/blocked-address'],
      [`http://[2002:7f00:1::]:${P}/`, 'fetch/blocked-address'],
      [`http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${P}/`, 'fetch/blocked-address'],
      [`http://0.0.0.0:${P}/`, 'fetch/blocked-address'],
      [`http://0:${P}/`, 'fetch/blocked-address'],
      [`http://[::]:${P}/`, 'fetch/blocked-address'],
      // Names that mean this machine, by name or through DNS.
      [`http://localhost:${P}/`, 'fetch/blocked-address'],
      [`http://LOCALHOST.:${P}/`, 'fetch/blocked-address'],
      [`http://api.localhost:${P}/`, 'fetch/blocked-address'],
      [`http://loop.test:${P}/`, 'fetch/blocked-address'],
      [`http://loop2.test:${P}/`, 'fetch/blocked-address'],
      [`http://LOOP.test.:${P}/`, 'fetch/blocked-address'],
      [`http://mapped.test:${P}/`, 'fetch/blocked-address'],
      [`http://v6loop.test:${P}/`, 'fetch/blocked-address'],
      [`http://mixed.test:${P}/`, 'fetch/blocked-address'],
      [`http://mixed6.test:${P}/`, 'fetch/blocked-address'],
      [`http://nat64.test:${P}/`, 'fetch/blocked-address'],
      [`http://zero.test:${P}/`, 'fetch/blocked-address'],
      // Private, link-local, metadata and other special-purpose addresses.
      ['http://10.0.0.1/', 'fetch/blocked-address'],
      ['http://167772161/', 'fetch/blocked-address'],
      ['http://012.0.0.1/', 'fetch/blocked-address'],
      ['http://0xa.0.0.1/', 'fetch/blocked-address'],
      ['http://172.16.0.1/', 'fetch/blocked-address'],
      ['http://172.31.255.255/', 'fetch/blocked-address'],
      ['http://192.168.1.1/', 'fetch/blocked-address'],
      ['http://3232235777/', 'fetch/blocked-address'],
      ['http://100.64.0.1/', 'fetch/blocked-address'],
      ['http://169.254.169.254/latest/meta-data/', 'fetch/blocked-host'],
      ['http://2852039166/latest/meta-data/', 'fetch/blocked-host'],
      ['http://0xa9.0xfe.0xa9.0xfe/', 'fetch/blocked-host'],
      ['http://169.254.170.2/v2/credentials', 'fetch/blocked-host'],
      ['http://100.100.100.200/latest/meta-data/', 'fetch/blocked-host'],
      ['http://[fd00:ec2::254]/latest/meta-data/', 'fetch/blocked-host'],
      ['http://metadata.google.internal/computeMetadata/v1/', 'fetch/blocked-host'],
      ['http://metadata.google.internal./computeMetadata/v1/', 'fetch/blocked-host'],
      ['http://meta.test/', 'fetch/blocked-host'],
      ['http://meta6.test/', 'fetch/blocked-host'],
      ['http://alibaba.test/', 'fetch/blocked-host'],
      ['http://internal.test/', 'fetch/blocked-address'],
      ['http://ula.test/', 'fetch/blocked-address'],
      ['http://cgnat.test/', 'fetch/blocked-address'],
      ['http://linklocal6.test/', 'fetch/blocked-address'],
      ['http://169.254.0.1/', 'fetch/blocked-address'],
      ['http://[fe80::1]/', 'fetch/blocked-address'],
      ['http://[fc00::1]/', 'fetch/blocked-address'],
      ['http://[fd12:3456::1]/', 'fetch/blocked-address'],
      ['http://[::ffff:10.0.0.1]/', 'fetch/blocked-address'],
      ['http://[::ffff:169.254.169.254]/', 'fetch/blocked-host'],
      ['http://[2002:a00:1::]/', 'fetch/blocked-address'],
      ['http://[64:ff9b::a9fe:a9fe]/', 'fetch/blocked-host'],
      ['http://224.0.0.1/', 'fetch/blocked-address'],
      ['http://[ff02::1]/', 'fetch/blocked-address'],
      ['http://255.255.255.255/', 'fetch/blocked-address'],
      ['http://240.0.0.1/', 'fetch/blocked-address'],
      ['http://198.18.0.1/', 'fetch/blocked-address'],
      ['http://192.0.2.1/', 'fetch/blocked-address'],
      ['http://198.51.100.1/', 'fetch/blocked-address'],
      ['http://203.0.113.1/', 'fetch/blocked-address'],
      ['http://[2001:db8::1]/', 'fetch/blocked-address'],
      ['http://[100::1]/', 'fetch/blocked-address'],
      // Schemes other than http and https.
      ['file:///etc/passwd', 'fetch/unsupported-scheme'],
      [`ftp://127.0.0.1:${P}/`, 'fetch/unsupported-scheme'],
      ['data:text/plain,hello', 'fetch/unsupported-scheme'],
      [`gopher://127.0.0.1:${P}/_GET%20/`, 'fetch/unsupported-scheme'],
      ['javascript:alert(1)', 'fetch/unsupported-scheme'],
      [`ws://127.0.0.1:${P}/`, 'fetch/unsupported-scheme'],
      [`dict://127.0.0.1:${P}/info`, 'fetch/unsupported-scheme'],
      ['blob:http://example.com/1', 'fetch/unsupported-scheme'],
      // Credentials and forms that parsers read differently.
      [`http://user:pass@127.0.0.1:${P}/`, 'fetch/credentials-in-url'],
      [`http://user@127.0.0.1:${P}/`, 'fetch/credentials-in-url'],
      [`http://example.com@127.0.0.1:${P}/`, 'fetch/credentials-in-url'],
      [`http://127.0.0.1:${P}\\@example.com/`, 'fetch/invalid-url'],
      [`http:\\\\127.0.0.1:${P}\\`, 'fetch/invalid-url'],
      [`http:/127.0.0.1:${P}/`, 'fetch/invalid-url'],
      [`http:127.0.0.1:${P}/`, 'fetch/invalid-url'],
      [`http:///127.0.0.1:${P}/`, 'fetch/invalid-url'],
      [` http://127.0.0.1:${P}/`, 'fetch/invalid-url'],
      [`http://127.0.0.1:${P}/\n`, 'fetch/invalid-url'],
      [`http://127.0.\t0.1:${P}/`, 'fetch/invalid-url'],
      [`http://%31%32%37.0.0.1:${P}/`, 'fetch/invalid-url'],
      [`http://[fe80::1%25lo]:${P}/`, 'fetch/invalid-url'],
      [`//127.0.0.1:${P}/`, 'fetch/invalid-url'],
      ['not a url', 'fetch/invalid-url'],
      ['http://', 'fetch/invalid-url'],
      [`http://${'a'.repeat(9000)}.com/`, 'fetch/invalid-url'],
    ];
    lookups.length = 0;
    for (const [url, code] of cases) {
      const error = await refusal(guardedFetch(url));
      expect({ url, code: error.code }).toEqual({ url, code });
      expect(error.reason.length).toBeGreaterThan(10);
      refused.push(url);
    }
    // Names refused by name never reach DNS.
    expect(lookups.some((name) => /localhost|metadata/i.test(name))).toBe(false);
    expect(connections).toBe(0);
    expect(refused.length).toBeGreaterThanOrEqual(60);
  });

  it('refuses redirects into private space from a site that is allowed, and none of them connects', async () => {
    // Exactly the site's address and port is allowed; the counter's port on the same address is not.
    const guardedFetch = createGuardedFetch({ lookup, allowAddresses: [`127.0.0.1:${S}`] });
    const targets: [string, string][] = [
      [`http://127.0.0.1:${P}/`, 'fetch/blocked-address'],
      [`http://2130706433:${P}/`, 'fetch/blocked-address'],
      [`http://0x7f.1:${P}/`, 'fetch/blocked-address'],
      [`http://127.0.0.2:${S}/`, 'fetch/blocked-address'],
      [`http://[::1]:${P}/`, 'fetch/blocked-address'],
      [`http://[::ffff:127.0.0.1]:${S}/`, 'fetch/blocked-address'],
      [`http://loop.test:${P}/`, 'fetch/blocked-address'],
      [`http://mixed.test:${P}/`, 'fetch/blocked-address'],
      [`http://localhost:${P}/`, 'fetch/blocked-address'],
      ['http://10.0.0.1/', 'fetch/blocked-address'],
      ['http://169.254.169.254/latest/meta-data/', 'fetch/blocked-host'],
      ['http://metadata.google.internal/computeMetadata/v1/', 'fetch/blocked-host'],
      ['http://internal.test/', 'fetch/blocked-address'],
      ['file:///etc/passwd', 'fetch/unsupported-scheme'],
      [`gopher://127.0.0.1:${P}/_`, 'fetch/unsupported-scheme'],
      [`http://user:pw@127.0.0.1:${S}/ok`, 'fetch/credentials-in-url'],
      [`http:\\\\127.0.0.1:${P}\\`, 'fetch/invalid-url'],
    ];
    for (const [target, code] of targets) {
      for (const status of [302, 307]) {
        const url = `http://127.0.0.1:${S}/redirect?status=${status}&to=${encodeURIComponent(target)}`;
        const error = await refusal(guardedFetch(url));
        expect({ target, status, code: error.code }).toEqual({ target, status, code });
        refused.push(url);
      }
    }
    expect(connections).toBe(0);
  });

  it('prints the count, and the counter does see a connection that is allowed', async () => {
    console.log(`guarded fetch: ${refused.length} URLs refused before any connection`);
    expect(refused.length).toBeGreaterThanOrEqual(60);
    expect(connections).toBe(0);
    const allowed = createGuardedFetch({ allowAddresses: [`127.0.0.1:${P}`] });
    const response = await allowed(`http://127.0.0.1:${P}/`);
    expect(response.body.toString()).toBe('counted');
    expect(connections).toBe(1);
  });
});

describe('guarded fetch: allowed local site', () => {
  const guardedFetch = createGuardedFetch({ lookup, allowAddresses: ['127.0.0.1/32'] });
  const base = () => `http://127.0.0.1:${S}`;

  it('fetches a page with its status, headers, final URL and content type', async () => {
    const response = await guardedFetch(`${base()}/ok`);
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('<h1>hello</h1>');
    expect(response.contentType).toBe('text/html');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.url).toBe(`${base()}/ok`);
    expect(response.headers['x-seen-host']).toBe(`127.0.0.1:${S}`);
  });

  it('answers localhost itself, so it works where 127.0.0.1 is allowed and never asks DNS', async () => {
    lookups.length = 0;
    const response = await guardedFetch(`http://localhost:${S}/ok`);
    expect(response.headers['x-seen-host']).toBe(`localhost:${S}`);
    expect(lookups).toEqual([]);
  });

  it('connects to the address it checked, keeping the name in the Host header (DNS is asked once per hop)', async () => {
    let answers = 0;
    const rebinding = createGuardedFetch({
      allowAddresses: ['127.0.0.1/32'],
      // First answer passes the check; every later answer points into private space.
      lookup: async () => [{ address: answers++ === 0 ? '127.0.0.1' : '10.0.0.1', family: 4 }],
    });
    const response = await rebinding(`http://rebind.test:${S}/ok`);
    expect(response.headers['x-seen-host']).toBe(`rebind.test:${S}`);
    expect(answers).toBe(1);
    // The next hop of a redirect is resolved and checked again, and now refused.
    answers = 0;
    const error = await refusal(rebinding(`http://rebind.test:${S}/redirect?to=/ok`));
    expect(error.code).toBe('fetch/blocked-address');
    expect(error.reason).toBe(
      'Refused by the private-address rule: the host rebind.test resolves to 10.0.0.1, a private network address; only public internet addresses can be fetched.',
    );
    expect(answers).toBe(2);
  });

  it('verifies TLS against the original name while connecting to the checked address', async () => {
    const secure = createGuardedFetch({ lookup, allowAddresses: [`127.0.0.1:${tlsPort}`], tlsCa });
    const response = await secure(`https://secure.test:${tlsPort}/`);
    expect(response.body.toString()).toBe('secret handshake');
    expect(response.headers['x-seen-host']).toBe(`secure.test:${tlsPort}`);
    expect(tlsServerName).toBe('secure.test');
    // The certificate names secure.test only, so the bare address fails verification.
    const error = await refusal(secure(`https://127.0.0.1:${tlsPort}/`));
    expect(error.code).toBe('fetch/connection-failed');
    // A private address reads alike whatever failed, so the reason cannot tell an open port from a closed one.
    expect(error.reason).toBe(`Could not fetch from 127.0.0.1:${tlsPort}: no HTTP answer came back.`);
    const untrusted = createGuardedFetch({ lookup, allowAddresses: [`127.0.0.1:${tlsPort}`] });
    expect((await refusal(untrusted(`https://secure.test:${tlsPort}/`))).code).toBe(
      'fetch/connection-failed',
    );
  });

  it('follows up to five redirects, re-checking each hop, and refuses the sixth', async () => {
    const response = await guardedFetch(`${base()}/chain/5`);
    expect(response.body.toString()).toBe('end of chain');
    expect(response.url).toBe(`${base()}/chain/0`);
    const error = await refusal(guardedFetch(`${base()}/chain/6`));
    expect(error.code).toBe('fetch/too-many-redirects');
    expect(error.reason).toBe('The address redirected more than 5 times.');
    const viaName = await guardedFetch(
      `${base()}/redirect?to=${encodeURIComponent(`http://site.test:${S}/ok`)}`,
    );
    expect(viaName.url).toBe(`http://site.test:${S}/ok`);
    expect(viaName.headers['x-seen-host']).toBe(`site.test:${S}`);
  });

  it('sends credentials headers only to the origin they were given for', async () => {
    const headers = { authorization: 'Bearer token' };
    const same = await guardedFetch(`${base()}/redirect?to=/ok`, { headers });
    expect(same.headers['x-seen-auth']).toBe('Bearer token');
    const elsewhere = `http://site.test:${S}/ok`;
    const other = await guardedFetch(`${base()}/redirect?to=${encodeURIComponent(elsewhere)}`, { headers });
    expect(other.headers['x-seen-auth']).toBe('none');
  });

  it('keeps HEAD across a redirect, without a body', async () => {
    const head = await guardedFetch(`${base()}/redirect?status=307&to=/ok`, { method: 'HEAD' });
    expect(head.headers['x-seen-method']).toBe('HEAD');
    expect(head.body.length).toBe(0);
  });

  it('sends a POST body; 307 keeps method and body, 303 and 302 continue as a GET without them', async () => {
    const post = (url: string) =>
      guardedFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"q":"héllo"}',
      });
    const direct = await post(`${base()}/echo`);
    expect(direct.headers['x-seen-method']).toBe('POST');
    expect(direct.headers['x-seen-type']).toBe('application/json');
    expect(direct.body.toString()).toBe('{"q":"héllo"}');
    const kept = await post(`${base()}/redirect?status=307&to=/echo`);
    expect([kept.headers['x-seen-method'], kept.body.toString()]).toEqual(['POST', '{"q":"héllo"}']);
    for (const status of [302, 303]) {
      const dropped = await post(`${base()}/redirect?status=${status}&to=/echo`);
      expect(dropped.headers['x-seen-method']).toBe('GET');
      expect(dropped.headers['x-seen-type']).toBe('none');
      expect(dropped.body.toString()).toBe('(no body)');
    }
  });

  it('decodes gzip, brotli and both kinds of deflate', async () => {
    expect((await guardedFetch(`${base()}/gzip`)).body.toString()).toBe('zipped text');
    expect((await guardedFetch(`${base()}/br`)).body.toString()).toBe('brotli text');
    expect((await guardedFetch(`${base()}/deflate`)).body.toString()).toBe('deflated text');
    expect((await guardedFetch(`${base()}/deflate-raw`)).body.toString()).toBe('raw deflated text');
    expect((await refusal(guardedFetch(`${base()}/zstd`))).code).toBe('fetch/unsupported-encoding');
  });

  it('caps the body: at the limit, past it, by a declared length, with no length, with a false length, and after decoding', async () => {
    expect((await guardedFetch(`${base()}/bytes?n=1000`, { maxBytes: 1000 })).body.length).toBe(1000);
    const past = await refusal(guardedFetch(`${base()}/bytes?n=1001`, { maxBytes: 1000 }));
    expect(past.code).toBe('fetch/too-large');
    expect(past.reason).toBe('The response is larger than the limit of 1000 bytes.');
    const declared = await refusal(guardedFetch(`${base()}/declared-huge`));
    expect(declared.code).toBe('fetch/too-large');
    expect(declared.reason).toBe('The response is larger than the limit of 10 MB.');
    // No Content-Length: the stream is cut at the limit and the server sees the connection close.
    const endless = await refusal(guardedFetch(`${base()}/endless`));
    expect(endless.code).toBe('fetch/too-large');
    await Promise.all(closedStreams);
    // A Content-Length smaller than what is sent: nothing beyond the declared length is read.
    const liar = createGuardedFetch({ allowAddresses: [`127.0.0.1:${liarPort}`] });
    expect((await liar(`http://127.0.0.1:${liarPort}/`)).body.length).toBe(500);
    expect((await refusal(liar(`http://127.0.0.1:${liarPort}/`, { maxBytes: 499 }))).code).toBe(
      'fetch/too-large',
    );
    // 11 KB on the wire, 11 MB once decoded.
    const bomb = await refusal(guardedFetch(`${base()}/bomb`));
    expect(bomb.code).toBe('fetch/too-large');
  });

  it('stops waiting: for the first byte of an answer, for the whole answer, and when the caller cancels', async () => {
    const impatient = createGuardedFetch({ lookup, allowAddresses: ['127.0.0.1/32'], headersTimeoutMs: 100 });
    const headers = await refusal(impatient(`${base()}/no-answer`));
    expect(headers.code).toBe('fetch/timeout');
    expect(headers.reason).toBe('The site did not start answering within 1 second.');
    const body = await refusal(guardedFetch(`${base()}/stalled-body`, { timeoutMs: 150 }));
    expect(body.code).toBe('fetch/timeout');
    expect(body.reason).toBe('The site did not answer completely within 1 second.');
    const controller = new AbortController();
    const pending = guardedFetch(`${base()}/no-answer`, { signal: controller.signal });
    controller.abort();
    expect((await refusal(pending)).code).toBe('fetch/aborted');
  });

  it('refuses answers that are not 2xx, with the status', async () => {
    for (const status of [404, 500, 304]) {
      const error = await refusal(guardedFetch(`${base()}/status/${status}`));
      expect(error.code).toBe('fetch/http-status');
      expect(error.details.status).toBe(status);
      expect(error.reason).toBe(`The site answered with HTTP status ${status}.`);
    }
  });

  it('reports unknown names and refused connections in plain words', async () => {
    const unknown = await refusal(guardedFetch('http://nowhere.test/'));
    expect(unknown.code).toBe('fetch/dns-failure');
    expect(unknown.reason).toBe('The host name nowhere.test could not be found.');
    const empty = await refusal(guardedFetch('http://empty.test/'));
    expect([empty.code, empty.reason]).toEqual([
      'fetch/dns-failure',
      'The host name empty.test has no addresses.',
    ]);
    const closed = createGuardedFetch({ allowAddresses: ['127.0.0.1:1'] });
    const refusedConnection = await refusal(closed('http://127.0.0.1:1/'));
    expect(refusedConnection.code).toBe('fetch/connection-failed');
    expect(refusedConnection.reason).toBe('Could not fetch from 127.0.0.1:1: no HTTP answer came back.');
  });

  it('has a Web fetch shape for client libraries, under the same rules, streaming and capping the body', async () => {
    const webFetch = createGuardedWebFetch({ lookup, allowAddresses: ['127.0.0.1/32'], maxBytes: 1000 });
    const echoed = await webFetch(`${base()}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: '{"a":1}',
    });
    expect([echoed.status, await echoed.text(), echoed.headers.get('x-seen-auth')]).toEqual([
      200,
      '{"a":1}',
      'Bearer k',
    ]);
    // Any status comes back as a response for the library to read; a compressed body arrives decoded.
    const missing = await webFetch(`${base()}/status/404`);
    expect([missing.status, await missing.text()]).toEqual([404, 'status page']);
    expect(await (await webFetch(`${base()}/gzip`)).text()).toBe('zipped text');
    const redirected = await webFetch(`${base()}/redirect?to=/ok`);
    expect([redirected.url, await redirected.text()]).toEqual([`${base()}/ok`, '<h1>hello</h1>']);
    await expect((await webFetch(`${base()}/endless`)).arrayBuffer()).rejects.toThrow();
    const connectionsBefore = connections;
    const strict = createGuardedWebFetch({ lookup });
    await expect(strict(`http://127.0.0.1:${P}/`)).rejects.toMatchObject({ code: 'fetch/blocked-address' });
    const hop = `${base()}/redirect?to=${encodeURIComponent(`http://10.0.0.1/`)}`;
    await expect(webFetch(hop)).rejects.toMatchObject({ code: 'fetch/blocked-address' });
    expect(connections).toBe(connectionsBefore);
  });

  it('names the rule that refused, never calling an address "this server itself"', async () => {
    const strict = createGuardedFetch({ lookup });
    const connectionsBefore = connections;
    const cases: [string, FetchErrorCode, string][] = [
      [
        'http://10.0.0.5/',
        'fetch/blocked-address',
        'Refused by the private-address rule: 10.0.0.5 is a private network address; only public internet addresses can be fetched.',
      ],
      [
        'http://internal.test/',
        'fetch/blocked-address',
        'Refused by the private-address rule: the host internal.test resolves to 10.0.0.1, a private network address; only public internet addresses can be fetched.',
      ],
      [
        'http://localhost:8080/',
        'fetch/blocked-address',
        'Refused by the loopback rule: the host localhost resolves to 127.0.0.1, a loopback address; only public internet addresses can be fetched.',
      ],
      [
        'http://[fe80::1]/',
        'fetch/blocked-address',
        'Refused by the link-local rule: fe80::1 is a link-local address; only public internet addresses can be fetched.',
      ],
      [
        'http://192.0.2.7/',
        'fetch/blocked-address',
        'Refused by the reserved-address rule: 192.0.2.7 is an address reserved for documentation; only public internet addresses can be fetched.',
      ],
      [
        'http://2852039166/',
        'fetch/blocked-host',
        'Refused by the cloud-metadata rule: 169.254.169.254 is a cloud metadata service address; only public internet addresses can be fetched.',
      ],
      [
        'ftp://example.com/',
        'fetch/unsupported-scheme',
        'Refused by the http-only rule: only http and https addresses can be fetched; this one uses "ftp:".',
      ],
      [
        'http://93.184.215.14:25/',
        'fetch/blocked-port',
        'Refused by the port rule: port 25 belongs to another protocol and is not fetched over http.',
      ],
    ];
    for (const [url, code, reason] of cases) {
      const error = await refusal(strict(url));
      expect({ url, code: error.code, reason: error.reason }).toEqual({ url, code, reason });
      expect(error.reason).not.toContain('this server');
    }
    const withPassword = await refusal(strict('https://user:hunter2@example.com/'));
    expect([withPassword.code, withPassword.reason]).toEqual([
      'fetch/credentials-in-url',
      'Refused by the no-credentials rule: the address contains a user name or password.',
    ]);
    expect(JSON.stringify({ ...withPassword, message: withPassword.message })).not.toContain('hunter2');
    // An allow list never opens a metadata endpoint.
    const broad = createGuardedFetch({ lookup, allowAddresses: ['169.254.0.0/16', '100.64.0.0/10'] });
    expect((await refusal(broad('http://169.254.169.254/'))).code).toBe('fetch/blocked-host');
    expect((await refusal(broad('http://100.100.100.200/'))).code).toBe('fetch/blocked-host');
    // A port of another protocol opens only when an entry names the address and that port.
    const ranged = createGuardedFetch({ lookup, allowAddresses: ['127.0.0.0/8'] });
    expect((await refusal(ranged(`http://127.0.0.1:25/`))).code).toBe('fetch/blocked-port');
    expect(connections).toBe(connectionsBefore);
  });

  it('prechecks an address before it is stored, without DNS, and returns it in its one normalised form', () => {
    const refusedCode = (raw: string) => {
      try {
        precheckUrl(raw);
        return 'accepted';
      } catch (error) {
        return (error as FetchError).code;
      }
    };
    for (const raw of [
      'HTTP://127.0.0.1/',
      'http://2130706433/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://[::1]/',
      'http://[0:0:0:0:0:ffff:7f00:1]/',
      'http://[fe80::1]/',
      'http://localhost./',
      'http://Api.LOCALHOST/',
      'http://10.0.0.1./',
    ])
      expect(refusedCode(raw), raw).toBe('fetch/blocked-address');
    expect(refusedCode('http://metadata.google.internal./')).toBe('fetch/blocked-host');
    expect(refusedCode('http://0xa9fea9fe/')).toBe('fetch/blocked-host');
    expect(refusedCode('https://user@example.com/')).toBe('fetch/credentials-in-url');
    expect(refusedCode('javascript:alert(1)')).toBe('fetch/unsupported-scheme');
    expect(refusedCode('http://example.com\\@10.0.0.1/')).toBe('fetch/invalid-url');
    expect(refusedCode('http://example.com:22/')).toBe('fetch/blocked-port');
    expect(precheckUrl('HTTPS://Example.COM:443/A/../b?x#y').href).toBe('https://example.com/b?x#y');
    expect(precheckUrl('http://m\u00fcnchen.example/').href).toBe('http://xn--mnchen-3ya.example/');
    expect(precheckUrl('http://example.com./').hostname).toBe('example.com.');
    // The operator's allow list opens a private site here as it does when fetching.
    expect(precheckUrl('http://10.0.0.1:8080/', { allowAddresses: ['10.0.0.0/8'] }).href).toBe(
      'http://10.0.0.1:8080/',
    );
  });

  it('tells a master, and only a master, how a refused private site is allowed', async () => {
    const refused = await refusal(createGuardedFetch({ lookup })('http://10.0.0.5/'));
    const master = refusalReasonFor(refused.code, refused.reason, { role: 'master' });
    expect(master).toBe(`${refused.reason} ${PRIVATE_SITE_HINT}`);
    expect(master).toContain('FETCH_ALLOW_ADDRESSES');
    for (const role of ['administrator', 'user', 'agent']) {
      expect(refusalReasonFor(refused.code, refused.reason, { role })).toBe(refused.reason);
    }
    const metadata = await refusal(createGuardedFetch({ lookup })('http://169.254.169.254/'));
    expect(refusalReasonFor(metadata.code, metadata.reason, { role: 'master' })).toBe(metadata.reason);
  });
});
