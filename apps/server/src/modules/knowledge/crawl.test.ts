import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch, FetchError } from '../../lib/guarded-http/guarded-fetch';
import { crawlSite } from './crawl';

let server: http.Server;
let port = 0;
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    seen.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Start</h1><p>startword</p>');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.close();
  await once(server, 'close');
});

describe('crawlSite', () => {
  it('puts the start address through the guarded checks as given, before normalising it', async () => {
    const fetch = createGuardedFetch({ allowAddresses: [`127.0.0.1:${port}`] });
    const pages = await crawlSite(fetch, `HTTP://127.0.0.1:${port}/start#top`, { depth: 0 });
    expect(pages.map((page) => page.url)).toEqual([`http://127.0.0.1:${port}/start`]);
    seen.length = 0;
    // WHATWG URL would read each of these as the allowed site; the guarded client refuses them as written.
    for (const start of [
      `http:\\\\127.0.0.1:${port}\\start`,
      `http://127.0.0.1:${port}/start\n`,
      `http://%31%32%37.0.0.1:${port}/start`,
      `http://user@127.0.0.1:${port}/start`,
      '',
    ]) {
      const error = await crawlSite(fetch, start, { depth: 0 }).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error, JSON.stringify(start)).toBeInstanceOf(FetchError);
    }
    expect(seen).toEqual([]);
  });
});
