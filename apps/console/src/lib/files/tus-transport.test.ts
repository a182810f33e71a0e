import {
  DetailedError,
  type HttpRequest,
  type HttpResponse,
  type PreviousUpload,
  type UrlStorage,
} from 'tus-js-client';
import { describe, expect, it } from 'vitest';
import {
  describeUploadError,
  findUnfinishedUploads,
  isRetryableStatus,
  MAX_CHUNK_BYTES,
  nextChunkSize,
  shouldRetryUpload,
  UPLOAD_RETRY_DELAYS_MS,
  uploadFingerprint,
} from './tus-transport';
import { defined } from '../../test/defined';

const request = { getMethod: () => 'PATCH' } as unknown as HttpRequest;
const response = (status: number, body = ''): HttpResponse =>
  ({ getStatus: () => status, getBody: () => body, getHeader: () => undefined }) as unknown as HttpResponse;

function httpError(status: number | null, body = '') {
  const error = new DetailedError('tus: unexpected response');
  error.originalRequest = request;
  error.originalResponse = status === null ? null : response(status, body);
  return error;
}

describe('upload retry policy', () => {
  it('retries 408, 429, 5xx, tus 423 and lost connections, nothing else', () => {
    for (const status of [0, 408, 423, 429, 500, 502, 503, 504])
      expect(isRetryableStatus(status), String(status)).toBe(true);
    for (const status of [400, 401, 402, 403, 404, 409, 410, 413, 415])
      expect(isRetryableStatus(status), String(status)).toBe(false);
    expect(shouldRetryUpload(httpError(503))).toBe(true);
    expect(shouldRetryUpload(httpError(null))).toBe(true);
    expect(shouldRetryUpload(httpError(402))).toBe(false);
    expect(shouldRetryUpload(new Error('could not read the file'))).toBe(false);
  });

  it('backs off over a window of about ten minutes', () => {
    const total = UPLOAD_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThanOrEqual(9.5 * 60_000);
    expect(total).toBeLessThanOrEqual(10.5 * 60_000);
    expect(UPLOAD_RETRY_DELAYS_MS[0]).toBe(0);
    expect([...UPLOAD_RETRY_DELAYS_MS]).toEqual([...UPLOAD_RETRY_DELAYS_MS].sort((a, b) => a - b));
  });

  it('doubles the chunk size up to 32 MB', () => {
    const sizes = [256 * 1024];
    while (defined(sizes.at(-1)) < MAX_CHUNK_BYTES) sizes.push(nextChunkSize(defined(sizes.at(-1))));
    expect(sizes.map((size) => size / 1024)).toEqual([256, 512, 1024, 2048, 4096, 8192, 16384, 32768]);
    expect(nextChunkSize(MAX_CHUNK_BYTES)).toBe(MAX_CHUNK_BYTES);
  });
});

describe('describeUploadError', () => {
  it("shows the server's message and code", () => {
    const body = JSON.stringify({ code: 'storage/quota-exceeded', message: 'This upload does not fit.' });
    expect(describeUploadError(httpError(402, body))).toEqual({
      status: 402,
      code: 'storage/quota-exceeded',
      message: 'This upload does not fit.',
    });
  });

  it('falls back to the status when the body is not ours', () => {
    expect(describeUploadError(httpError(502, '<html>'))).toEqual({
      status: 502,
      code: undefined,
      message: 'The upload failed (HTTP 502). Try again.',
    });
  });

  it('explains a connection that never came back', () => {
    expect(describeUploadError(httpError(null))).toMatchObject({
      status: 0,
      code: 'storage/retry-limit-exceeded',
    });
  });

  it('passes other errors through', () => {
    expect(describeUploadError(new Error('The file could not be read'))).toEqual({
      message: 'The file could not be read',
    });
  });
});

describe('unfinished uploads in the URL storage', () => {
  const report = new File([new Uint8Array(300_000)], 'report.pdf', {
    type: 'application/pdf',
    lastModified: 42,
  });

  function memoryStorage(entries: Record<string, PreviousUpload>): UrlStorage {
    return {
      findAllUploads: () =>
        Promise.resolve(Object.entries(entries).map(([key, value]) => ({ ...value, urlStorageKey: key }))),
      findUploadsByFingerprint: () => Promise.resolve([]),
      removeUpload: () => Promise.resolve(),
      addUpload: () => Promise.resolve(''),
    };
  }
  const stored = (creationTime: string): PreviousUpload => ({
    size: 300_000,
    metadata: {},
    creationTime,
    urlStorageKey: '',
    uploadUrl: 'http://localhost/v1/files/upload/0123',
    parallelUploadUrls: null,
  });

  it('fingerprints tenant, folder and the file, unambiguously', () => {
    expect(uploadFingerprint('t1', 'docs', report)).toBe(
      '["omnibot-files","t1","docs","report.pdf","application/pdf",300000,42]',
    );
    expect(uploadFingerprint('t1', 'a::b', report)).not.toBe(uploadFingerprint('t1', 'a', report));
  });

  it("lists only this tenant's uploads, newest first, with their name, folder and size", async () => {
    const mine = uploadFingerprint('t1', 'docs', report);
    const older = uploadFingerprint('t1', '', new File(['x'], 'old.bin', { lastModified: 1 }));
    const storage = memoryStorage({
      [`tus::${mine}::1`]: stored('Tue Jan 06 2026 10:00:00 GMT+0000'),
      [`tus::${older}::2`]: stored('Mon Jan 05 2026 10:00:00 GMT+0000'),
      [`tus::${uploadFingerprint('t2', 'docs', report)}::3`]: stored('Tue Jan 06 2026 11:00:00 GMT+0000'),
      'tus::tus-br-report.pdf-application/pdf-300000-42-http://x::4': stored(
        'Tue Jan 06 2026 11:00:00 GMT+0000',
      ),
      'tus::not json::5': stored('Tue Jan 06 2026 11:00:00 GMT+0000'),
    });
    const found = await findUnfinishedUploads('t1', storage);
    expect(found.map(({ key, name, folder, size }) => ({ key, name, folder, size }))).toEqual([
      { key: `tus::${mine}::1`, name: 'report.pdf', folder: 'docs', size: 300_000 },
      { key: `tus::${older}::2`, name: 'old.bin', folder: '', size: 1 },
    ]);
  });
});
