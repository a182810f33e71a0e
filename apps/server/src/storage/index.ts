import path from 'node:path';
import type { Env } from '../env';
import type { StorageDriver } from './driver';
import { LocalStorageDriver } from './local-driver';
import { S3StorageDriver, type S3Settings } from './s3-driver';
import { localUploadStaging, s3UploadStaging, type UploadStaging } from './upload-staging';
import { createUrlSigner } from './url-signer';

export interface Storage {
  driver: StorageDriver;
  staging: UploadStaging;
}

function s3SettingsFrom(env: Env): S3Settings | null {
  if (!env.S3_BUCKET) return null;
  return {
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
    ...(env.S3_ACCESS_KEY_ID ? { accessKeyId: env.S3_ACCESS_KEY_ID } : {}),
    ...(env.S3_SECRET_ACCESS_KEY ? { secretAccessKey: env.S3_SECRET_ACCESS_KEY } : {}),
  };
}

/** The local file system under DATA_DIR by default; the S3-compatible store when S3_BUCKET is set. */
export function createStorage(env: Env, urlSecret: string): Storage {
  const expiryMs = env.UPLOAD_EXPIRY_HOURS * 3600 * 1000;
  const s3 = s3SettingsFrom(env);
  // The tus datastore touches its directory or bucket when built: only build it when uploads happen.
  const lazy = (make: () => UploadStaging) => {
    let staging: UploadStaging | undefined;
    return () => (staging ??= make());
  };
  if (s3) {
    const driver = new S3StorageDriver(s3);
    const staging = lazy(() => s3UploadStaging(s3, driver, expiryMs));
    return {
      driver,
      get staging() {
        return staging();
      },
    };
  }
  const driver = new LocalStorageDriver(
    path.join(env.DATA_DIR, 'files'),
    createUrlSigner(urlSecret, env.PUBLIC_URL),
  );
  const staging = lazy(() => localUploadStaging(path.resolve(env.DATA_DIR, 'uploads'), driver, expiryMs));
  return {
    driver,
    get staging() {
      return staging();
    },
  };
}

export type { StorageDriver } from './driver';
