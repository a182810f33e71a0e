// Start-up figures for the built server on a fresh DATA_DIR (embedded PGlite), and the console's
// initial JavaScript size (from index.html, and as fetched by Chromium when it is installed).
// Prints figures; never part of `npm test`.
//   node bench/startup.mjs [--warm-runs N] [--no-build]
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ROOT, ensureBuilt } from '../scripts/lib/build.mjs';
import { startBuiltServer } from './lib/server.mjs';

const CONSOLE_DIST = path.join(ROOT, 'apps/console/dist');
const IDLE_SETTLE_MS = 2_000;

const warmRunsArg = process.argv.indexOf('--warm-runs');
const WARM_RUNS = warmRunsArg > 0 ? Number(process.argv[warmRunsArg + 1]) : 3;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

function rssKiB(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** Starts the server, returns the time from spawn to the first /readyz 200 and a stop function. */
async function startTimed(dataDir) {
  const server = await startBuiltServer({
    dataDir,
    publicUrl: false,
    env: { LOG_LEVEL: 'info' },
    pollMs: 25,
  });
  const stop = async () => {
    const { exitCode, stopMs } = await server.stop();
    if (exitCode !== 0)
      throw new Error(`server exited with ${exitCode} after SIGTERM:\n${server.log.join('')}`);
    return stopMs;
  };
  return { pid: server.pid, url: server.url, readyMs: server.readyMs, stop };
}

const gzipSizeOf = (url) => {
  const content = readFileSync(path.join(CONSOLE_DIST, new URL(url, 'http://x').pathname.replace(/^\//, '')));
  return { url, raw: content.length, gzip: gzipSync(content).length };
};

/** Every script the browser fetches to show the console's first screen (lazy route chunks included). */
async function firstScreenJs(url) {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) return null;
  const browser = await chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage();
    const scripts = new Set();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script' && response.url().startsWith(url)) {
        scripts.add(new URL(response.url()).pathname);
      }
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    return [...scripts].filter((script) => existsSync(path.join(CONSOLE_DIST, script))).map(gzipSizeOf);
  } finally {
    await browser.close();
  }
}

function consoleInitialJs() {
  const indexFile = path.join(CONSOLE_DIST, 'index.html');
  if (!existsSync(indexFile)) return null;
  const html = readFileSync(indexFile, 'utf8');
  const files = new Set();
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
    const src = /\bsrc="([^"]+)"/.exec(tag)?.[1];
    if (src && /\btype="module"/.test(tag)) files.add(src);
  }
  for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
    const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
    if (href && /\brel="modulepreload"/.test(tag)) files.add(href);
  }
  const css = (html.match(/<link\b[^>]*rel="stylesheet"[^>]*>/g) ?? [])
    .map((tag) => /\bhref="([^"]+)"/.exec(tag)?.[1])
    .filter(Boolean);
  return { js: [...files].map(gzipSizeOf), css: css.map(gzipSizeOf) };
}

if (!process.argv.includes('--no-build')) await ensureBuilt({ log: () => {} });

const dataDir = await mkdtemp(path.join(tmpdir(), 'omnibot-bench-'));
let firstScreen = null;
try {
  const cold = await startTimed(dataDir);
  await sleep(IDLE_SETTLE_MS);
  const coldRss = rssKiB(cold.pid);
  firstScreen = await firstScreenJs(cold.url);
  const coldStopMs = await cold.stop();

  const warm = [];
  let warmRss = null;
  for (let run = 0; run < WARM_RUNS; run++) {
    const server = await startTimed(dataDir);
    if (run === 0) {
      await sleep(IDLE_SETTLE_MS);
      warmRss = rssKiB(server.pid);
    }
    await server.stop();
    warm.push(server.readyMs);
  }

  console.log(`Omnibot start-up (node ${process.version}, embedded PGlite, fresh DATA_DIR)`);
  console.log(`  cold start to /readyz 200 (migrations + seeding): ${Math.round(cold.readyMs)} ms`);
  console.log(
    `  warm restart to /readyz 200: median ${Math.round(median(warm))} ms over ${warm.length} runs ` +
      `(${warm.map((ms) => Math.round(ms)).join(', ')})`,
  );
  console.log(`  graceful stop after SIGTERM: ${Math.round(coldStopMs)} ms`);
  const rss = (value) => (value === null ? 'n/a (no /proc)' : `${(value / 1024).toFixed(1)} MiB`);
  console.log(`  server RSS at idle, ${IDLE_SETTLE_MS / 1000} s after first start: ${rss(coldRss)}`);
  console.log(`  server RSS at idle, ${IDLE_SETTLE_MS / 1000} s after a restart: ${rss(warmRss)}`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}

const initial = consoleInitialJs();
if (!initial) {
  console.log('  console: apps/console/dist/index.html not found (console not built)');
} else {
  const sum = (files, key) => files.reduce((total, file) => total + file[key], 0);
  console.log(
    `  console initial JS (entry + modulepreload, ${initial.js.length} files): ` +
      `${kib(sum(initial.js, 'gzip'))} gzip (${kib(sum(initial.js, 'raw'))} raw)`,
  );
  for (const file of initial.js) console.log(`    ${file.url}: ${kib(file.gzip)} gzip`);
  if (firstScreen) {
    console.log(
      `  console JS fetched for the first screen (/, lazy route chunks included, ${firstScreen.length} files): ` +
        `${kib(sum(firstScreen, 'gzip'))} gzip (${kib(sum(firstScreen, 'raw'))} raw)`,
    );
  }
  console.log(
    `  console initial CSS: ${kib(sum(initial.css, 'gzip'))} gzip (${kib(sum(initial.css, 'raw'))} raw)`,
  );
}
