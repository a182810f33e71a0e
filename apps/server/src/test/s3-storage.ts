import { CreateBucketCommand, HeadBucketCommand } from '@aws-sdk/client-s3';
import { S3StorageDriver, type S3Settings } from '../storage/s3-driver';
import { defined } from './defined';

// The S3 half of the storage tests runs only against a real S3-compatible server, e.g. MinIO (README, "Files"):
//   S3_TEST_ENDPOINT=http://127.0.0.1:9000 [S3_TEST_BUCKET=omnibot-test S3_TEST_ACCESS_KEY_ID=minioadmin
//   S3_TEST_SECRET_ACCESS_KEY=minioadmin S3_TEST_REGION=us-east-1] npx vitest run src/storage src/modules/files
export const S3_TEST: S3Settings | null = process.env.S3_TEST_ENDPOINT
  ? {
      endpoint: process.env.S3_TEST_ENDPOINT,
      bucket: process.env.S3_TEST_BUCKET ?? 'omnibot-test',
      region: process.env.S3_TEST_REGION ?? 'us-east-1',
      accessKeyId: process.env.S3_TEST_ACCESS_KEY_ID ?? 'minioadmin',
      secretAccessKey: process.env.S3_TEST_SECRET_ACCESS_KEY ?? 'minioadmin',
      forcePathStyle: true,
    }
  : null;

export const S3_SKIP_NOTICE =
  'NOTICE: S3_TEST_ENDPOINT is not set; the S3-compatible part of the storage tests is skipped (see README, "Files").';

/** The server's S3_* variables for the test store. */
export function s3TestEnv(settings: S3Settings): Record<string, string> {
  return {
    S3_ENDPOINT: defined(settings.endpoint),
    S3_BUCKET: settings.bucket,
    S3_REGION: settings.region,
    S3_ACCESS_KEY_ID: defined(settings.accessKeyId),
    S3_SECRET_ACCESS_KEY: defined(settings.secretAccessKey),
    S3_FORCE_PATH_STYLE: 'true',
  };
}

/** A driver on the test bucket, creating the bucket when it is missing. */
export async function openS3TestDriver(settings: S3Settings): Promise<S3StorageDriver> {
  const driver = new S3StorageDriver(settings);
  await driver.client.send(new HeadBucketCommand({ Bucket: settings.bucket })).catch(async () => {
    await driver.client.send(new CreateBucketCommand({ Bucket: settings.bucket }));
  });
  return driver;
}
