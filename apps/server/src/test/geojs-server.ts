/**
 * A local IP geolocation service for tests. It speaks the geojs protocol (get.geojs.io):
 * `GET /v1/ip/country/{ip}.json` answers `{country, country_3, ip, name}` and `GET /v1/ip/geo/{ip}.json` answers
 * `{ip, country, country_code, country_code3, continent_code, region, city, latitude, longitude, timezone,
 * organization_name}`, from a small table of addresses (others: country `XX`, as geojs answers for addresses it
 * cannot place, though without the other fields). `failure` makes the next calls fail (429, 500, hang, not JSON,
 * JSON without a country); every request's path is recorded.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type GeojsFailureMode = 'none' | 429 | 500 | 'hang' | 'not-json' | 'malformed';

export interface GeojsServer {
  url: string;
  paths: string[];
  failure: GeojsFailureMode;
  close(): Promise<void>;
}

export const GEOJS_PLACES: Record<
  string,
  { country: string; country_3: string; name: string; city: string }
> = {
  '198.51.100.7': { country: 'FR', country_3: 'FRA', name: 'France', city: 'Lyon' },
  '198.51.100.8': { country: 'DE', country_3: 'DEU', name: 'Germany', city: 'Berlin' },
  '2001:db8::5': { country: 'JP', country_3: 'JPN', name: 'Japan', city: 'Osaka' },
};

export async function startGeojsServer(): Promise<GeojsServer> {
  const hanging = new Set<ServerResponse>();
  const state: GeojsServer = { url: '', paths: [], failure: 'none', close: () => Promise.resolve() };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    state.paths.push(url.pathname);
    const failure = state.failure;
    if (failure === 'hang') {
      hanging.add(response);
      return;
    }
    if (typeof failure === 'number') {
      response.writeHead(failure, { 'content-type': 'text/plain' });
      response.end('error');
      return;
    }
    const match = /^\/v1\/ip\/(country|geo)\/([^/]+)\.json$/u.exec(url.pathname);
    if (request.method !== 'GET' || !match) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('Not Found');
      return;
    }
    if (failure === 'not-json') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>captive portal</html>');
      return;
    }
    const ip = decodeURIComponent(match[2] ?? '');
    const place = GEOJS_PLACES[ip];
    const body =
      failure === 'malformed'
        ? { ip, name: 'somewhere' }
        : match[1] === 'country'
          ? place
            ? { country: place.country, country_3: place.country_3, ip, name: place.name }
            : { country: 'XX', country_3: 'XXX', ip, name: 'Unknown' }
          : {
              ip,
              country: place?.name ?? 'Unknown',
              country_code: place?.country ?? 'XX',
              country_code3: place?.country_3 ?? 'XXX',
              continent_code: 'EU',
              region: '',
              city: place?.city ?? '',
              latitude: '0',
              longitude: '0',
              timezone: 'Etc/UTC',
              organization_name: 'Test',
            };
    response.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${String(port)}`;
  state.close = async () => {
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
