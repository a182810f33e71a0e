import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { signInWithApi } from './support/identity';
import { expect, test } from './support/server';
import { defined } from '../apps/console/src/test/defined';

const MASTER = { email: 'admin@example.com', password: 'Files-Spec-Master-Passw0rd' };
test.use({ serverEnv: { ADMIN_PASSWORD: MASTER.password } });

const MIB = 1024 * 1024;
const BIG_SIZE = 20 * MIB;
const BIG_NAME = 'quarterly-report.bin';

/** A valid PNG of one colour, `size` pixels square. */
function tinyPng(size: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = defined(crcTable[(c ^ byte) & 0xff]) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const check = Buffer.alloc(4);
    check.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, check]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: size }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Chromium's network emulation: uploads at `bytesPerSecond` (-1 lifts the limit). */
async function throttleUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return cdp;
}

/** A new folder of its own for a test, so a rerun against the same server starts from an empty folder. */
async function freshFolder(page: Page, baseURL: string) {
  const folder = `e2e-${randomBytes(4).toString('hex')}`;
  const response = await page.request.post('/v1/files/folders', {
    data: { path: folder },
    headers: { origin: baseURL },
  });
  expect(response.status(), await response.text()).toBe(201);
  return folder;
}

/** The stored bytes of a file, through a freshly signed link. */
async function storedBytes(page: Page, filePath: string) {
  const object = await page.request.get(
    `/v1/files/object?${new URLSearchParams({ path: filePath }).toString()}`,
  );
  expect(object.status()).toBe(200);
  return (await download(page, ((await object.json()) as { url: string }).url)).body;
}

/** The bytes behind a signed download URL, fetched with the page's cookies. */
async function download(page: Page, url: string) {
  const response = await page.request.get(url);
  expect(response.status()).toBe(200);
  return { body: await response.body(), contentType: response.headers()['content-type'] };
}

test.describe('files', () => {
  let dir: string;
  let bigFile: string;
  let logoFile: string;
  let iconFile: string;

  test.beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'omnibot-files-e2e-'));
    bigFile = path.join(dir, BIG_NAME);
    await writeFile(bigFile, randomBytes(BIG_SIZE));
    logoFile = path.join(dir, 'bot-logo.png');
    await writeFile(logoFile, tinyPng(24, [200, 30, 60]));
    iconFile = path.join(dir, 'launcher-icon.png');
    await writeFile(iconFile, tinyPng(16, [30, 120, 200]));
  });

  test.afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test.beforeEach(async ({ page, baseURL }) =>
    signInWithApi(page, defined(baseURL), MASTER.email, MASTER.password),
  );

  test('a 20 MB upload interrupted by a reload resumes where it stopped and lists under Documents', async ({
    page,
    baseURL,
  }) => {
    const folder = await freshFolder(page, defined(baseURL));
    await page.goto(`/file?path=${folder}`);
    await expect(page.getByRole('heading', { name: 'File Manager' })).toBeVisible();
    await expect(page.getByText('This folder is empty')).toBeVisible();

    // 2 MB/s: about ten seconds for the whole file, so "halfway" can be seen.
    const cdp = await throttleUploads(page, 2 * MIB);
    await page.getByLabel('Choose files to upload').setInputFiles(bigFile);
    const progress = page.getByRole('progressbar', { name: `Upload progress of ${BIG_NAME}` });
    await expect
      .poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(30);
    expect(Number(await progress.getAttribute('aria-valuenow'))).toBeLessThan(100);

    await page.reload();
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });

    // After the reload the page knows the unfinished upload, how far it got, and how to continue.
    const unfinished = page.getByRole('group', { name: `Unfinished upload of ${BIG_NAME}` });
    await expect(unfinished).toContainText(/MB of 20 MB uploaded \(\d+%\)/);
    await expect(unfinished.getByRole('button', { name: 'Resume' })).toBeVisible();
    await expect(page.getByText('Drop the same file again')).toBeVisible();

    const uploadCalls: { method: string; offset: number | null }[] = [];
    page.on('request', (request) => {
      if (!request.url().includes('/v1/files/upload')) return;
      const offset = request.headers()['upload-offset'];
      uploadCalls.push({ method: request.method(), offset: offset === undefined ? null : Number(offset) });
    });

    // Dropping the same file again continues the same upload.
    await page.getByLabel('Choose files to upload').setInputFiles(bigFile);
    const upload = page.getByRole('group', { name: `Upload of ${BIG_NAME}` });
    await expect(upload).toHaveAttribute('data-upload-status', 'done', { timeout: 60_000 });
    await expect(unfinished).toBeHidden();

    // No new upload was created; the first PATCH started where the interrupted one stopped.
    expect(uploadCalls.filter((call) => call.method === 'POST')).toEqual([]);
    expect(uploadCalls.some((call) => call.method === 'HEAD')).toBe(true);
    const firstPatch = uploadCalls.find((call) => call.method === 'PATCH');
    expect(firstPatch?.offset).toBeGreaterThan(0.2 * BIG_SIZE);

    await page.getByRole('tab', { name: /Documents/ }).click();
    const row = page.getByRole('row', { name: new RegExp(BIG_NAME.replace('.', '\\.')) });
    await expect(row.getByTitle('20,971,520 bytes')).toHaveText('20 MB');

    // The stored bytes are the file's bytes.
    const body = await storedBytes(page, `${folder}/${BIG_NAME}`);
    expect(body.length).toBe(BIG_SIZE);
    expect(sha256(body)).toBe(sha256(await readFile(bigFile)));
  });

  test('an upload paused, then cut off the network, carries on from where it was', async ({
    page,
    baseURL,
  }) => {
    const name = 'handbook.bin';
    const file = path.join(dir, name);
    const bytes = randomBytes(6 * MIB);
    await writeFile(file, bytes);
    const folder = await freshFolder(page, defined(baseURL));
    await page.goto(`/file?path=${folder}`);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/files/upload') && request.method() === 'POST')
        posts.push(request.url());
    });

    const cdp = await throttleUploads(page, MIB);
    await page.getByLabel('Choose files to upload').setInputFiles(file);
    const upload = page.getByRole('group', { name: `Upload of ${name}` });
    const progress = upload.getByRole('progressbar');
    const percent = async () => Number(await progress.getAttribute('aria-valuenow'));
    await expect.poll(percent).toBeGreaterThanOrEqual(15);

    await upload.getByRole('button', { name: `Pause: ${name}` }).click();
    await expect(upload).toHaveAttribute('data-upload-status', 'paused');
    await expect(upload).toContainText(/Paused at \d+%/);
    const pausedAt = await percent();
    await upload.getByRole('button', { name: `Resume: ${name}` }).click();
    await expect(upload).toHaveAttribute('data-upload-status', 'uploading');
    await expect.poll(percent).toBeGreaterThan(pausedAt);

    // The network goes away: tus retries by itself and the row says so, then it finishes once it is back.
    await cdp.send('Network.emulateNetworkConditions', {
      offline: true,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await expect(upload).toContainText(/Connection problem: trying again/);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await expect(upload).toHaveAttribute('data-upload-status', 'done', { timeout: 30_000 });
    expect(posts).toHaveLength(1);

    expect(sha256(await storedBytes(page, `${folder}/${name}`))).toBe(sha256(bytes));
  });

  test('an image uploaded in the gallery is picked in its image picker', async ({ page, baseURL }) => {
    const folder = await freshFolder(page, defined(baseURL));
    await page.goto(`/bot/gallery?folder=${folder}`);
    await expect(page.getByRole('heading', { name: 'Images', exact: true })).toBeVisible();

    await page.getByLabel('Choose images to upload').setInputFiles(logoFile);
    await expect(page.getByRole('group', { name: 'Upload of bot-logo.png' })).toHaveAttribute(
      'data-upload-status',
      'done',
    );
    await expect(page.getByRole('listitem', { name: `${folder}/bot-logo.png` })).toBeVisible();

    // The picker lists it; picking it gives its link.
    await page.getByRole('button', { name: 'Copy an image link' }).click();
    let picker = page.getByRole('dialog', { name: 'Choose the image to link to' });
    const choice = picker.getByRole('radio', { name: `${folder}/bot-logo.png` });
    await choice.click();
    await expect(choice).toHaveAttribute('aria-checked', 'true');
    await picker.getByRole('button', { name: 'Get its link' }).click();
    await expect(picker).toBeHidden();

    let share = page.getByRole('dialog', { name: 'Link to bot-logo.png' });
    await expect(share.getByText(/It expires in/)).toBeVisible();
    let picked = await download(page, await share.getByLabel('Download link').inputValue());
    expect(picked.contentType).toBe('image/png');
    expect(picked.body.equals(await readFile(logoFile))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(share).toBeHidden();

    // An image uploaded inside the picker is selected as soon as it is stored.
    await page.getByRole('button', { name: 'Copy an image link' }).click();
    picker = page.getByRole('dialog', { name: 'Choose the image to link to' });
    await picker.getByLabel('Choose images to upload').setInputFiles(iconFile);
    await expect(picker.getByRole('radio', { name: 'launcher-icon.png' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await picker.getByRole('button', { name: 'Get its link' }).click();
    share = page.getByRole('dialog', { name: 'Link to launcher-icon.png' });
    picked = await download(page, await share.getByLabel('Download link').inputValue());
    expect(picked.body.equals(await readFile(iconFile))).toBe(true);
  });
});
