import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WidgetConfigSchema, publicWidgetConfig, type WidgetConfigInput } from '@omnibot/contracts';

export interface ConfigServer {
  origin: string;
  /** Every request the server saw, as "METHOD path". */
  requests: string[];
  close: () => Promise<void>;
}

/**
 * A local HTTP server that answers like the widget endpoints that exist so far: the public projection of a
 * bot's configuration at GET /v1/widget/:botId/config, and 404 for anything else (the intent endpoint included).
 */
export async function startConfigServer(bots: Record<string, WidgetConfigInput>): Promise<ConfigServer> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '';
    requests.push(`${request.method ?? ''} ${path}`);
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', 'content-type');
    response.setHeader('content-type', 'application/json');
    if (request.method === 'OPTIONS') {
      response.writeHead(204).end();
      return;
    }
    const match = /^\/v1\/widget\/([^/]+)\/config$/.exec(path);
    const bot = match?.[1] === undefined ? undefined : bots[decodeURIComponent(match[1])];
    if (request.method === 'GET' && bot !== undefined) {
      response.end(JSON.stringify(publicWidgetConfig(WidgetConfigSchema.parse(bot))));
      return;
    }
    response.writeHead(404).end(JSON.stringify({ code: 'NOT_FOUND', message: 'Not found.' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
