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

const serverMain = path.join(ROOT, 'apps/server/dist/main.js');
const server = spawn(process.execPath, [serverMain, ...process.argv.slice(2)], { stdio: 'inherit' });

const stopServer = (signal) => {
  if (server.exitCode === null && server.signalCode === null) server.kill(signal);
};
// The server shuts down gracefully on either signal; we wait for it and exit with its code.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => stopServer(signal));

// `npm start` runs us under `sh -c`, which dies on SIGTERM without passing it on (as when npm is PID 1
// in a container): losing our parent means the same as SIGTERM, so the server is never left orphaned.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) stopServer('SIGTERM');
}, 500).unref();

server.on('error', (error) => {
  console.error(`[omnibot] could not start the server: ${error.message}`);
  process.exit(1);
});

server.on('exit', (code, signal) => {
  process.exit(code ?? 128 + (signal ? constants.signals[signal] : 1));
});
