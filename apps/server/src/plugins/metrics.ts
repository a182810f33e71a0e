import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../db/client';

/** Prometheus metrics: request counts and latency by route, DB pool stats, process defaults. */
export function registerMetrics(app: FastifyInstance, database: Database) {
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

  app.addHook('onResponse', async (request, reply) => {
    // Unmatched paths share one label so that scanners cannot blow up the series count.
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status_code: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}
