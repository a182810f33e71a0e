import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocalStorageDriver } from './local-driver';
import { describeStorageDriver } from './storage-driver.suite';
import { createUrlSigner } from './url-signer';

let root: string;
let driver: LocalStorageDriver;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(tmpdir(), 'omnibot-local-driver-'));
  driver = new LocalStorageDriver(
    path.join(root, 'files'),
    createUrlSigner('s'.repeat(32), 'http://localhost:3000'),
  );
});
afterAll(() => fs.rm(root, { recursive: true, force: true }));

describeStorageDriver('local file system', () => driver);

it('keeps every byte under its root and leaves no empty directories behind', async () => {
  const entries = await fs.readdir(root, { recursive: true });
  expect(entries.every((entry) => entry === 'files' || entry.startsWith(`files${path.sep}`))).toBe(true);
  const leftovers = (await fs.readdir(path.join(root, 'files'), { recursive: true })).filter(
    (entry) => !entry.startsWith('.tmp'),
  );
  expect(leftovers).toEqual(['tenants']);
});
