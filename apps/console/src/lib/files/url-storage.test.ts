import type { PreviousUpload } from 'tus-js-client';
import { describe, expect, it } from 'vitest';
import { localUrlStorage } from './url-storage';

const upload = (uploadUrl: string): PreviousUpload => ({
  size: 10,
  metadata: {},
  creationTime: 'Mon Jan 05 2026',
  urlStorageKey: '',
  uploadUrl,
  parallelUploadUrls: null,
});

describe('localUrlStorage', () => {
  it('stores, finds by exact fingerprint and removes upload URLs', async () => {
    const storage = localUrlStorage();
    const key = await storage.addUpload('["a"]', upload('/u/1'));
    await storage.addUpload('["a","b"]', upload('/u/2'));
    expect(key).toMatch(/^tus::\["a"\]::\d+$/);
    expect((await storage.findUploadsByFingerprint('["a"]')).map((found) => found.uploadUrl)).toEqual([
      '/u/1',
    ]);
    expect(await storage.findAllUploads()).toHaveLength(2);
    await storage.removeUpload(key);
    expect(await storage.findUploadsByFingerprint('["a"]')).toEqual([]);
  });

  it('skips damaged entries and keys of others', async () => {
    window.localStorage.setItem('tus::["a"]::1', '{not json');
    window.localStorage.setItem('theme', 'dark');
    expect(await localUrlStorage().findAllUploads()).toEqual([]);
  });
});
