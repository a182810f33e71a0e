import { beforeAll } from 'vitest';
import type { S3StorageDriver } from './s3-driver';
import { openS3TestDriver, startS3TestStore } from '../test/s3-storage';
import { describeStorageDriver } from './storage-driver.suite';

// The driver speaks the S3 REST protocol over HTTP, signed with AWS Signature Version 4, to a local S3 server
// (s3rver, which reads the signature without verifying it) or to the one S3_TEST_ENDPOINT names.
let driver: S3StorageDriver;
beforeAll(async () => {
  const store = await startS3TestStore();
  driver = await openS3TestDriver(store.settings);
  return async () => {
    driver.close();
    await store.close();
  };
});
describeStorageDriver('S3-compatible', () => driver);
