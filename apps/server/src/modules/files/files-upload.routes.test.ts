import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { FILES_UPLOAD_PATH, UPLOAD_FILE_PATH_HEADER } from '@omnibot/contracts';
import { eq } from 'drizzle-orm';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fileUploads, files } from '../../db/schema';
import { TRAVERSAL_ATTEMPTS } from '../../storage/traversal-cases';
import { BACKENDS, createFilesWorld, encodeMetadata, type FilesWorld } from './files.test-support';
import { defined } from '../../test/defined';

const MiB = 1024 * 1024;
const FILE_MAX_BYTES = 10 * MiB;
const QUOTA = 20 * MiB;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The app on a real loopback socket: tus-js-client and fetch talk HTTP to it. */
async function listen(w: FilesWorld): Promise<string> {
  await w.t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = w.t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

describe.each(BACKENDS)('tus uploads on $name storage', (backend) => {
  let w: FilesWorld;
  let base: string;
  beforeAll(async () => {
    w = await createFilesWorld(backend, {
      FILE_MAX_BYTES: String(FILE_MAX_BYTES),
      TENANT_QUOTA_BYTES: String(QUOTA),
    });
    base = await listen(w);
  });
  afterAll(() => w.close());

  const tusHeaders = (cookie: string | null, extra: Record<string, string> = {}) => ({
    'tus-resumable': '1.0.0',
    ...(cookie ? { cookie } : {}),
    ...extra,
  });
  const create = (cookie: string | null, length: number, metadata: Record<string, string>) =>
    fetch(`${base}${FILES_UPLOAD_PATH}`, {
      method: 'POST',
      headers: tusHeaders(cookie, {
        'upload-length': String(length),
        'upload-metadata': encodeMetadata(metadata),
      }),
    });
  const patch = (cookie: string, url: string, offset: number, body: Buffer) =>
    fetch(url, {
      method: 'PATCH',
      headers: tusHeaders(cookie, {
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
      }),
      body,
    });
  const head = (cookie: string, url: string) => fetch(url, { method: 'HEAD', headers: tusHeaders(cookie) });
  const uploadUrl = (response: Response) =>
    new URL(defined(response.headers.get('location')), base).toString();
  const stagedIds = async () => (await w.t.database.db.select().from(fileUploads)).map((row) => row.id);
  const stagedFiles = async () =>
    backend.name === 'local' ? await fs.readdir(path.join(w.dataDir, 'uploads')).catch(() => []) : [];

  it('uploads in 1 MB chunks, survives a killed connection, resumes with HEAD + PATCH; sha256 matches', async () => {
    const source = randomBytes(6 * MiB + 12_345);
    // tus-js-client sends the first two 1 MB chunks, then stops.
    const url = await new Promise<string>((resolve, reject) => {
      const upload: tus.Upload = new tus.Upload(source, {
        endpoint: `${base}${FILES_UPLOAD_PATH}`,
        chunkSize: MiB,
        retryDelays: [],
        headers: { cookie: w.alice },
        metadata: { filename: 'big.bin', folder: 'resume' },
        onChunkComplete(_chunkSize, bytesAccepted) {
          if (bytesAccepted >= 2 * MiB) void upload.abort(false).then(() => resolve(defined(upload.url)));
        },
        onSuccess: () => reject(new Error('the upload should have been interrupted')),
        onError: reject,
      });
      upload.start();
    });
    expect(Number((await head(w.alice, url)).headers.get('upload-offset'))).toBe(2 * MiB);

    // The third chunk's connection dies after 300 KB of its 1 MB.
    await new Promise<void>((resolve) => {
      const request = http.request(url, {
        method: 'PATCH',
        headers: tusHeaders(w.alice, {
          'upload-offset': String(2 * MiB),
          'content-type': 'application/offset+octet-stream',
          'content-length': String(MiB),
        }),
      });
      request.on('error', () => resolve());
      request.on('response', () => resolve());
      // Once the bytes are flushed to the socket they reach the server even though the connection then dies.
      request.write(source.subarray(2 * MiB, 2 * MiB + 300 * 1024), () => request.destroy());
    });

    // HEAD tells where to resume: the bytes that arrived before the connection died are kept.
    let offset = -1;
    await vi.waitFor(
      async () => {
        const response = await head(w.alice, url);
        expect(response.status).toBe(200);
        expect(response.headers.get('upload-length')).toBe(String(source.length));
        offset = Number(response.headers.get('upload-offset'));
        expect(offset).toBeGreaterThan(2 * MiB);
      },
      { timeout: 10_000 },
    );
    expect(offset).toBeLessThanOrEqual(2 * MiB + 300 * 1024);

    let finish: Response | undefined;
    while (offset < source.length) {
      const chunk = source.subarray(offset, offset + MiB);
      finish = await patch(w.alice, url, offset, chunk);
      expect(finish.status).toBe(204);
      offset = Number(finish.headers.get('upload-offset'));
    }
    expect(decodeURIComponent(defined(defined(finish).headers.get(UPLOAD_FILE_PATH_HEADER)))).toBe(
      'resume/big.bin',
    );

    const [row] = await w.t.database.db.select().from(files).where(eq(files.path, 'resume/big.bin'));
    expect(row).toMatchObject({ tenantId: w.tenantA, size: source.length, sha256: sha256(source) });
    expect(defined(row).contentType).toBe('application/octet-stream');
    const listing = await fetch(`${base}/v1/files?path=resume`, { headers: { cookie: w.alice } });
    const item = (await listing.json()) as { items: Array<{ url: string }> };
    const downloadUrl =
      backend.name === 'local'
        ? new URL(new URL(defined(item.items[0]).url).search, `${base}/v1/files/download`)
        : defined(item.items[0]).url;
    const downloaded = Buffer.from(await (await fetch(downloadUrl)).arrayBuffer());
    expect(sha256(downloaded)).toBe(sha256(source));
    expect(await stagedIds()).not.toContain(url.split('/').at(-1));
    expect(await stagedFiles()).toEqual([]);
  });

  it('uploads a whole file with tus-js-client and sniffs its type from the bytes', async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      randomBytes(3 * MiB),
    ]);
    await new Promise<void>((resolve, reject) => {
      new tus.Upload(png, {
        endpoint: `${base}${FILES_UPLOAD_PATH}`,
        chunkSize: MiB,
        headers: { cookie: w.alice },
        // The client's claimed type and tenant are ignored: the type comes from the bytes, the tenant from the session.
        metadata: { filename: 'photo.png', filetype: 'text/html', tenant_id: w.tenantB, tenant: w.tenantB },
        onSuccess: () => resolve(),
        onError: reject,
      }).start();
    });
    const [row] = await w.t.database.db.select().from(files).where(eq(files.path, 'photo.png'));
    expect(row).toMatchObject({
      tenantId: w.tenantA,
      contentType: 'image/png',
      sha256: sha256(png),
      size: png.length,
    });
  });

  it('refuses a file over FILE_MAX_BYTES with 413 before storing a byte', async () => {
    const before = { staged: await stagedIds(), keys: await w.storedKeys(), files: await stagedFiles() };
    const tooLarge = await create(w.alice, FILE_MAX_BYTES + 1, { filename: 'huge.bin' });
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ code: 'storage/file-too-large' });

    // Creation with the body attached: refused all the same.
    const withBody = await fetch(`${base}${FILES_UPLOAD_PATH}`, {
      method: 'POST',
      headers: tusHeaders(w.alice, {
        'upload-length': String(FILE_MAX_BYTES + 1),
        'upload-metadata': encodeMetadata({ filename: 'huge2.bin' }),
        'content-type': 'application/offset+octet-stream',
      }),
      body: randomBytes(MiB),
    });
    expect(withBody.status).toBe(413);

    // More bytes than the declared length.
    const small = await create(w.alice, 1000, { filename: 'small.bin' });
    expect(small.status).toBe(201);
    const overflow = await patch(w.alice, uploadUrl(small), 0, randomBytes(2000));
    expect(overflow.status).toBe(413);
    await fetch(uploadUrl(small), { method: 'DELETE', headers: tusHeaders(w.alice) });

    expect(await stagedIds()).toEqual(before.staged);
    expect(await w.storedKeys()).toEqual(before.keys);
    expect(await stagedFiles()).toEqual(before.files);
  });

  it('counts unfinished uploads in the quota: 402 storage/quota-exceeded, freed by termination', async () => {
    const usage = async () =>
      (
        (await (await fetch(`${base}/v1/files/usage`, { headers: { cookie: w.bob } })).json()) as {
          used_bytes: number;
        }
      ).used_bytes;
    const first = await create(w.bob, 9 * MiB, { filename: 'one.bin' });
    const second = await create(w.bob, 9 * MiB, { filename: 'two.bin' });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(await usage()).toBe(18 * MiB);
    const third = await create(w.bob, 9 * MiB, { filename: 'three.bin' });
    expect(third.status).toBe(402);
    expect(await third.json()).toMatchObject({ code: 'storage/quota-exceeded' });

    const terminated = await fetch(uploadUrl(first), { method: 'DELETE', headers: tusHeaders(w.bob) });
    expect(terminated.status).toBe(204);
    expect(await usage()).toBe(9 * MiB);
    expect((await create(w.bob, 9 * MiB, { filename: 'three.bin' })).status).toBe(201);
    // Alice's tenant has its own quota.
    const alice = await create(w.alice, 9 * MiB, { filename: 'other-tenant.bin' });
    expect(alice.status).toBe(201);
    await fetch(uploadUrl(alice), { method: 'DELETE', headers: tusHeaders(w.alice) });
  });

  it('answers 404 to HEAD, PATCH and DELETE on an upload id of another tenant', async () => {
    const created = await create(w.alice, 4096, { filename: 'mine.bin' });
    const url = uploadUrl(created);
    expect((await patch(w.alice, url, 0, randomBytes(1024))).status).toBe(204);

    const bobHead = await head(w.bob, url);
    expect(bobHead.status).toBe(404);
    const bobPatch = await patch(w.bob, url, 1024, randomBytes(1024));
    expect(bobPatch.status).toBe(404);
    expect(await bobPatch.json()).toMatchObject({ code: 'storage/object-not-found' });
    expect((await fetch(url, { method: 'DELETE', headers: tusHeaders(w.bob) })).status).toBe(404);
    expect((await fetch(url, { method: 'GET', headers: tusHeaders(w.alice) })).status).toBe(404);

    const aliceHead = await head(w.alice, url);
    expect(aliceHead.status).toBe(200);
    expect(aliceHead.headers.get('upload-offset')).toBe('1024');
    expect((await fetch(url, { method: 'DELETE', headers: tusHeaders(w.alice) })).status).toBe(204);
    expect((await head(w.alice, url)).status).toBe(404);
  });

  it('needs a session (401 storage/unauthenticated) except for OPTIONS', async () => {
    const anonymous = await create(null, 10, { filename: 'a.txt' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'storage/unauthenticated' });
    const options = await fetch(`${base}${FILES_UPLOAD_PATH}`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('tus-max-size')).toBe(String(FILE_MAX_BYTES));
    const noVersion = await fetch(`${base}${FILES_UPLOAD_PATH}`, {
      method: 'POST',
      headers: { cookie: w.alice, 'upload-length': '10' },
    });
    expect(noVersion.status).toBe(412);
    expect(await noVersion.json()).toMatchObject({ code: 'storage/invalid-argument' });
  });

  it('rejects traversal in the file name or target folder with 400 and stores nothing', async () => {
    const before = { staged: await stagedIds(), keys: await w.storedKeys() };
    for (const [label, attempt] of TRAVERSAL_ATTEMPTS) {
      const byName = await create(w.alice, 5, { filename: attempt });
      expect(byName.status, `filename ${label}`).toBe(400);
      expect(await byName.json()).toMatchObject({ code: 'storage/invalid-argument' });
      const byFolder = await create(w.alice, 5, { filename: 'x.txt', folder: attempt });
      expect(byFolder.status, `folder ${label}`).toBe(400);
    }
    expect((await create(w.alice, 5, {})).status).toBe(400);
    expect((await create(w.alice, 5, { filename: 'a/b.txt' })).status).toBe(400);
    expect(await stagedIds()).toEqual(before.staged);
    expect(await w.storedKeys()).toEqual(before.keys);
    if (backend.name === 'local') {
      const outside = (await fs.readdir(w.root, { recursive: true })).filter(
        (entry) => !entry.startsWith('data'),
      );
      expect(outside).toEqual([]);
    }
  });

  it('sweeps unfinished uploads past their expiry: bytes, row and quota share', async () => {
    const created = await create(w.alice, 5000, { filename: 'abandoned.bin' });
    expect(created.headers.get('upload-expires')).toBeTruthy();
    const url = uploadUrl(created);
    const id = defined(url.split('/').at(-1));
    expect((await patch(w.alice, url, 0, randomBytes(1000))).status).toBe(204);
    if (backend.name === 'local') expect(await stagedFiles()).toContain(id);

    await w.t.database.db
      .update(fileUploads)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(fileUploads.id, id));
    expect(await w.t.app.files.sweepExpiredUploads()).toBe(1);
    expect(await stagedIds()).not.toContain(id);
    expect((await head(w.alice, url)).status).toBe(404);
    if (backend.name === 'local') {
      expect((await stagedFiles()).filter((name) => name.startsWith(id))).toEqual([]);
    }
  });
});

/** How long an unfinished upload lives in the expiry tests. */
const EXPIRY_MS = 2000;

describe.each(BACKENDS)('tus expiry on $name storage', (backend) => {
  let w: FilesWorld;
  let base: string;
  beforeAll(async () => {
    w = await createFilesWorld(backend, { UPLOAD_EXPIRY_HOURS: String(EXPIRY_MS / 3_600_000) });
    base = await listen(w);
  });
  afterAll(() => w.close());

  it('expires an unfinished upload (tus answers 410, then the sweep deletes it)', async () => {
    const headers = { 'tus-resumable': '1.0.0', cookie: w.alice };
    const created = await fetch(`${base}${FILES_UPLOAD_PATH}`, {
      method: 'POST',
      headers: {
        ...headers,
        'upload-length': '100',
        'upload-metadata': encodeMetadata({ filename: 'late.bin' }),
      },
    });
    expect(created.status).toBe(201);
    const url = new URL(defined(created.headers.get('location')), base).toString();
    // The real clock, not a faked one: an S3 store refuses requests signed at a time far from its own.
    await new Promise((resolve) => setTimeout(resolve, EXPIRY_MS + 500));
    const late = await fetch(url, {
      method: 'PATCH',
      headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: randomBytes(100),
    });
    expect(late.status).toBe(410);
    expect(await late.json()).toMatchObject({ code: 'storage/object-not-found' });
    expect(await w.t.app.files.sweepExpiredUploads()).toBe(1);
    expect(await w.t.database.db.select().from(fileUploads)).toEqual([]);
    if (backend.name === 'local') expect(await fs.readdir(path.join(w.dataDir, 'uploads'))).toEqual([]);
  });
});
