import {
  FILES_UPLOAD_PATH,
  STORAGE_ERRORS,
  UPLOAD_FILE_PATH_HEADER,
  UPLOAD_METADATA_KEYS,
} from '@omnibot/contracts';
import { DetailedError, Upload, type PreviousUpload, type UrlStorage } from 'tus-js-client';
import { joinPath } from './storage-paths';
import { uploadUrlStorage } from './url-storage';
import type { UploadFailure } from './upload-queue';

/** Uploads above 256 KB are resumable; smaller ones go in one request. */
export const RESUMABLE_THRESHOLD_BYTES = 256 * 1024;
/** Chunk size doubles up to 32 MB, starting from the resumable threshold. */
const FIRST_CHUNK_BYTES = 256 * 1024;
export const MAX_CHUNK_BYTES = 32 * 1024 * 1024;

/**
 * The upload retry window is 10 minutes. Backoff from an immediate retry up to one a minute;
 * the delays add up to 609 s. tus-js-client starts the list again whenever bytes get through.
 */
export const UPLOAD_RETRY_DELAYS_MS = [
  0,
  1_000,
  3_000,
  5_000,
  10_000,
  20_000,
  30_000,
  ...Array<number>(9).fill(60_000),
] as const;

/** The next chunk after one was accepted: twice as large, at most MAX_CHUNK_BYTES. */
export const nextChunkSize = (current: number) => Math.min(MAX_CHUNK_BYTES, current * 2);

/** Retry on HTTP 408, 429 and 5xx; also when no answer came (network) and on tus' 423 Locked. */
export function isRetryableStatus(status: number): boolean {
  return status === 0 || status === 408 || status === 423 || status === 429 || status >= 500;
}

const statusOf = (error: Error) =>
  error instanceof DetailedError && error.originalResponse ? error.originalResponse.getStatus() : 0;

export function shouldRetryUpload(error: Error): boolean {
  // Errors without a request (reading the file, a wrong size) are not going to pass on a second try.
  if (!(error instanceof DetailedError) || !error.originalRequest) return false;
  return isRetryableStatus(statusOf(error));
}

function errorBody(text: string): { code?: string; message?: string } {
  try {
    const data = JSON.parse(text) as { code?: unknown; message?: unknown };
    return {
      code: typeof data.code === 'string' ? data.code : undefined,
      message: typeof data.message === 'string' ? data.message : undefined,
    };
  } catch {
    return {};
  }
}

/** What the queue shows for a failed upload: the server's `{ code, message }` when it answered. */
export function describeUploadError(error: Error): UploadFailure {
  if (error instanceof DetailedError && error.originalResponse) {
    const status = error.originalResponse.getStatus();
    const body = errorBody(error.originalResponse.getBody() ?? '');
    return {
      status,
      code: body.code,
      message: body.message ?? `The upload failed (HTTP ${status}). Try again.`,
    };
  }
  if (error instanceof DetailedError && error.originalRequest) {
    return {
      status: 0,
      code: 'storage/retry-limit-exceeded',
      message: `${STORAGE_ERRORS['storage/retry-limit-exceeded'].message} The server could not be reached; check your connection and retry: the upload continues where it stopped.`,
    };
  }
  return { message: error.message || STORAGE_ERRORS['storage/unknown'].message };
}

const FINGERPRINT_TAG = 'omnibot-files';

/**
 * Identifies "the same upload" across page loads: tenant, target folder and the file's name, type, size and
 * modification time. JSON, so no field can run into the next. tus keeps it in localStorage as
 * `tus::<fingerprint>::<n>` next to the upload's URL.
 */
export function uploadFingerprint(tenantId: string, folder: string, file: File): string {
  return JSON.stringify([
    FINGERPRINT_TAG,
    tenantId,
    folder,
    file.name,
    file.type,
    file.size,
    file.lastModified,
  ]);
}

/** An upload of an earlier visit that never finished, from tus' URL storage. */
export interface UnfinishedUpload {
  key: string;
  name: string;
  folder: string;
  size: number;
  createdAt: Date | null;
  /** Where the server keeps the unfinished bytes (tus upload URL). */
  uploadUrl: string;
  previous: PreviousUpload;
}

function parseFingerprintKey(key: string): unknown[] | null {
  const start = 'tus::'.length;
  const end = key.lastIndexOf('::');
  if (!key.startsWith('tus::') || end <= start) return null;
  try {
    const parsed: unknown = JSON.parse(key.slice(start, end));
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** The signed-in tenant's unfinished resumable uploads, newest first. */
export async function findUnfinishedUploads(
  tenantId: string,
  urlStorage: UrlStorage = uploadUrlStorage,
): Promise<UnfinishedUpload[]> {
  const found: UnfinishedUpload[] = [];
  for (const previous of await urlStorage.findAllUploads()) {
    const fields = parseFingerprintKey(previous.urlStorageKey);
    if (!fields || fields[0] !== FINGERPRINT_TAG || fields[1] !== tenantId || !previous.uploadUrl) continue;
    const [, , folder, name, , size] = fields;
    if (typeof folder !== 'string' || typeof name !== 'string' || typeof size !== 'number') continue;
    const created = new Date(previous.creationTime);
    found.push({
      key: previous.urlStorageKey,
      name,
      folder,
      size,
      createdAt: Number.isNaN(created.getTime()) ? null : created,
      uploadUrl: previous.uploadUrl,
      previous,
    });
  }
  return found.sort((a, b) => (b.createdAt?.getTime() ?? 0) - (a.createdAt?.getTime() ?? 0));
}

type UnfinishedProgress = { offset: number; length: number } | 'gone';

/** Asks the server how far an unfinished upload got (tus HEAD); 'gone' once it expired or was removed. */
export async function probeUnfinishedUpload(upload: UnfinishedUpload): Promise<UnfinishedProgress> {
  const response = await fetch(upload.uploadUrl, {
    method: 'HEAD',
    headers: { 'tus-resumable': '1.0.0' },
    credentials: 'include',
  });
  if (response.status === 404 || response.status === 410) return 'gone';
  if (!response.ok) throw new Error(`The server answered ${response.status}.`);
  return {
    offset: Number(response.headers.get('upload-offset') ?? 0),
    length: Number(response.headers.get('upload-length') ?? upload.size),
  };
}

/** Deletes an unfinished upload on the server (freeing its quota) and forgets it here. */
export async function discardUnfinishedUpload(
  upload: UnfinishedUpload,
  urlStorage: UrlStorage = uploadUrlStorage,
): Promise<void> {
  try {
    await Upload.terminate(upload.uploadUrl, { retryDelays: [0, 1_000, 3_000] });
  } catch (error) {
    // Already gone on the server (expired or finished): forgetting it is all there is to do.
    if (!(error instanceof DetailedError && [404, 410].includes(statusOf(error)))) throw error;
  }
  await urlStorage.removeUpload(upload.key);
}

export interface UploadTarget {
  folder: string;
  tenantId: string;
}

export interface TransportCallbacks {
  onProgress(bytesUploaded: number): void;
  /** An unfinished upload of an earlier visit is being continued; `offset` once the server said where. */
  onResumed(offset: number | null): void;
  onRetrying(attempt: number, delayMs: number): void;
  onSuccess(path: string): void;
  onError(failure: UploadFailure): void;
}

export interface UploadHandle {
  pause: () => void;
  /** Continues after a pause or an error, from the server's offset. */
  resume: () => void;
  /** Stops and deletes the unfinished upload on the server. */
  cancel: () => Promise<void>;
}

export interface UploadTransport {
  start(
    file: File,
    target: UploadTarget,
    callbacks: TransportCallbacks,
    options?: { resumeFrom?: PreviousUpload },
  ): UploadHandle;
}

const newest = (uploads: PreviousUpload[]) =>
  uploads.toSorted((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime))[0];

/** tus-js-client against /v1/files/upload (same origin, the session cookie authenticates). */
export function createTusTransport(): UploadTransport {
  const endpoint = new URL(FILES_UPLOAD_PATH, window.location.origin).href;

  return {
    start(file, target, callbacks, options = {}) {
      const isResumable = file.size > RESUMABLE_THRESHOLD_BYTES;
      const explicitPrevious = options.resumeFrom;
      let current: Upload | null = null;
      let run = 0;

      const launch = async () => {
        run += 1;
        const thisRun = run;
        const upload = new Upload(file, {
          endpoint,
          urlStorage: uploadUrlStorage,
          chunkSize: isResumable ? FIRST_CHUNK_BYTES : Number.POSITIVE_INFINITY,
          retryDelays: [...UPLOAD_RETRY_DELAYS_MS],
          metadata: {
            [UPLOAD_METADATA_KEYS.filename]: file.name,
            [UPLOAD_METADATA_KEYS.folder]: target.folder,
            [UPLOAD_METADATA_KEYS.filetype]: file.type,
          },
          fingerprint: (input: File) =>
            Promise.resolve(uploadFingerprint(target.tenantId, target.folder, input)),
          storeFingerprintForResuming: isResumable,
          removeFingerprintOnSuccess: true,
          onShouldRetry: (error, attempt) => {
            const retry = shouldRetryUpload(error);
            if (retry) callbacks.onRetrying(attempt + 1, UPLOAD_RETRY_DELAYS_MS[attempt] ?? 0);
            return retry;
          },
          onProgress: (bytesSent) => {
            if (thisRun === run) callbacks.onProgress(bytesSent);
          },
          onChunkComplete: () => {
            upload.options.chunkSize = nextChunkSize(upload.options.chunkSize ?? FIRST_CHUNK_BYTES);
          },
          onSuccess: ({ lastResponse }) => {
            if (thisRun !== run) return;
            const stored = lastResponse.getHeader(UPLOAD_FILE_PATH_HEADER);
            callbacks.onSuccess(stored ? decodeURIComponent(stored) : joinPath(target.folder, file.name));
          },
          onError: (error) => {
            if (thisRun === run) callbacks.onError(describeUploadError(error));
          },
        });
        current = upload;
        if (isResumable) {
          const previous = newest(await upload.findPreviousUploads()) ?? explicitPrevious;
          if (thisRun !== run) return;
          if (previous) {
            upload.resumeFromPreviousUpload(previous);
            let reported = false;
            const report = upload.options.onProgress;
            upload.options.onProgress = (bytesSent, bytesTotal) => {
              if (!reported && thisRun === run) {
                reported = true;
                callbacks.onResumed(bytesSent);
              }
              report?.(bytesSent, bytesTotal);
            };
            callbacks.onResumed(null);
          }
        }
        upload.start();
      };

      const begin = () => {
        launch().catch((error: unknown) => {
          callbacks.onError({ message: error instanceof Error ? error.message : String(error) });
        });
      };
      begin();

      return {
        pause() {
          run += 1;
          void current?.abort(false);
        },
        resume() {
          // A fresh tus Upload gets a fresh retry budget; it finds the stored URL by fingerprint.
          const stale = current;
          if (!isResumable && stale?.url) void Upload.terminate(stale.url).catch(() => undefined);
          begin();
        },
        async cancel() {
          run += 1;
          const upload = current;
          current = null;
          if (!upload) return;
          // abort(true) deletes the server's upload and forgets its stored URL.
          await upload.abort(true);
        },
      };
    },
  };
}
