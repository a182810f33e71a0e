import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Database } from './db/client';
import type { Env } from './env';
import { healthRoutes } from './modules/health/health.routes';
import { CONSOLE_DIST_DIR } from './paths';
import { registerConsole } from './plugins/console';
import { registerErrorHandling } from './plugins/errors';
import { registerMetrics } from './plugins/metrics';

export interface AppDeps {
  env: Env;
  database: Database;
  /** Folder of the built console; null serves the API only. */
  consoleDir?: string | null;
  /** Where logs go (tests capture them); standard output by default. */
  logStream?: NodeJS.WritableStream;
}

export type App = FastifyInstance;

declare module 'fastify' {
  interface FastifyInstance {
    shuttingDown: boolean;
  }
}

/** Builds the whole server (plugins first, then modules). Never listens: main.ts and tests do. */
export async function buildApp({ env, database, consoleDir = CONSOLE_DIST_DIR, logStream }: AppDeps) {
  const app = Fastify({
    logger: {
      level: env.LOG_LEVEL,
      ...(logStream ? { stream: logStream } : {}),
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
    },
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    trustProxy: true,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate('shuttingDown', false);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Responses finished during shutdown close their keep-alive connection so that close() can complete.
  app.addHook('onSend', async (_request, reply) => {
    if (app.shuttingDown) reply.header('connection', 'close');
  });

  registerErrorHandling(app);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  // The console is same-origin; the widget routes will opt in per bot.
  await app.register(cors, { origin: false });
  await app.register(rateLimit, { global: true, max: 1200, timeWindow: '1 minute' });
  await app.register(swagger, {
    openapi: { info: { title: `${env.PRODUCT_NAME} API`, version: '1' } },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  registerMetrics(app, database);
  healthRoutes(app, database, () => app.shuttingDown);
  await registerConsole(app, env, consoleDir);

  return app;
}
