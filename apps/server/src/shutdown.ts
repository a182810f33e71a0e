import type { FastifyInstance } from 'fastify';
import type { Database } from './db/client';

/**
 * Stops taking connections, lets in-flight requests finish (bounded), then closes the database.
 * Returns true when everything closed within the time limit.
 */
export async function shutDown(
  app: FastifyInstance,
  database: Database,
  timeoutMs: number,
): Promise<boolean> {
  app.shuttingDown = true;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const closed = app.close().then(() => true as const);
  const finished = await Promise.race([closed, timedOut]);
  clearTimeout(timer);
  if (!finished) {
    app.log.warn({ timeoutMs }, 'in-flight requests did not finish in time; closing their connections');
    app.server.closeAllConnections();
  }
  await database.close();
  return finished;
}
