// Bytes on the wire of the embeddable widget as the built server sends it, against its budgets: the loader
// (/widget.js?bot=<id>, the bot's configuration inlined) and the open chat (the frame's page /widget/?bot=<id> and
// every script, module preload and stylesheet it references, React included). Each is fetched over loopback with
// Accept-Encoding "br", "gzip" and none, and its bytes counted as received, before any decoding: the body and, in
// a second column, with the status line and headers. Budgets apply to the gzip figures (what every browser
// accepts): the loader's code 3 KB (/widget.js without a bot: the bot's configuration inlined in the per-bot
// loader is the bot's data, printed beside it), the chat app's JavaScript and CSS 90 KB. Prints figures; never
// part of `npm test`.
// Exits with 1 when a budget is exceeded.
//   npm run bench:widget-size -- [--no-build]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from '../scripts/lib/build.mjs';
import { signIn, startBuiltServer } from './lib/server.mjs';

const LOADER_BUDGET = 3 * 1024;
const APP_BUDGET = 90 * 1024;
const ADMIN = { email: 'bench@example.com', password: 'Bench-Widget-Size-Passw0rd-2026' };
const ENCODINGS = ['br', 'gzip', 'identity'];

const kib = (bytes) => `${(bytes / 1024).toFixed(2)} KiB`;

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// The server writes a bot's boot data over this placeholder: exactly one copy, in a quoted string.
const BOOT_TOKEN = '__OMNIBOT_BOOT__';
const loaderText = readFileSync(path.join(ROOT, 'apps/widget/dist/widget.js'), 'utf8');
const bootPlaceholderOk =
  loaderText.split(BOOT_TOKEN).length === 2 && /(['"])__OMNIBOT_BOOT__\1/.test(loaderText);

/** GET `url` asking for `encoding`; the raw body as received and the size of the status line and headers. */
function fetchRaw(url, encoding) {
  return new Promise((resolve, reject) => {
    const headers = encoding === 'identity' ? {} : { 'accept-encoding': encoding };
    const req = request(url, { headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const { rawHeaders } = response;
        let headerBytes = `HTTP/1.1 ${response.statusCode} ${response.statusMessage}\r\n\r\n`.length;
        for (let i = 0; i < rawHeaders.length; i += 2) {
          headerBytes += Buffer.byteLength(`${rawHeaders[i]}: ${rawHeaders[i + 1]}\r\n`);
        }
        resolve({
          status: response.statusCode,
          encoding: response.headers['content-encoding'] ?? 'identity',
          body: Buffer.concat(chunks),
          headerBytes,
        });
      });
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The scripts, module preloads and stylesheets a page references, as absolute URLs. */
function referencedAssets(html, base) {
  const refs = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+\.(?:js|css))"/g)];
  return [...new Set(refs.map((match) => new URL(match[1], base).href))];
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'omnibot-bench-widget-size-'));
const server = await startBuiltServer({ dataDir, admin: ADMIN });
try {
  const cookie = await signIn(server.url, ADMIN);
  const created = await fetch(`${server.url}/v1/bots`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: server.url },
    body: JSON.stringify({ name: 'Size bench' }),
  });
  if (created.status !== 201)
    throw new Error(`creating the bot failed: ${created.status} ${await created.text()}`);
  const { id: botId } = await created.json();

  const loaderUrl = `${server.url}/widget.js?bot=${botId}`;
  const pageUrl = `${server.url}/widget/?bot=${botId}`;
  const page = await fetchRaw(pageUrl, 'identity');
  if (page.status !== 200) throw new Error(`the chat page answered ${page.status}`);
  const assets = referencedAssets(page.body.toString('utf8'), pageUrl);
  if (!assets.some((url) => url.endsWith('.js'))) throw new Error('the chat page references no script');

  /** Per encoding: body and total bytes of each URL, and which encoding the server chose. */
  const measure = async (urls) => {
    const figures = {};
    for (const encoding of ENCODINGS) {
      const rows = [];
      for (const url of urls) {
        const answer = await fetchRaw(url, encoding);
        if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
        rows.push({
          url,
          sent: answer.encoding,
          body: answer.body.length,
          total: answer.body.length + answer.headerBytes,
        });
      }
      figures[encoding] = rows;
    }
    return figures;
  };
  const loader = await measure([loaderUrl]);
  const loaderCode = await measure([`${server.url}/widget.js`]);
  const chat = await measure([pageUrl, ...assets]);

  const sum = (rows, key, filter = () => true) =>
    rows.filter(filter).reduce((total, row) => total + row[key], 0);
  const isAppCode = (row) => /\.(?:js|css)$/.test(new URL(row.url).pathname);
  console.log('\nwidget bytes on the wire, as served by the built server (body / with headers)');
  console.log(`  ${''.padEnd(30)}${ENCODINGS.map((encoding) => encoding.padStart(26)).join('')}`);
  const line = (name, figure) =>
    console.log(`  ${name.padEnd(30)}${ENCODINGS.map((encoding) => figure(encoding).padStart(26)).join('')}`);
  const pair = (rows, filter) => `${kib(sum(rows, 'body', filter))} / ${kib(sum(rows, 'total', filter))}`;
  line('loader code (widget.js)', (encoding) => pair(loaderCode[encoding]));
  line('loader of a bot (?bot=)', (encoding) => pair(loader[encoding]));
  for (const [index, url] of [pageUrl, ...assets].entries()) {
    const name = index === 0 ? 'chat page (/widget/)' : new URL(url).pathname.replace('/widget/assets/', '');
    line(`  ${name}`.slice(0, 30), (encoding) => pair([chat[encoding][index]]));
  }
  line('open chat, all of the above', (encoding) => pair(chat[encoding]));
  line('chat app JS + CSS', (encoding) => pair(chat[encoding], isAppCode));
  // Anything of a kilobyte or more sent as is to a client accepting br or gzip is a serving fault.
  const wrongEncoding = [
    ...loaderCode.br,
    ...loaderCode.gzip,
    ...loader.br,
    ...loader.gzip,
    ...chat.br,
    ...chat.gzip,
  ].filter((row) => row.sent === 'identity' && row.body >= 1024);
  for (const row of wrongEncoding) console.log(`  NOT COMPRESSED: ${row.url}`);

  const loaderGzip = sum(loaderCode.gzip, 'body');
  const appGzip = sum(chat.gzip, 'body', isAppCode);
  console.log(
    `\n  loader code, gzip         ${kib(loaderGzip).padStart(11)}  budget ${kib(LOADER_BUDGET)} ${loaderGzip <= LOADER_BUDGET ? 'OK' : 'OVER'}`,
  );
  console.log(
    `  chat app JS + CSS, gzip   ${kib(appGzip).padStart(11)}  budget ${kib(APP_BUDGET)} ${appGzip <= APP_BUDGET ? 'OK' : 'OVER'}`,
  );
  console.log(
    `  boot placeholder ${bootPlaceholderOk ? 'once, quoted: OK' : 'MISSING, REPEATED OR UNQUOTED'}`,
  );
  if (loaderGzip > LOADER_BUDGET || appGzip > APP_BUDGET || !bootPlaceholderOk || wrongEncoding.length > 0) {
    process.exitCode = 1;
  }
} finally {
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
}
