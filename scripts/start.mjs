// `npm start`: build what is missing or stale, then run the one server process in the foreground.
// Arguments are handed to the server unchanged (e.g. `npm start -- --demo`).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import path from 'node:path';
import { ROOT, ensureBuilt } from './lib/build.mjs';

try {
  await ensureBuilt();
} catch (error) {
  console.error(`[omnibot] build failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const server = spawn(
  process.execPath,
  [path.join(ROOT, 'apps/server/dist/main.js'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);

for (const signal of ['SIGTERM', 'SIGINT']) {
  // The server shuts down gracefully on either; we wait for it and exit with its code.
  process.on(signal, () => {
    if (server.exitCode === null && server.signalCode === null) server.kill(signal);
  });
}

server.on('error', (error) => {
  console.error(`[omnibot] could not start the server: ${error.message}`);
  process.exit(1);
});

server.on('exit', (code, signal) => {
  process.exit(code ?? 128 + (signal ? constants.signals[signal] : 1));
});
