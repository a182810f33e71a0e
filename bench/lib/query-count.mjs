// Preloaded into a built server (`node --import ./bench/lib/query-count.mjs dist/main.js`): counts the statements
// each HTTP request sends to PostgreSQL (every pg Client query is one round trip, BEGIN and COMMIT included) and
// writes one line per finished request to stderr: `omnibot-queries <json>` with its method, url, the count and the
// statements' first words. A statement is counted for the request in whose async context it was issued, so the
// counts are exact only for requests that do not overlap on the same process (the bench probes them one by one).
import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import pg from 'pg';

const requests = new AsyncLocalStorage();

const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(config, ...rest) {
  const current = requests.getStore();
  if (current) {
    const text = typeof config === 'string' ? config : (config?.text ?? config?.name ?? '');
    current.statements.push(text.replace(/\s+/g, ' ').trim().slice(0, 120));
  }
  return query.call(this, config, ...rest);
};

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function emitCounted(event, request, response, ...rest) {
  if (event !== 'request') return emit.call(this, event, request, response, ...rest);
  const current = { statements: [] };
  response.once('finish', () => {
    const line = JSON.stringify({
      method: request.method,
      url: request.url,
      queries: current.statements.length,
      statements: current.statements,
    });
    process.stderr.write(`omnibot-queries ${line}\n`);
  });
  return requests.run(current, () => emit.call(this, event, request, response, ...rest));
};
