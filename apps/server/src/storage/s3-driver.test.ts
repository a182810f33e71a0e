import { CreateBucketCommand, HeadBucketCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe } from 'vitest';
import { S3StorageDriver } from './s3-driver';
import { describeStorageDriver } from './storage-driver.suite';

// The S3 half of the storage suite runs only against a real S3-compatible server, e.g. MinIO (README, "Files"):
//   S3_TEST_ENDPOINT=http://127.0.0.1:9000 [S3_TEST_BUCKET=omnibot-test S3_TEST_ACCESS_KEY_ID=minioadmin
//   S3_TEST_SECRET_ACCESS_KEY=minioadmin S3_TEST_REGION=us-east-1] npx vitest run src/storage
export const S3_TEST = process.env.S3_TEST_ENDPOINT
  ? {
      endpoint: process.env.S3_TEST_ENDPOINT,
      bucket: process.env.S3_TEST_BUCKET ?? 'omnibot-test',
      region: process.env.S3_TEST_REGION ?? 'us-east-1',
      accessKeyId: process.env.S3_TEST_ACCESS_KEY_ID ?? 'minioadmin',
      secretAccessKey: process.env.S3_TEST_SECRET_ACCESS_KEY ?? 'minioadmin',
      forcePathStyle: true,
    }
  : null;

if (!S3_TEST) {
  console.warn(
    'NOTICE: S3_TEST_ENDPOINT is not set; the S3 storage driver suite is skipped (see README, "Files").',
  );
  describe.skip('storage driver: S3-compatible (S3_TEST_ENDPOINT not set)', () => undefined);
} else {
  const settings = S3_TEST;
  let driver: S3StorageDriver;
  beforeAll(async () => {
    driver = new S3StorageDriver(settings);
    await driver.client.send(new HeadBucketCommand({ Bucket: settings.bucket })).catch(async () => {
      await driver.client.send(new CreateBucketCommand({ Bucket: settings.bucket }));
    });
    return () => driver.close();
  });
  describeStorageDriver(`S3-compatible at ${settings.endpoint}`, () => driver);
}
