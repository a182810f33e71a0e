import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../db/client';
import type { Env } from '../env';
import { AppError } from '../lib/errors';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time check of `Authorization: Bearer <token>` (both sides hashed, so lengths leak nothing). */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer (.+)$/i.exec(authorization?.trim() ?? '');
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(token)) && match !== null;
}

/** 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
export const isLoopback = (ip: string) =>
  /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip) ||
  ip === '::1' ||
  /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(ip);

/**
 * Who may scrape: with METRICS_TOKEN set, only a caller presenting it; without, only a client on this machine
 * (a request relayed by a proxy carries forwarding headers and is never taken for a local one).
 */
function assertScraper(request: FastifyRequest, token: string | undefined) {
  if (token !== undefined) {
    if (bearerMatches(request.headers.authorization, token)) return;
    throw new AppError(401, 'unauthenticated', 'A valid metrics token is required.', {
      'www-authenticate': 'Bearer realm="metrics"',
    });
  }
  const relayed = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  if (!isLoopback(request.ip) || relayed) {
    throw new AppError(404, 'not_found', `No route for ${request.method} /metrics`);
  }
}

/** Prometheus metrics: request counts and latency by route, DB pool stats, process defaults. */
export function registerMetrics(app: FastifyInstance, database: Database, env: Env) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const pool = (name: string, help: string, pick: (stats: ReturnType<Database['poolStats']>) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['driver'],
      registers: [registry],
      collect() {
        this.set({ driver: database.driver }, pick(database.poolStats()));
      },
    });
  pool('db_pool_connections_total', 'Database connections open', (s) => s.total);
  pool('db_pool_connections_idle', 'Database connections idle', (s) => s.idle);
  pool('db_pool_requests_waiting', 'Queries waiting for a database connection', (s) => s.waiting);

  app.addHook('onResponse', (request, reply, done) => {
    // Unmatched paths share one label so that scanners cannot blow up the series count.
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status_code: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    assertScraper(request, env.METRICS_TOKEN);
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}
