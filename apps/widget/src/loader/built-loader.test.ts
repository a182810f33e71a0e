// @vitest-environment node
import { WidgetConfigSchema, publicWidgetConfig } from '@omnibot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BOOT_TOKEN,
  buildLoader,
  gzipBytes,
  loadHostPage,
  startLoaderServer,
  type LoaderServer,
} from '../test/built-loader';
import { readBoot } from './boot';

const BOT_ID = '4b1e3c9a-7d2f-4e8b-9a1c-2f3e4d5c6b7a';
// Quotes, a closing script tag, a template-literal substitution, a backslash and a line separator: none may break
// out of the string the boot data is written into.
const CLOSE_TEXT = 'Ask "us" it\'s </script> `${window.__xss=1}` \\ here\u2028now';
const booted = publicWidgetConfig(
  WidgetConfigSchema.parse({ launcher: { closeText: CLOSE_TEXT, infoText: 'From the boot data' } }),
);

let loader: string;
let server: LoaderServer;

beforeAll(async () => {
  loader = await buildLoader();
  server = await startLoaderServer(loader, { [BOT_ID]: booted });
}, 60_000);

afterAll(() => server.close());

describe('the built loader (dist/widget.js)', () => {
  it('contains the boot placeholder exactly once, inside a quoted string', () => {
    expect(loader.split(BOOT_TOKEN)).toHaveLength(2);
    expect(loader).toMatch(/(['"])__OMNIBOT_BOOT__\1/);
  });

  it('stays within its 3 KB gzip budget', () => {
    expect(gzipBytes(loader)).toBeLessThanOrEqual(3 * 1024);
  });

  it('draws the launcher from the embedded boot data without fetching the configuration', async () => {
    server.requests.length = 0;
    const page = await loadHostPage(`${server.origin}/widget.js?bot=${BOT_ID}`, BOT_ID);
    expect(page.label).toBe(CLOSE_TEXT);
    expect(page.info).toBe('From the boot data');
    expect(page.xss).toBeUndefined();
    expect(server.requests).toEqual(['GET /widget.js']);
  });

  it('served unchanged, fetches the configuration of data-bot before drawing', async () => {
    server.requests.length = 0;
    const page = await loadHostPage(`${server.origin}/widget.js`, BOT_ID);
    expect(page.label).toBe(CLOSE_TEXT);
    expect(server.requests).toEqual(['GET /widget.js', `GET /v1/widget/${BOT_ID}/config`]);
  });
});

describe('readBoot', () => {
  it('is null for the placeholder itself and for text that is not boot data', () => {
    expect(readBoot(BOOT_TOKEN)).toBeNull();
    expect(readBoot('{not json')).toBeNull();
    expect(readBoot('{"botId": 5, "config": {}}')).toBeNull();
    expect(readBoot('{"botId": "x"}')).toBeNull();
    // Without the allowed origins the loader could not tell whether this page may show the chat.
    expect(readBoot(JSON.stringify({ botId: BOT_ID, config: booted }))).toBeNull();
  });

  it('reads the bot and configuration the server embedded', () => {
    expect(readBoot(JSON.stringify({ botId: BOT_ID, config: booted, allowedOrigins: [] }))).toEqual({
      botId: BOT_ID,
      config: booted,
      allowedOrigins: [],
    });
  });
});
