import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { PublicWidgetConfig } from '@omnibot/contracts';
import { JSDOM } from 'jsdom';
import { build } from 'vite';

export const BOOT_TOKEN = '__OMNIBOT_BOOT__';
const WIDGET_DIR = path.resolve(import.meta.dirname, '../..');

/** Builds the loader exactly as `npm run build` does (into a temporary folder) and returns the file's text. */
export async function buildLoader(): Promise<string> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'omnibot-loader-'));
  try {
    await build({
      root: WIDGET_DIR,
      configFile: path.join(WIDGET_DIR, 'vite.loader.config.ts'),
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true },
    });
    return readFileSync(path.join(outDir, 'widget.js'), 'utf8');
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

export const gzipBytes = (text: string) => gzipSync(text, { level: 9 }).length;

/** The boot JSON escaped as the server writes it: valid inside a single- or double-quoted JS string. */
function escapeBoot(json: string): string {
  return json.replace(
    /[\\'"<\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The origin of the host page `loadHostPage` loads. */
const HOST_PAGE_ORIGIN = 'http://host.example';

export interface LoaderServer {
  origin: string;
  requests: string[];
  close: () => Promise<void>;
}

/**
 * Serves the loader like the widget server does: `/widget.js?bot=<id>` with the boot placeholder replaced by the
 * bot's escaped boot JSON, `/widget.js` unchanged, and `/v1/widget/<id>/config` for the given bots.
 */
export async function startLoaderServer(
  loader: string,
  bots: Record<string, PublicWidgetConfig>,
  allowedOrigins: string[] = [HOST_PAGE_ORIGIN],
): Promise<LoaderServer> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://local');
    requests.push(`${request.method ?? ''} ${url.pathname}`);
    response.setHeader('access-control-allow-origin', '*');
    const bot = url.searchParams.get('bot');
    if (url.pathname === '/widget.js') {
      const config = bot === null ? undefined : bots[bot];
      response.setHeader('content-type', 'text/javascript');
      response.end(
        config === undefined
          ? loader
          : loader.replace(BOOT_TOKEN, escapeBoot(JSON.stringify({ botId: bot, config, allowedOrigins }))),
      );
      return;
    }
    const match = /^\/v1\/widget\/([^/]+)\/config$/.exec(url.pathname);
    const config = match?.[1] === undefined ? undefined : bots[match[1]];
    if (config !== undefined) {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(config));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface HostPage {
  /** The launcher's accessible name. */
  label: string | null;
  info: string | null;
  /** The XSS canary of the host page. */
  xss: unknown;
}

/**
 * Loads a host page on another origin that embeds the loader with `<script src=... data-bot=... async>`, runs it
 * and reports the launcher it drew.
 */
export async function loadHostPage(src: string, botId: string): Promise<HostPage> {
  const dom = new JSDOM(
    `<!doctype html><body><script src="${src}" data-bot="${botId}" async></script></body>`,
    {
      url: `${HOST_PAGE_ORIGIN}/`,
      runScripts: 'dangerously',
      resources: 'usable',
      beforeParse(window) {
        window.fetch = fetch;
      },
    },
  );
  try {
    for (let attempt = 0; attempt < 300; attempt += 1) {
      const root = dom.window.document.querySelector('[data-omnibot]')?.shadowRoot;
      const button = root?.querySelector('.b');
      if (button) {
        return {
          label: button.getAttribute('aria-label'),
          info: root?.querySelector('.i')?.textContent ?? null,
          xss: (dom.window as unknown as { __xss?: unknown }).__xss,
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('The loader drew no launcher.');
  } finally {
    dom.window.close();
  }
}
