import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { publicWidgetConfig, type WidgetConfig } from '@omnibot/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Db } from '../../db/client';
import type { BotRow } from '../../db/schema';
import {
  acceptedEncoding,
  encodedEtag,
  registerBuiltFiles,
  sendEncoded,
  varyOnEncoding,
} from '../../plugins/compression';
import { servableBot } from '../bots/bots.service';
import { widgetServices } from '../speech/speech.service';
import { configCacheControl, matchesEtag } from './widget-config.routes';
import { handoverHours } from './handover-hours';

/** The placeholder in the built loader that the per-bot boot JSON replaces (inside a JS string literal). */
export const BOOT_TOKEN = '__OMNIBOT_BOOT__';

/** The chat app's policy: same-origin scripts and API calls only; images and sounds may come from https. */
const APP_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self' https: data:",
  "media-src 'self' https: blob:",
  "style-src 'self' 'unsafe-inline'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The Content-Security-Policy of the chat app page: the strict policy, framed by us and the allowed origins. */
export function widgetPagePolicy(allowedOrigins: readonly string[]): string {
  return `${APP_POLICY}; frame-ancestors ${["'self'", ...allowedOrigins].join(' ')}`;
}

/**
 * The JSON text of `value` as the content of a JavaScript string literal valid inside either quote kind and inside
 * an HTML script element: backslashes and both quotes escaped, `<` and the line separators U+2028/U+2029 as
 * \u escapes (JSON.stringify already escapes control characters).
 */
export function jsStringContent(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll('\\', '\\\\')
    .replaceAll("'", "\\'")
    .replaceAll('"', '\\"')
    .replaceAll('<', '\\u003c')
    .replaceAll('\u2028', '\\u2028')
    .replaceAll('\u2029', '\\u2029');
}

const escapeHtml = (value: string) =>
  value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A query value given once as a string; anything else (absent, repeated) is undefined. */
const single = (query: unknown, name: string): string | undefined => {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
};

const HASHED_CACHE = 'public, max-age=31536000, immutable';

function demoPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; color: #1a1b1e; background: #f8f9fa; }
header { background: #1971c2; color: #fff; padding: 24px 16px; }
main { max-width: 720px; margin: 0 auto; padding: 16px; line-height: 1.6; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** The host page of /demo: a small shop page with the bot's widget embedded as a customer would embed it. */
function demoHostPage(botId: string, botName: string): string {
  const id = escapeHtml(botId);
  return demoPage(
    `${botName} - demo`,
    `<header><h1>Northwind Outfitters</h1><p>Outdoor gear since 1998.</p></header>
<main>
<h2>Welcome to our shop</h2>
<p>We sell tents, backpacks and boots for every season. Orders over 50 euros ship free, and every item can be
returned within 30 days.</p>
<p>This page is a demonstration host page: the assistant <strong>${escapeHtml(botName)}</strong> runs in the
corner of the page, embedded with one script tag.</p>
</main>
<script src="/widget.js?bot=${encodeURIComponent(botId)}" data-bot="${id}" async></script>`,
  );
}

const demoNotFound = () =>
  demoPage(
    'Bot not found',
    `<main><h1>Bot not found</h1><p>This bot does not exist or is not available. Check the bot id in the
address, and that the bot is enabled.</p></main>`,
  );

/** The built widget's files, read once: the loader and the chat app's page. */
interface WidgetBuild {
  loader: string;
  loaderHash: string;
  appHtml: string;
  assetsDir: string;
}

function readBuild(widgetDir: string | null): WidgetBuild | null {
  if (widgetDir === null) return null;
  const loaderFile = path.join(widgetDir, 'widget.js');
  const appFile = path.join(widgetDir, 'app', 'index.html');
  if (!existsSync(loaderFile) || !existsSync(appFile)) return null;
  const loader = readFileSync(loaderFile, 'utf8');
  return {
    loader,
    loaderHash: createHash('sha256').update(loader).digest('hex').slice(0, 16),
    appHtml: readFileSync(appFile, 'utf8'),
    assetsDir: path.join(widgetDir, 'app', 'assets'),
  };
}

/**
 * Serves the built widget: `/widget.js` (the loader, with the bot's boot configuration substituted for `?bot`),
 * the chat app at `/widget/` with a policy that lets only the bot's allowed origins frame it, its hashed assets,
 * and `/demo?bot=<id>`, a host page embedding the bot.
 */
export async function registerWidgetFiles(app: FastifyInstance, deps: { db: Db; widgetDir: string | null }) {
  const { db } = deps;
  const build = readBuild(deps.widgetDir);
  if (!build) app.log.warn({ widgetDir: deps.widgetDir }, 'widget build not found: /widget.js is not served');
  const tokenCount = build ? build.loader.split(BOOT_TOKEN).length - 1 : 0;
  if (build && tokenCount !== 1) {
    app.log.warn(
      { tokenCount },
      'the widget loader has no single boot token: it is served without boot data',
    );
  }

  const notBuilt = (reply: FastifyReply) =>
    reply.status(404).send({ code: 'not_found', message: 'The widget is not built on this server.' });

  const botFor = async (query: unknown): Promise<BotRow | null> => {
    const botId = single(query, 'bot');
    return botId === undefined ? null : servableBot(db, botId);
  };

  /**
   * The loader with `{"botId", "config", "allowedOrigins"}` of a servable bot in place of the token: the loader checks
   * the page it runs on against the allowed origins (public already in the chat page's frame-ancestors) before it
   * draws anything. Compared in the page rather than by the Referer here: a page may send no Referer, and one
   * answer serves every site from shared caches.
   */
  const loaderFor = (loader: string, row: BotRow, inHours: boolean) => {
    const config: WidgetConfig = row.config;
    const boot = {
      botId: row.id,
      config: publicWidgetConfig(config, widgetServices(config), inHours),
      allowedOrigins: config.install.allowedOrigins,
    };
    return loader.replace(BOOT_TOKEN, () => jsStringContent(boot));
  };

  app.get('/widget.js', { schema: { hide: true } }, async (request, reply) => {
    if (!build) return notBuilt(reply);
    const row = tokenCount === 1 ? await botFor(request.query) : null;
    const encoding = acceptedEncoding(request);
    // The boot configuration offers a person only within the bot's business hours: their state is part of the
    // ETag, and no cache keeps the script past the next opening or closing.
    const now = new Date();
    const hours = row ? await handoverHours(db, { row, config: row.config }, now) : null;
    const offline = hours?.inHours === false ? '-offline' : '';
    const etag = encodedEtag(
      row ? `"w-${build.loaderHash}-${row.id}-${row.configVersion}${offline}"` : `"w-${build.loaderHash}"`,
      encoding,
    );
    varyOnEncoding(reply)
      .type('application/javascript; charset=utf-8')
      .header('etag', etag)
      .header('cache-control', configCacheControl(hours?.nextChange ?? null, now))
      // Host pages on other sites load this script.
      .header('cross-origin-resource-policy', 'cross-origin');
    // Anyone can name any page here, so nothing is recorded: sites are recorded when the widget's frame starts a
    // conversation (allowed sites) or when the loader reports a site it may not run on (limited per address).
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.status(304).send();
    return sendEncoded(
      reply,
      row ? loaderFor(build.loader, row, hours?.inHours ?? true) : build.loader,
      encoding,
    );
  });

  const appPage = async (query: unknown, reply: FastifyReply) => {
    if (!build) return notBuilt(reply);
    const row = await botFor(query);
    const allowed = row ? row.config.install.allowedOrigins : [];
    reply.removeHeader('x-frame-options');
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', widgetPagePolicy(allowed))
      .send(build.appHtml);
  };
  app.get('/widget/', { schema: { hide: true } }, (request, reply) => appPage(request.query, reply));
  app.get('/widget/index.html', { schema: { hide: true } }, (request, reply) =>
    appPage(request.query, reply),
  );
  app.get('/widget', { schema: { hide: true } }, (request, reply) => {
    const mark = request.url.indexOf('?');
    return reply.redirect(`/widget/${mark === -1 ? '' : request.url.slice(mark)}`, 301);
  });

  if (build && existsSync(build.assetsDir)) {
    await registerBuiltFiles(app, {
      root: build.assetsDir,
      prefix: '/widget/assets/',
      cacheControl: () => HASHED_CACHE,
    });
  }

  app.get('/demo', { schema: { hide: true } }, async (request, reply) => {
    const botId = single(request.query, 'bot');
    const row = botId !== undefined && UUID.test(botId) ? await servableBot(db, botId) : null;
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    if (!build) {
      return reply
        .status(404)
        .send(demoPage('Widget not built', '<main><h1>The widget is not built on this server.</h1></main>'));
    }
    if (!row) return reply.status(404).send(demoNotFound());
    return reply.send(demoHostPage(row.id, row.config.identity.name));
  });
}
