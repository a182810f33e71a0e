import { beforeAll, describe } from 'vitest';
import type { S3StorageDriver } from './s3-driver';
import { openS3TestDriver, S3_SKIP_NOTICE, S3_TEST } from '../test/s3-storage';
import { describeStorageDriver } from './storage-driver.suite';

if (!S3_TEST) {
  console.warn(S3_SKIP_NOTICE);
  describe.skip('storage driver: S3-compatible (S3_TEST_ENDPOINT not set)', () => undefined);
} else {
  const settings = S3_TEST;
  let driver: S3StorageDriver;
  beforeAll(async () => {
    driver = await openS3TestDriver(settings);
    return () => driver.close();
  });
  describeStorageDriver(`S3-compatible at ${settings.endpoint}`, () => driver);
}
