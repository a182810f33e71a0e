import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '../../db/client';

const HealthSchema = z.object({ status: z.literal('ok') });
const ReadySchema = z.object({
  status: z.enum(['ready', 'unavailable']),
  reason: z.string().optional(),
  driver: z.string(),
});

export function healthRoutes(app: FastifyInstance, database: Database, isShuttingDown: () => boolean) {
  app.get(
    '/healthz',
    { schema: { tags: ['health'], summary: 'The process is up', response: { 200: HealthSchema } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        summary: 'The database is reachable and the server takes traffic',
        response: { 200: ReadySchema, 503: ReadySchema },
      },
    },
    async (request, reply) => {
      if (isShuttingDown()) {
        return reply
          .status(503)
          .send({ status: 'unavailable', reason: 'shutting down', driver: database.driver });
      }
      try {
        await database.ping();
        return { status: 'ready' as const, driver: database.driver };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return reply
          .status(503)
          .send({ status: 'unavailable', reason: 'database unreachable', driver: database.driver });
      }
    },
  );
}
