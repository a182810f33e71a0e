import { FILES_UPLOAD_PATH, FileListingSchema, type FileItem, type FileListing } from '@omnibot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../db/schema';
import { TRAVERSAL_ATTEMPTS } from '../../storage/traversal-cases';
import { createUrlSigner } from '../../storage/url-signer';
import { pathOf, registerVerified, sessionCookie } from '../../test/app';
import {
  BACKENDS,
  basicCredential,
  createFilesWorld,
  encodeMetadata,
  injectUpload,
  makeAgent,
  type FilesWorld,
} from './files.test-support';
import { loadFilesUrlSecret } from './files.service';
import { defined } from '../../test/defined';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('fake png body'),
]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"></svg>');
const HTML = Buffer.from('<!DOCTYPE html><html><script>alert(1)</script></html>');

describe.each(BACKENDS)('files REST API on $name storage', (backend) => {
  let w: FilesWorld;
  beforeAll(async () => {
    w = await createFilesWorld(backend);
  });
  afterAll(() => w.close());

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    cookie: string | null,
    payload?: object,
  ) =>
    w.t.app.inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload ? { payload } : {}),
    });
  const list = async (cookie: string, path: string, extra = '') => {
    const response = await call('GET', `/v1/files?path=${encodeURIComponent(path)}${extra}`, cookie);
    expect(response.statusCode, response.body).toBe(200);
    return FileListingSchema.parse(response.json());
  };
  const itemNamed = async (cookie: string, folder: string, name: string): Promise<FileItem> => {
    const item = (await list(cookie, folder, '&page_size=1000')).items.find((i) => i.name === name);
    if (!item) throw new Error(`${name} is not listed in "${folder}"`);
    return item;
  };
  /** Downloads through the signed URL: our route for local storage, the store itself for S3. */
  const download = async (url: string, headers: Record<string, string> = {}) => {
    if (backend.name === 's3') {
      const response = await fetch(url, { headers });
      return {
        statusCode: response.status,
        headers: Object.fromEntries(response.headers.entries()),
        rawPayload: Buffer.from(await response.arrayBuffer()),
      };
    }
    return w.t.app.inject({ url: pathOf(url), headers });
  };

  it('lists folders first, then files, by name, with their listed fields, page by page', async () => {
    for (const name of ['f-b', 'f-a', 'f-c']) {
      expect((await call('POST', '/v1/files/folders', w.alice, { path: `paging/${name}` })).statusCode).toBe(
        201,
      );
    }
    for (const name of ['e.txt', 'a.png', 'd.pdf', 'b.TXT', 'c']) {
      await injectUpload(w.t, w.alice, name, name.endsWith('png') ? PNG : Buffer.from(name), 'paging');
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: FileListing = await list(
        w.alice,
        'paging',
        `&page_size=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.prefixes.length + page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.prefixes.map((p) => `${p.name}/`), ...page.items.map((i) => i.name));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).toEqual(['f-a/', 'f-b/', 'f-c/', 'a.png', 'b.TXT', 'c', 'd.pdf', 'e.txt']);

    const whole = await list(w.alice, 'paging', '&page_size=1000');
    expect(whole.next_cursor).toBeNull();
    expect(whole.prefixes[0]).toEqual({ name: 'f-a', path: 'paging/f-a', isFolder: true });
    const png = defined(whole.items.find((i) => i.name === 'a.png'));
    expect(png).toMatchObject({
      type: 'png',
      size: PNG.length,
      content_type: 'image/png',
      path: 'paging/a.png',
    });
    expect(png.url).toMatch(/^https?:\/\//u);
    expect(whole.items.find((i) => i.name === 'c')).toMatchObject({ type: '', content_type: 'text/plain' });
    expect(whole.items.find((i) => i.name === 'b.TXT')).toMatchObject({ type: 'TXT' });
  });

  it('bounds page_size to 1..1000 and rejects a forged cursor', async () => {
    for (const size of ['0', '1001', 'x']) {
      const response = await call('GET', `/v1/files?page_size=${size}`, w.alice);
      expect(response.statusCode).toBe(400);
    }
    const forged = await call('GET', '/v1/files?cursor=not-a-cursor', w.alice);
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ code: 'storage/invalid-argument' });
    expect((await call('GET', '/v1/files?page_size=1000', w.alice)).statusCode).toBe(200);
  });

  it('answers storage codes: 401 unauthenticated, 404 object-not-found', async () => {
    const anonymous = await call('GET', '/v1/files', null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'storage/unauthenticated' });
    const missing = await call('GET', '/v1/files?path=no-such-folder', w.alice);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'storage/object-not-found' });
  });

  it('creates nested folders, refuses duplicates, renames and deletes folders with their contents', async () => {
    const created = await call('POST', '/v1/files/folders', w.alice, { path: 'tree/a/b' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ name: 'b', path: 'tree/a/b', isFolder: true });
    expect((await list(w.alice, 'tree')).prefixes.map((p) => p.name)).toEqual(['a']);
    const again = await call('POST', '/v1/files/folders', w.alice, { path: 'tree/a' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'storage/already-exists' });

    const bytes = Buffer.from('inside b');
    await injectUpload(w.t, w.alice, 'note.txt', bytes, 'tree/a/b');
    const fileAsFolder = await call('POST', '/v1/files/folders', w.alice, { path: 'tree/a/b/note.txt' });
    expect(fileAsFolder.statusCode).toBe(409);

    const renamed = await call('PATCH', '/v1/files/folders', w.alice, { path: 'tree/a', name: 'z' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toEqual({ name: 'z', path: 'tree/z', isFolder: true });
    expect((await call('GET', '/v1/files?path=tree/a', w.alice)).statusCode).toBe(404);
    const moved = await itemNamed(w.alice, 'tree/z/b', 'note.txt');
    expect(moved.path).toBe('tree/z/b/note.txt');
    expect((await download(moved.url)).rawPayload.equals(bytes)).toBe(true);

    const refused = await call('DELETE', '/v1/files/folders?path=tree/z', w.alice);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'storage/folder-not-empty' });
    const deleted = await call('DELETE', '/v1/files/folders?path=tree/z&recursive=true', w.alice);
    expect(deleted.statusCode).toBe(204);
    expect((await list(w.alice, 'tree')).prefixes).toEqual([]);
    expect((await w.storedKeys()).filter((key) => key.includes('/tree/'))).toEqual([]);
    const empty = await call('POST', '/v1/files/folders', w.alice, { path: 'tree/empty' });
    expect(empty.statusCode).toBe(201);
    expect((await call('DELETE', '/v1/files/folders?path=tree/empty', w.alice)).statusCode).toBe(204);
  });

  it('renames, moves (with a " (1)" suffix on collision) and deletes files; uploads never overwrite', async () => {
    await call('POST', '/v1/files/folders', w.alice, { path: 'ops/target' });
    expect(await injectUpload(w.t, w.alice, 'report.pdf', PDF, 'ops')).toBe('ops/report.pdf');
    expect(await injectUpload(w.t, w.alice, 'report.pdf', PDF, 'ops')).toBe('ops/report (1).pdf');
    expect(await injectUpload(w.t, w.alice, 'target', PDF, 'ops')).toBe('ops/target (1)');

    const taken = await call('PATCH', '/v1/files', w.alice, {
      path: 'ops/report (1).pdf',
      name: 'report.pdf',
    });
    expect(taken.statusCode).toBe(409);
    const renamed = await call('PATCH', '/v1/files', w.alice, {
      path: 'ops/report (1).pdf',
      name: 'second.pdf',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'second.pdf', path: 'ops/second.pdf', type: 'pdf' });

    await injectUpload(w.t, w.alice, 'report.pdf', PDF, 'ops/target');
    const moved = await call('POST', '/v1/files/move', w.alice, {
      path: 'ops/report.pdf',
      folder: 'ops/target',
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ path: 'ops/target/report (1).pdf' });
    const toRoot = await call('POST', '/v1/files/move', w.alice, { path: 'ops/second.pdf', folder: '' });
    expect(toRoot.json()).toMatchObject({ path: 'second.pdf' });
    const noFolder = await call('POST', '/v1/files/move', w.alice, { path: 'second.pdf', folder: 'nowhere' });
    expect(noFolder.statusCode).toBe(404);

    const item = await itemNamed(w.alice, 'ops/target', 'report (1).pdf');
    expect((await download(item.url)).rawPayload.equals(PDF)).toBe(true);
    expect(
      (await call('DELETE', `/v1/files?path=${encodeURIComponent(item.path)}`, w.alice)).statusCode,
    ).toBe(204);
    expect(
      (await call('DELETE', `/v1/files?path=${encodeURIComponent(item.path)}`, w.alice)).statusCode,
    ).toBe(404);
    expect((await w.storedKeys()).some((key) => key.endsWith('report (1).pdf'))).toBe(false);
  });

  it('serves downloads inline only for images, audio and PDF, always nosniff, SVG and HTML sandboxed', async () => {
    await injectUpload(w.t, w.alice, 'pic.png', PNG, 'dl');
    await injectUpload(w.t, w.alice, 'doc.pdf', PDF, 'dl');
    await injectUpload(w.t, w.alice, 'evil.svg', SVG, 'dl');
    await injectUpload(w.t, w.alice, 'evil.png', HTML, 'dl');
    await injectUpload(w.t, w.alice, 'notes.txt', Buffer.from('just text'), 'dl');
    const expectations: Array<[string, string, RegExp]> = [
      ['pic.png', 'image/png', /^inline/u],
      ['doc.pdf', 'application/pdf', /^inline/u],
      ['evil.svg', 'image/svg+xml', /^attachment/u],
      ['evil.png', 'text/html', /^attachment/u],
      ['notes.txt', 'text/plain', /^attachment/u],
    ];
    for (const [name, type, disposition] of expectations) {
      const item = await itemNamed(w.alice, 'dl', name);
      expect(item.content_type, name).toBe(type);
      const response = await download(item.url);
      expect(response.statusCode, name).toBe(200);
      expect(response.headers['content-disposition'], name).toMatch(disposition);
      expect(String(response.headers['content-type']), name).toContain(type);
      if (backend.name === 'local') {
        expect(response.headers['x-content-type-options'], name).toBe('nosniff');
        if (type === 'image/svg+xml' || type === 'text/html') {
          expect(response.headers['content-security-policy'], name).toContain('sandbox');
        }
      }
    }
  });

  it('supports Range requests', async () => {
    const bytes = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz');
    await injectUpload(w.t, w.alice, 'range.bin', bytes, 'range');
    const item = await itemNamed(w.alice, 'range', 'range.bin');
    const partial = await download(item.url, { range: 'bytes=10-19' });
    expect(partial.statusCode).toBe(206);
    expect(partial.rawPayload.toString()).toBe('abcdefghij');
    expect(partial.headers['content-range']).toBe(`bytes 10-19/${bytes.length}`);
    const suffix = await download(item.url, { range: 'bytes=-3' });
    expect(suffix.rawPayload.toString()).toBe('xyz');
    const beyond = await download(item.url, { range: `bytes=${bytes.length}-` });
    expect(beyond.statusCode).toBe(416);
  });

  it('refuses expired and altered signed URLs with 403 storage/unauthorized', async () => {
    await injectUpload(w.t, w.alice, 'secret.txt', Buffer.from('alice only'), 'signed');
    await injectUpload(w.t, w.bob, 'secret.txt', Buffer.from('bob only'), 'signed');
    const url = new URL((await itemNamed(w.alice, 'signed', 'secret.txt')).url);
    if (backend.name === 's3') {
      const tampered = new URL(url);
      tampered.pathname = tampered.pathname.replace(w.tenantA, w.tenantB);
      expect((await fetch(tampered)).status).toBe(403);
      return;
    }
    const signer = createUrlSigner(await loadFilesUrlSecret(w.t.database.db), '');
    const expired = signer.sign(w.tenantA, 'signed/secret.txt', new Date(Date.now() - 1000));
    const expiredResponse = await w.t.app.inject({ url: expired });
    expect(expiredResponse.statusCode).toBe(403);
    expect(expiredResponse.json()).toEqual({
      code: 'storage/unauthorized',
      message: 'This download link has expired.',
    });

    const altered = (change: (params: URLSearchParams) => void) => {
      const params = new URLSearchParams(url.search);
      change(params);
      return w.t.app.inject({ url: `${url.pathname}?${params.toString()}` });
    };
    const variants: Array<(p: URLSearchParams) => void> = [
      (p) => p.set('tenant', w.tenantB),
      (p) => p.set('path', 'signed/other.txt'),
      (p) => p.set('expires', String(Number(p.get('expires')) + 3600)),
      (p) => p.set('signature', `${defined(p.get('signature')).slice(0, -2)}AA`),
      (p) => p.delete('signature'),
    ];
    for (const change of variants) {
      const response = await altered(change);
      expect([400, 403]).toContain(response.statusCode);
      if (response.statusCode === 403)
        expect(response.json()).toMatchObject({ code: 'storage/unauthorized' });
    }
    expect((await altered(() => undefined)).rawPayload.toString()).toBe('alice only');
  });

  it('keeps tenants apart: no listing, download, rename, move or delete of another tenant’s files', async () => {
    await injectUpload(w.t, w.alice, 'private.txt', Buffer.from('alice private'), 'mine');
    const aliceItem = await itemNamed(w.alice, 'mine', 'private.txt');
    const bobListing = await call('GET', '/v1/files?path=mine', w.bob);
    expect(bobListing.statusCode).toBe(404);
    expect((await list(w.bob, '')).prefixes.map((p) => p.name)).not.toContain('mine');
    for (const [method, url, body] of [
      ['GET', '/v1/files/object?path=mine/private.txt', undefined],
      ['PATCH', '/v1/files', { path: 'mine/private.txt', name: 'stolen.txt' }],
      ['POST', '/v1/files/move', { path: 'mine/private.txt', folder: '' }],
      ['DELETE', '/v1/files?path=mine/private.txt', undefined],
      ['PATCH', '/v1/files/folders', { path: 'mine', name: 'stolen' }],
      ['DELETE', '/v1/files/folders?path=mine&recursive=true', undefined],
    ] as const) {
      const response = await call(method, url, w.bob, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    // Alice's link, pointed at Bob's tenant, or Bob's own tenant pointed at Alice's path: refused.
    if (backend.name === 'local') {
      const params = new URL(aliceItem.url).searchParams;
      params.set('tenant', w.tenantB);
      expect((await w.t.app.inject({ url: `/v1/files/download?${params.toString()}` })).statusCode).toBe(403);
    }
    const still = await itemNamed(w.alice, 'mine', 'private.txt');
    expect((await download(still.url)).rawPayload.toString()).toBe('alice private');
  });

  it('rejects every traversal attempt with 400 and writes nothing outside the tenant prefix', async () => {
    const before = await w.storedKeys();
    const rowsBefore = await w.t.database.db.select().from(files).where(eq(files.tenantId, w.tenantA));
    for (const [label, path] of TRAVERSAL_ATTEMPTS) {
      const q = encodeURIComponent(path);
      const attempts = [
        call('GET', `/v1/files?path=${q}`, w.alice),
        call('GET', `/v1/files/object?path=${q}`, w.alice),
        call('POST', '/v1/files/folders', w.alice, { path }),
        call('POST', '/v1/files/folders', w.alice, { path: `ok/${path}` }),
        call('PATCH', '/v1/files', w.alice, { path: 'mine/private.txt', name: path }),
        call('PATCH', '/v1/files/folders', w.alice, { path: 'mine', name: path }),
        call('POST', '/v1/files/move', w.alice, { path: 'mine/private.txt', folder: path }),
        call('DELETE', `/v1/files?path=${q}`, w.alice),
        call('DELETE', `/v1/files/folders?path=${q}&recursive=true`, w.alice),
      ];
      for (const response of await Promise.all(attempts)) {
        expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
      }
    }
    // The same attempts as a client would send them already percent-encoded (the server decodes once).
    for (const raw of ['%2e%2e%2fx', '%2E%2E/x', '..%2F..%2Fetc', '%252e%252e%252f', '%5c..%5c', '/etc']) {
      const response = await call('GET', `/v1/files?path=${raw}`, w.alice);
      expect(response.statusCode, raw).toBe(400);
      expect(response.json()).toMatchObject({ code: 'storage/invalid-argument' });
    }
    // NUL is refused for every route before routing, like any text a database cannot store.
    const nul = await call('GET', '/v1/files?path=%00', w.alice);
    expect([nul.statusCode, nul.json()]).toMatchObject([400, { code: 'invalid_text' }]);
    expect(await w.storedKeys()).toEqual(before);
    const prefix = backend.name === 's3' ? 'tenants/' : 'data/files/tenants/';
    for (const key of before) expect(key.startsWith(prefix), key).toBe(true);
    const rowsAfter = await w.t.database.db.select().from(files).where(eq(files.tenantId, w.tenantA));
    expect(rowsAfter).toEqual(rowsBefore);
  });

  it('accepts a tenant API credential (HTTP Basic) for uploads and the REST calls, in its own tenant', async () => {
    const authorization = await basicCredential(w.t, w.tenantB);
    const bytes = Buffer.from('uploaded by a robot');
    const created = await w.t.app.inject({
      method: 'POST',
      url: FILES_UPLOAD_PATH,
      headers: {
        authorization,
        'tus-resumable': '1.0.0',
        'upload-length': String(bytes.length),
        'upload-metadata': encodeMetadata({ filename: 'robot.txt', folder: 'robots' }),
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const finished = await w.t.app.inject({
      method: 'PATCH',
      url: defined(created.headers.location),
      headers: {
        authorization,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      payload: bytes,
    });
    expect(finished.statusCode).toBe(204);
    const [row] = await w.t.database.db.select().from(files).where(eq(files.path, 'robots/robot.txt'));
    expect(row).toMatchObject({ tenantId: w.tenantB, size: bytes.length });
    expect(defined(row).uploadedBy).toMatch(/^credential:/u);
    const listed = await w.t.app.inject({ url: '/v1/files?path=robots', headers: { authorization } });
    expect(listed.json<FileListing>().items.map((i) => i.name)).toEqual(['robot.txt']);
    expect((await call('GET', '/v1/files?path=robots', w.alice)).statusCode).toBe(404);
    const wrong = await w.t.app.inject({
      url: '/v1/files',
      headers: { authorization: `Basic ${Buffer.from('nobody:nothing').toString('base64')}` },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'storage/unauthenticated' });
  });

  it('reports usage against the quota and lets agents read but not write', async () => {
    const usage = await call('GET', '/v1/files/usage', w.bob);
    expect(usage.statusCode).toBe(200);
    const rows = await w.t.database.db.select().from(files).where(eq(files.tenantId, w.tenantB));
    expect(usage.json()).toEqual({
      used_bytes: rows.reduce((sum, row) => sum + row.size, 0),
      quota_bytes: 1024 * 1024 * 1024,
      max_file_bytes: 100 * 1024 * 1024,
    });
    const carol = `carol@${w.domainB}`;
    const password = await registerVerified(w.t, carol);
    await makeAgent(w.t, carol);
    const agent = await sessionCookie(w.t, carol, password);
    expect((await call('GET', '/v1/files', agent)).statusCode).toBe(200);
    const write = await call('POST', '/v1/files/folders', agent, { path: 'agent-folder' });
    expect(write.statusCode).toBe(403);
    expect(write.json()).toMatchObject({ code: 'storage/unauthorized' });
  });
});
