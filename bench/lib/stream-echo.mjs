// The floor of bench:handover, run as a process of its own like the servers it is compared with: a bare Node HTTP
// server that writes each posted text to the event stream it names. `GET /events/:n` opens stream n; `POST /say`
// with {"stream": n, "text": "..."} writes `event: message` with that text to stream n and answers 204. Listens on a
// free loopback port and prints it on its first line of stdout.
import { createServer } from 'node:http';

const streams = new Map();
const server = createServer((request, response) => {
  const opened = /^\/events\/(\d+)$/.exec(request.url ?? '');
  if (request.method === 'GET' && opened) {
    const key = Number(opened[1]);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    response.flushHeaders();
    streams.set(key, response);
    request.on('close', () => {
      if (streams.get(key) === response) streams.delete(key);
    });
    return;
  }
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    const { stream, text } = JSON.parse(body);
    const target = streams.get(stream);
    if (!target) {
      response.writeHead(404).end();
      return;
    }
    target.write(`event: message\ndata: ${JSON.stringify({ text })}\n\n`);
    response.writeHead(204).end();
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
