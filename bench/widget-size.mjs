// Gzip sizes of the embeddable widget against its budgets: the loader (dist/widget.js) and the chat app's
// initial JavaScript and CSS (what dist/app/index.html loads, React included). Prints figures; never part of
// `npm test`. Exits with 1 when a budget is exceeded.
//   node bench/widget-size.mjs [--no-build]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from '../scripts/lib/build.mjs';

const WIDGET_DIST = path.join(ROOT, 'apps/widget/dist');
const LOADER_BUDGET = 3 * 1024;
const APP_BUDGET = 90 * 1024;

const kib = (bytes) => `${(bytes / 1024).toFixed(2)} KiB`;
const gzipSize = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npm', ['run', 'build', '-w', '@omnibot/widget'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/** The files index.html loads before the app runs: module scripts, preloaded modules and stylesheets. */
function initialAssets(appDir) {
  const html = readFileSync(path.join(appDir, 'index.html'), 'utf8');
  const files = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+\.(?:js|css))"/g)].map(
    // The app is built for /widget/ (where the server serves it); its files sit directly in dist/app.
    (match) => path.join(appDir, match[1].replace(/^\/widget\//, '')),
  );
  return {
    js: files.filter((file) => file.endsWith('.js')),
    css: files.filter((file) => file.endsWith('.css')),
  };
}

const LOADER_FILE = path.join(WIDGET_DIST, 'widget.js');
const loader = gzipSize(LOADER_FILE);
// The server writes a bot's boot data over this placeholder: exactly one copy, in a quoted string.
const BOOT_TOKEN = '__OMNIBOT_BOOT__';
const loaderText = readFileSync(LOADER_FILE, 'utf8');
const bootPlaceholderOk =
  loaderText.split(BOOT_TOKEN).length === 2 && /(['"])__OMNIBOT_BOOT__\1/.test(loaderText);
const { js, css } = initialAssets(path.join(WIDGET_DIST, 'app'));
const appJs = js.reduce((sum, file) => sum + gzipSize(file), 0);
const appCss = css.reduce((sum, file) => sum + gzipSize(file), 0);

const rows = [
  ['loader (widget.js)', loader, LOADER_BUDGET],
  ['chat app initial JS', appJs, null],
  ['chat app initial CSS', appCss, null],
  ['chat app JS + CSS', appJs + appCss, APP_BUDGET],
];
console.log('\nwidget gzip sizes (level 9)');
for (const [name, size, budget] of rows) {
  const verdict = budget === null ? '' : `budget ${kib(budget)} ${size <= budget ? 'OK' : 'OVER'}`;
  console.log(`  ${name.padEnd(24)} ${kib(size).padStart(11)}  ${verdict}`.trimEnd());
}
console.log(`  boot placeholder ${bootPlaceholderOk ? 'once, quoted: OK' : 'MISSING, REPEATED OR UNQUOTED'}`);
if (loader > LOADER_BUDGET || appJs + appCss > APP_BUDGET || !bootPlaceholderOk) process.exitCode = 1;
