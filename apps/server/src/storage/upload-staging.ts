import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import { ERRORS, type DataStore } from '@tus/server';
import type { StorageDriver } from './driver';
import { isUploadId, uploadStagingKey, type ObjectKey } from './path';
import { s3ClientConfig, type S3Settings, type S3StorageDriver } from './s3-driver';

/**
 * Where tus keeps unfinished uploads, outside every tenant prefix, and how finished bytes reach their object key.
 * An upload has a public id (32 hex characters, in its URL) and a store id (the tus datastore's key).
 */
export interface UploadStaging {
  readonly datastore: DataStore;
  storeIdOf(uploadId: string): string;
  uploadIdOf(storeId: string): string;
  /** The staged bytes of a complete upload. */
  read(storeId: string): Promise<Readable>;
  /** Moves the complete upload's bytes to `key` and forgets the upload. */
  commit(storeId: string, key: ObjectKey, contentType: string): Promise<void>;
  /** Deletes an unfinished upload and its bytes; a missing one is not an error. */
  discard(storeId: string): Promise<void>;
}

const isGone = (error: unknown) => error === ERRORS.FILE_NOT_FOUND || error === ERRORS.FILE_NO_LONGER_EXISTS;

/** Unfinished uploads in `<dataDir>/uploads` (tus FileStore); finishing renames the file into the local store. */
export function localUploadStaging(
  directory: string,
  driver: StorageDriver,
  expiryMs: number,
): UploadStaging {
  const datastore = new FileStore({ directory, expirationPeriodInMilliseconds: expiryMs });
  const fileOf = (storeId: string) => {
    if (!isUploadId(storeId)) throw new Error(`unsafe upload id: ${storeId}`);
    return path.join(directory, storeId);
  };
  const forget = (storeId: string) => fs.rm(`${fileOf(storeId)}.json`, { force: true });
  return {
    datastore,
    storeIdOf: (uploadId) => uploadId,
    uploadIdOf: (storeId) => storeId,
    read: async (storeId) => createReadStream(fileOf(storeId)),
    async commit(storeId, key, contentType) {
      await driver.importFile(fileOf(storeId), key, { contentType });
      await forget(storeId);
    },
    async discard(storeId) {
      await datastore.remove(storeId).catch((error: unknown) => {
        if (!isGone(error)) throw error;
      });
      await fs.rm(fileOf(storeId), { force: true });
      await forget(storeId);
    },
  };
}

/** Unfinished uploads as S3 multipart uploads under `uploads/` (tus S3Store); finishing copies to the key. */
export function s3UploadStaging(
  settings: S3Settings,
  driver: S3StorageDriver,
  expiryMs: number,
): UploadStaging {
  const datastore = new S3Store({
    s3ClientConfig: { ...s3ClientConfig(settings), bucket: settings.bucket },
    expirationPeriodInMilliseconds: expiryMs,
  });
  const keysOf = (storeId: string) => [storeId, `${storeId}.info`, `${storeId}.part`];
  return {
    datastore,
    storeIdOf: (uploadId) => uploadStagingKey(uploadId),
    uploadIdOf: (storeId) => storeId.slice('uploads/'.length),
    read: async (storeId) => (await driver.get(storeId as ObjectKey)).stream,
    async commit(storeId, key) {
      // The signed URL sets the response type, so the copy keeps the staged object's metadata.
      await driver.copy(storeId as ObjectKey, key);
      await driver.deleteKeys(keysOf(storeId));
    },
    async discard(storeId) {
      await datastore.remove(storeId).catch((error: unknown) => {
        if (!isGone(error)) throw error;
      });
      await driver.deleteKeys(keysOf(storeId));
    },
  };
}
