/**
 * Serving the built widget. The real build may not exist where tests run, so each test app gets a small dist folder
 * of its own: a loader holding the boot token the way the real loader reads it, a chat app page and one hashed
 * asset. What is tested is the server's serving, not the widget.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { BotSchema, publicWidgetConfig, WidgetConfigSchema } from '@omnibot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, injectAs, type TestApp } from '../../test/app';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { BOOT_TOKEN, jsStringContent, widgetPagePolicy } from './widget-files';

const LOADER = `(function(){var embedded = '${BOOT_TOKEN}';
var boot = embedded.charAt(0) === '{' ? JSON.parse(embedded) : null;
globalThis.result = { boot: boot, embedded: embedded };})();
`;
const APP_HTML =
  '<!doctype html><html><head><script type="module" src="/widget/assets/app-3f9a1c.js"></script></head><body><div id="root"></div></body></html>';
const ASSET = 'console.log("chat app");';
const SITE = 'https://shop.example.com';
const SECRET = 'PLAINTEXT-WIDGET-SECRET-91ac';
/** Texts that would break out of a script element, a string literal or a line if served unescaped. */
const HOSTILE = `</script><script>alert(1)</script> it's "quoted" \\ back\\slash \u2028line\u2029para <!-- x`;

let t: TestApp;
let dir = '';
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'widget-a', b: 'widget-b', noRag: 'widget-norag' };

/** Runs a served loader the way a browser would and returns what it read from its boot token. */
function runLoader(source: string): { boot: unknown; embedded: string } {
  const context: { result?: { boot: unknown; embedded: string } } = {};
  vm.runInNewContext(source, context);
  if (!context.result) throw new Error('the loader did not run');
  return context.result;
}

async function makeBot(name: string, config: Record<string, unknown>) {
  const response = await injectAs(t, 'POST', '/v1/bots', who.alice, { name, config });
  expect(response.statusCode, response.body).toBe(201);
  return BotSchema.parse(response.json());
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'omnibot-widget-'));
  mkdirSync(path.join(dir, 'app', 'assets'), { recursive: true });
  writeFileSync(path.join(dir, 'widget.js'), LOADER);
  writeFileSync(path.join(dir, 'app', 'index.html'), APP_HTML);
  writeFileSync(path.join(dir, 'app', 'assets', 'app-3f9a1c.js'), ASSET);
  t = await createTestApp({ widgetDir: dir });
  Object.assign(who, await makeOmniragTenants(t, ids));
});

afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('jsStringContent', () => {
  it('gives back the JSON text in a single- or double-quoted literal, with no way out of a script element', () => {
    const value = { text: HOSTILE, nested: ['\\"', "\\'", '\n\t', '\u0000'] };
    const content = jsStringContent(value);
    for (const quote of ["'", '"']) {
      const read = vm.runInNewContext(`${quote}${content}${quote}`) as string;
      expect(read).toBe(JSON.stringify(value));
      expect(JSON.parse(read)).toEqual(value);
    }
    expect(content).not.toMatch(/<|\u2028|\u2029/u);
    expect(content).not.toMatch(/(^|[^\\])(\\\\)*['"]/u);
  });
});

describe('GET /widget.js', () => {
  it('serves the loader unchanged without a bot, as cacheable JavaScript other sites may load, with 304', async () => {
    const response = await t.app.inject({ url: '/widget.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(LOADER);
    expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=60, must-revalidate');
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const etag = String(response.headers.etag);
    expect(etag).toMatch(/^"w-[0-9a-f]{16}"$/);
    expect(runLoader(response.body).boot).toBeNull();
    const again = await t.app.inject({ url: '/widget.js', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it("substitutes the bot's public configuration, escaped, and revalidates per configuration version", async () => {
    const bot = await makeBot('Hostile', {
      identity: { name: 'Shop bot', displayName: HOSTILE, description: HOSTILE.slice(0, 60) },
      welcome: { welcomeText: HOSTILE },
      openai: { apiKey: SECRET },
      libretranslate: { url: 'https://lt.example.com', apiKey: SECRET },
      engines: { translateEngine: 'libretranslate' },
      install: { allowedOrigins: [SITE] },
    });
    const response = await t.app.inject({ url: `/widget.js?bot=${bot.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toMatch(/<\/script|<!--|\u2028|\u2029/iu);
    expect(response.body).not.toContain(SECRET);
    const { boot } = runLoader(response.body);
    // The allowed origins are public already (the chat page's frame-ancestors): the loader checks its page with them.
    const expectedConfig = publicWidgetConfig(WidgetConfigSchema.parse(bot.config), {
      translate: true,
      tts: false,
    });
    expect(boot).toEqual({ botId: bot.id, config: expectedConfig, allowedOrigins: [SITE] });
    expect((boot as { config: { welcome: { welcomeText: string } } }).config.welcome.welcomeText).toBe(
      HOSTILE,
    );

    const etag = String(response.headers.etag);
    expect(etag).toMatch(new RegExp(`^"w-[0-9a-f]{16}-${bot.id}-1"$`));
    const unchanged = await t.app.inject({
      url: `/widget.js?bot=${bot.id}`,
      headers: { 'if-none-match': etag },
    });
    expect(unchanged.statusCode).toBe(304);
    const patched = await injectAs(t, 'PATCH', `/v1/bots/${bot.id}`, who.alice, {
      config: { identity: { displayName: 'Calm' } },
    });
    expect(patched.statusCode).toBe(200);
    const changed = await t.app.inject({
      url: `/widget.js?bot=${bot.id}`,
      headers: { 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(
      (runLoader(changed.body).boot as { config: { identity: { displayName: string } } }).config.identity,
    ).toMatchObject({ displayName: 'Calm' });
  });

  it('records no site from the loader request (anyone can name any page) and boots with the allowed origins', async () => {
    const bot = await makeBot('Seen', { install: { allowedOrigins: [SITE] } });
    const page = { referer: `${SITE}/products/kettle?ref=ad`, origin: 'https://made-up.example' };
    const response = await t.app.inject({ url: `/widget.js?bot=${bot.id}`, headers: page });
    expect(runLoader(response.body).boot).toMatchObject({ botId: bot.id, allowedOrigins: [SITE] });
    const origins = await injectAs(t, 'GET', `/v1/bots/${bot.id}/origins`, who.alice);
    expect(origins.statusCode, origins.body).toBe(200);
    expect(origins.json<{ items: unknown[] }>().items).toEqual([]);
  });

  it('serves the loader unchanged for an unknown, malformed or disabled bot', async () => {
    const off = await makeBot('Off', {});
    await injectAs(t, 'PATCH', `/v1/bots/${off.id}`, who.alice, { enabled: false });
    for (const bot of [off.id, '00000000-0000-4000-8000-000000000000', 'nope', "'</script>"]) {
      const response = await t.app.inject({ url: `/widget.js?bot=${encodeURIComponent(bot)}` });
      expect(response.statusCode, bot).toBe(200);
      expect(response.body).toBe(LOADER);
    }
  });
});

describe('GET /widget/', () => {
  it('serves the chat app with a strict policy that lets only the bot allowed origins frame it', async () => {
    const bot = await makeBot('Framed', { install: { allowedOrigins: [SITE, 'http://localhost:8080'] } });
    for (const url of [
      `/widget/?bot=${bot.id}&host=${encodeURIComponent(SITE)}`,
      `/widget/index.html?bot=${bot.id}`,
    ]) {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toBe(APP_HTML);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['x-frame-options']).toBeUndefined();
      const policy = String(response.headers['content-security-policy']);
      expect(policy).toBe(widgetPagePolicy([SITE, 'http://localhost:8080']));
      for (const directive of [
        "default-src 'self'",
        "script-src 'self'",
        "connect-src 'self'",
        "img-src 'self' https: data:",
        "media-src 'self' https: blob:",
        "style-src 'self' 'unsafe-inline'",
        "base-uri 'none'",
        "form-action 'none'",
        `frame-ancestors 'self' ${SITE} http://localhost:8080`,
      ]) {
        expect(policy.split('; ')).toContain(directive);
      }
    }
  });

  it('lets only this server frame the page of an unknown or disabled bot, and of the preview', async () => {
    const off = await makeBot('Framed off', { install: { allowedOrigins: [SITE] } });
    await injectAs(t, 'PATCH', `/v1/bots/${off.id}`, who.alice, { enabled: false });
    for (const url of [`/widget/?bot=${off.id}`, '/widget/?bot=nope', '/widget/?preview=1', '/widget/']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(String(response.headers['content-security-policy'])).toMatch(/frame-ancestors 'self'$/);
    }
    const bare = await t.app.inject({ url: '/widget?bot=x&preview=1' });
    expect(bare.statusCode).toBe(301);
    expect(bare.headers.location).toBe('/widget/?bot=x&preview=1');
  });

  it('serves hashed assets with a long cache, and 404 for others', async () => {
    const asset = await t.app.inject({ url: '/widget/assets/app-3f9a1c.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe(ASSET);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.app.inject({ url: '/widget/assets/missing.js' })).statusCode).toBe(404);
    const escaped = await t.app.inject({ url: '/widget/assets/..%2f..%2fwidget.js' });
    expect(escaped.statusCode).toBeGreaterThanOrEqual(400);
    expect(escaped.body).not.toContain(BOOT_TOKEN);
  });
});

describe('GET /demo', () => {
  it('is a host page embedding the bot with one script tag, its name escaped', async () => {
    const bot = await makeBot('Demo', { identity: { name: '<img src=x onerror=alert(1)> & "Co"' } });
    const response = await t.app.inject({ url: `/demo?bot=${bot.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toContain(
      `<script src="/widget.js?bot=${bot.id}" data-bot="${bot.id}" async></script>`,
    );
    expect(response.body).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;');
    expect(response.body).not.toContain('<img');
    expect(response.body.match(/<script/g)).toHaveLength(1);
  });

  it('answers a 404 page for a missing, malformed, unknown or disabled bot', async () => {
    const off = await makeBot('Demo off', {});
    await injectAs(t, 'PATCH', `/v1/bots/${off.id}`, who.alice, { enabled: false });
    for (const url of [
      '/demo',
      '/demo?bot=%22%3E%3Cscript%3E',
      '/demo?bot=00000000-0000-4000-8000-000000000000',
      `/demo?bot=${off.id}`,
    ]) {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('Bot not found');
      expect(response.body).not.toContain('<script');
    }
  });
});

describe('without a widget build', () => {
  it('answers 404 for the widget files and keeps the API', async () => {
    const bare = await createTestApp();
    try {
      const loader = await bare.app.inject({ url: '/widget.js' });
      expect(loader.statusCode).toBe(404);
      expect(loader.json()).toMatchObject({ code: 'not_found' });
      expect((await bare.app.inject({ url: '/widget/' })).statusCode).toBe(404);
      expect((await bare.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
