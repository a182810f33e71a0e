import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { StorageDriver } from './driver';
import { tenantFolderPrefix, tenantObjectKey, tenantPrefix, type ObjectKey } from './path';

async function readAll(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function keysUnder(driver: StorageDriver, prefix: ObjectKey): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of driver.list(prefix)) keys.push(object.key);
  return keys.sort();
}

/**
 * The behaviour every storage driver must have; run against the local file system always and against an
 * S3-compatible server when one is configured (see s3-driver.test.ts).
 */
export function describeStorageDriver(name: string, getDriver: () => StorageDriver) {
  describe(`storage driver: ${name}`, () => {
    // Fresh tenants per run, so that a shared bucket never mixes runs.
    const run = randomBytes(4).toString('hex');
    const tenantA = `a-${run}`;
    const tenantB = `a-${run}-b`;
    const key = (p: string, tenant = tenantA) => tenantObjectKey(tenant, p);

    it('puts, stats and gets a Buffer and a stream of unknown length', async () => {
      const driver = getDriver();
      const bytes = randomBytes(300_000);
      expect(await driver.put(key('one/buffer.bin'), bytes)).toBe(bytes.length);
      expect(
        await driver.put(
          key('one/stream.bin'),
          Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]),
        ),
      ).toBe(bytes.length);
      for (const p of ['one/buffer.bin', 'one/stream.bin']) {
        expect((await driver.stat(key(p)))?.size).toBe(bytes.length);
        const object = await driver.get(key(p));
        expect(object.size).toBe(bytes.length);
        expect((await readAll(object.stream)).equals(bytes)).toBe(true);
      }
    });

    it('reads a byte range', async () => {
      const driver = getDriver();
      const bytes = Buffer.from('0123456789abcdefghij');
      await driver.put(key('range.txt'), bytes, { size: bytes.length });
      const object = await driver.get(key('range.txt'), { start: 10, end: 14 });
      expect(object.size).toBe(20);
      expect((await readAll(object.stream)).toString()).toBe('abcde');
    });

    it('answers 404 storage/object-not-found for a missing object and null from stat', async () => {
      const driver = getDriver();
      await expect(driver.get(key('missing.bin'))).rejects.toMatchObject({
        statusCode: 404,
        code: 'storage/object-not-found',
      });
      expect(await driver.stat(key('missing.bin'))).toBeNull();
      await driver.delete(key('missing.bin'));
    });

    it('copies and moves objects, and imports a local file', async () => {
      const driver = getDriver();
      await driver.put(key('cm/source.txt'), Buffer.from('hello'));
      await driver.copy(key('cm/source.txt'), key('cm/copy.txt'));
      await driver.move(key('cm/source.txt'), key('cm/deep/moved.txt'));
      expect(await driver.stat(key('cm/source.txt'))).toBeNull();
      expect((await readAll((await driver.get(key('cm/copy.txt'))).stream)).toString()).toBe('hello');
      expect((await readAll((await driver.get(key('cm/deep/moved.txt'))).stream)).toString()).toBe('hello');

      const local = path.join(tmpdir(), `omnibot-import-${run}`);
      await fs.writeFile(local, 'imported');
      await driver.importFile(local, key('cm/imported.txt'));
      expect((await readAll((await driver.get(key('cm/imported.txt'))).stream)).toString()).toBe('imported');
      await expect(fs.stat(local)).rejects.toThrow();
    });

    it('lists, moves and deletes a prefix without touching a tenant whose id merely starts the same', async () => {
      const driver = getDriver();
      await driver.put(key('p/x.txt'), Buffer.from('x'));
      await driver.put(key('p/sub/y.txt'), Buffer.from('yy'));
      await driver.put(key('p/x.txt', tenantB), Buffer.from('other tenant'));
      expect(await keysUnder(driver, tenantFolderPrefix(tenantA, 'p'))).toEqual([
        key('p/sub/y.txt'),
        key('p/x.txt'),
      ]);

      await driver.movePrefix(tenantFolderPrefix(tenantA, 'p'), tenantFolderPrefix(tenantA, 'q/r'));
      expect(await keysUnder(driver, tenantFolderPrefix(tenantA, 'p'))).toEqual([]);
      expect(await keysUnder(driver, tenantFolderPrefix(tenantA, 'q'))).toEqual([
        key('q/r/sub/y.txt'),
        key('q/r/x.txt'),
      ]);

      expect(await driver.deletePrefix(tenantPrefix(tenantA))).toBeGreaterThanOrEqual(2);
      expect(await keysUnder(driver, tenantPrefix(tenantA))).toEqual([]);
      expect(await keysUnder(driver, tenantPrefix(tenantB))).toEqual([key('p/x.txt', tenantB)]);
      await driver.deletePrefix(tenantPrefix(tenantB));
    });

    it('signs a download URL that carries no secret', async () => {
      const driver = getDriver();
      await driver.put(key('signed.txt'), Buffer.from('signed'));
      const url = await driver.signedUrl(key('signed.txt'), {
        expiresAt: new Date(Date.now() + 60_000),
        filename: 'signed.txt',
        contentType: 'text/plain',
        inline: false,
      });
      expect(() => new URL(url)).not.toThrow();
      expect(url).not.toContain('secret');
      if (driver.kind === 's3') {
        const response = await fetch(url);
        expect(response.status).toBe(200);
        expect(await response.text()).toBe('signed');
        expect(response.headers.get('content-disposition')).toMatch(/^attachment;/u);
      }
      await driver.deletePrefix(tenantPrefix(tenantA));
    });
  });
}
