// Builds the console, the widget and the server when their output is missing or older than their sources.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What `npm start` keeps fresh: an output file and everything it is built from. */
export const BUILD_TARGETS = [
  {
    workspace: '@omnibot/console',
    output: 'apps/console/dist/index.html',
    sources: [
      'apps/console/src',
      'apps/console/index.html',
      'apps/console/public',
      'apps/console/vite.config.ts',
      'apps/console/package.json',
      'scripts/precompress.mjs',
      'packages/contracts/src',
    ],
  },
  {
    workspace: '@omnibot/widget',
    output: 'apps/widget/dist/widget.js',
    sources: [
      'apps/widget/src',
      'apps/widget/index.html',
      'apps/widget/vite.config.ts',
      'apps/widget/vite.loader.config.ts',
      'apps/widget/package.json',
      'scripts/precompress.mjs',
      'packages/contracts/src',
    ],
  },
  {
    workspace: '@omnibot/server',
    output: 'apps/server/dist/main.js',
    sources: [
      'apps/server/src',
      'apps/server/drizzle',
      'apps/server/build.mjs',
      'apps/server/package.json',
      'packages/contracts/src',
    ],
  },
];

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git']);

/** Newest modification time (ms) of a file or of any file under a folder; 0 when nothing is there. */
export function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.isDirectory() && SKIPPED_DIRS.has(entry.name)) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** Why a target needs building, or null when its output is up to date. */
export function staleReason(target, root = ROOT) {
  const output = path.join(root, target.output);
  if (!existsSync(output)) return `${target.output} is missing`;
  const built = statSync(output).mtimeMs;
  for (const source of target.sources) {
    if (newestMtime(path.join(root, source)) > built) return `${source} changed since the last build`;
  }
  return null;
}

function npmCommand(args) {
  // Under `npm start`, npm tells us which npm runs us; reuse it rather than trusting PATH.
  const npmCli = process.env.npm_execpath;
  if (npmCli && /\.(c|m)?js$/.test(npmCli)) return [process.execPath, [npmCli, ...args]];
  return [process.platform === 'win32' ? 'npm.cmd' : 'npm', args];
}

function run(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: 'inherit', shell: process.platform === 'win32' });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? code})`)),
    );
  });
}

/** Builds every stale target in order (console first: the server serves its output). */
export async function ensureBuilt({ root = ROOT, log = console.log } = {}) {
  for (const target of BUILD_TARGETS) {
    const reason = staleReason(target, root);
    if (!reason) {
      log(`[omnibot] ${target.workspace} is up to date`);
      continue;
    }
    log(`[omnibot] building ${target.workspace}: ${reason}`);
    const started = Date.now();
    const [command, args] = npmCommand(['run', 'build', '-w', target.workspace]);
    await run(command, args, root);
    log(`[omnibot] built ${target.workspace} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}
