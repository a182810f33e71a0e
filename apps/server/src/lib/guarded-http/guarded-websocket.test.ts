import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { createGuardedSocketOpener } from './guarded-websocket';

// A plain WebSocket echo server on loopback; an upgrade asking for /refuse is answered 401 like a refused token.
let server: Server;
let port = 0;
const origins: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer();
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    if (request.url === '/refuse') {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    origins.push(request.headers.origin);
    sockets.handleUpgrade(request, socket, head, (ws) =>
      ws.on('message', (data: Buffer) => ws.send(data.toString('utf8'))),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('the guarded socket opener', () => {
  it('refuses a loopback address unless the operator allows it, before any connection', async () => {
    const open = createGuardedSocketOpener();
    await expect(open(`ws://127.0.0.1:${port}/v1`)).rejects.toMatchObject({ code: 'fetch/blocked-address' });
    await expect(open(`ws://localhost:${port}/v1`)).rejects.toMatchObject({ code: 'fetch/blocked-address' });
    expect(origins).toHaveLength(0);
  });

  it('refuses other schemes, credentials in the address and the metadata service', async () => {
    const open = createGuardedSocketOpener({ allowAddresses: ['127.0.0.1'] });
    await expect(open(`http://127.0.0.1:${port}/v1`)).rejects.toMatchObject({
      code: 'fetch/unsupported-scheme',
    });
    await expect(open(`ws://user:pw@127.0.0.1:${port}/v1`)).rejects.toMatchObject({
      code: 'fetch/credentials-in-url',
    });
    await expect(open('ws://169.254.169.254/latest')).rejects.toMatchObject({ code: 'fetch/blocked-host' });
  });

  it('connects to an allowed address with the given headers, and says an upgrade was refused', async () => {
    const open = createGuardedSocketOpener({ allowAddresses: [`127.0.0.1:${port}`] });
    const socket = await open(`ws://127.0.0.1:${port}/v1?deploymentId=x`, {
      headers: { origin: 'https://shop.example' },
    });
    const echoed = new Promise<string>((resolve) =>
      socket.once('message', (data: Buffer) => resolve(data.toString('utf8'))),
    );
    socket.send('hello');
    expect(await echoed).toBe('hello');
    expect(origins.at(-1)).toBe('https://shop.example');
    socket.close();
    await expect(open(`ws://127.0.0.1:${port}/refuse`)).rejects.toMatchObject({
      code: 'fetch/http-status',
      details: { status: 401 },
    });
  });
});
