/*
 * Permanent links for the images and sounds a bot's widget shows, on the real app (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): minted by the bot's organisation for its own files, served without a session while the bot
 * is servable and the file exists, and refused when tampered with.
 */
import { BotImageSchema, BotSchema } from '@omnibot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, injectAs, type TestApp } from '../../test/app';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { injectUpload } from '../files/files.test-support';

// The smallest valid PNG: one transparent pixel.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let t: TestApp;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'images-a', b: 'images-b', noRag: 'images-norag' };
let botId = '';
let logo = '';

beforeAll(async () => {
  t = await createTestApp();
  Object.assign(who, await makeOmniragTenants(t, ids));
  const bot = await injectAs(t, 'POST', '/v1/bots', who.alice, { name: 'Pictured' });
  expect(bot.statusCode, bot.body).toBe(201);
  botId = BotSchema.parse(bot.json()).id;
  logo = await injectUpload(t, who.alice.cookie ?? '', 'logo.png', PNG, 'brand');
  await injectUpload(t, who.alice.cookie ?? '', 'notes.txt', Buffer.from('private notes'), 'brand');
});

afterAll(() => t.close());

const mint = (caller: Caller, path: string, bot = botId) =>
  injectAs(t, 'POST', `/v1/bots/${bot}/images`, caller, { path });

describe('bot images', () => {
  it('gives a permanent link that serves the image to anyone, cacheable and loadable by other sites', async () => {
    const minted = await mint(who.alice, logo);
    expect(minted.statusCode, minted.body).toBe(200);
    const { url } = BotImageSchema.parse(minted.json());
    expect(url).not.toMatch(/expires/);
    const served = await t.app.inject({ url: url.slice(url.indexOf('/v1/')) });
    expect(served.statusCode, served.body).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(served.rawPayload.equals(PNG)).toBe(true);
    const again = await t.app.inject({
      url: url.slice(url.indexOf('/v1/')),
      headers: { 'if-none-match': String(served.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('refuses a tampered link, another path or another bot with the same signature', async () => {
    const { url } = BotImageSchema.parse((await mint(who.alice, logo)).json());
    const link = new URL(url);
    const tampered = new URL(link);
    tampered.searchParams.set('signature', `${link.searchParams.get('signature') ?? ''}x`);
    const otherPath = new URL(link);
    otherPath.searchParams.set('path', 'brand/notes.txt');
    const otherBot = new URL(link.href.replace(botId, '00000000-0000-4000-8000-000000000000'));
    for (const refused of [tampered, otherPath, otherBot]) {
      const response = await t.app.inject({ url: `${refused.pathname}${refused.search}` });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'storage/unauthorized' });
    }
  });

  it('mints only for the caller’s own bot and an image or sound of its own storage', async () => {
    expect((await mint(who.bob, logo)).statusCode).toBe(404);
    expect((await mint(who.alice, 'brand/missing.png')).statusCode).toBe(404);
    const text = await mint(who.alice, 'brand/notes.txt');
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ code: 'bot/not-an-image' });
    expect((await mint(who.alice, '')).statusCode).toBe(400);
    expect((await injectAs(t, 'POST', `/v1/bots/${botId}/images`, {}, { path: logo })).statusCode).toBe(401);
  });

  it('stops serving when the bot is disabled or the file is deleted', async () => {
    const { url } = BotImageSchema.parse((await mint(who.alice, logo)).json());
    const path = url.slice(url.indexOf('/v1/'));
    expect((await injectAs(t, 'PATCH', `/v1/bots/${botId}`, who.alice, { enabled: false })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ url: path })).statusCode).toBe(404);
    expect((await injectAs(t, 'PATCH', `/v1/bots/${botId}`, who.alice, { enabled: true })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ url: path })).statusCode).toBe(200);
    const deleted = await injectAs(t, 'DELETE', `/v1/files?path=${encodeURIComponent(logo)}`, who.alice);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await t.app.inject({ url: path })).statusCode).toBe(404);
  });
});
