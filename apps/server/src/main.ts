import path from 'node:path';
import { buildApp } from './app';
import { openDatabase, type DatabaseTarget } from './db/client';
import { bootstrap } from './bootstrap';
import { EnvError, loadEnv } from './env';
import { chooseLogFormat, prettyLogStream } from './log-format';
import { shutDown } from './shutdown';

async function main() {
  const env = loadEnv();
  const target: DatabaseTarget = env.DATABASE_URL
    ? { kind: 'postgres', url: env.DATABASE_URL }
    : { kind: 'pglite', dataDir: path.join(env.DATA_DIR, 'pglite') };
  const startedAt = performance.now();
  const database = await openDatabase(target);
  const logStream =
    chooseLogFormat(env.LOG_FORMAT, process.stdout.isTTY) === 'pretty'
      ? prettyLogStream(process.stdout, process.stdout.isTTY)
      : undefined;
  const app = await buildApp({ env, database, logStream, jobs: true });
  if (!database.vectorEnabled)
    app.log.warn('pgvector is not installed in this database: vector search is off');

  await bootstrap({ db: database.db, env, auth: app.auth, logger: app.log });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    void shutDown(app, database, env.SHUTDOWN_TIMEOUT_MS).then(
      (clean) => process.exit(clean ? 0 : 1),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  await app.listen({ port: env.PORT, host: env.HOST });
  app.log.info(
    { url: env.PUBLIC_URL, driver: database.driver, readyInMs: Math.round(performance.now() - startedAt) },
    `${env.PRODUCT_NAME} is ready at ${env.PUBLIC_URL}`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof EnvError) {
    console.error(error.message);
  } else {
    console.error('Start-up failed:', error);
  }
  process.exit(1);
});
