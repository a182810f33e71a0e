import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, HeadBucketCommand } from '@aws-sdk/client-s3';
import S3rver from '@20minutes/s3rver';
import { S3StorageDriver, type S3Settings } from '../storage/s3-driver';
import { defined } from './defined';

/** An S3-compatible store for the tests, and how to stop it. */
export interface S3TestStore {
  settings: S3Settings;
  close(): Promise<void>;
}

/** The S3-compatible server S3_TEST_ENDPOINT names, e.g. MinIO (README, "Files"), or null. */
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
  'NOTICE: S3_TEST_ENDPOINT is not set; the file routes run on the local file system only (tus uploads to S3 need ' +
  'multipart uploads with ListParts, which s3rver lacks; see README, "Files"). The S3 storage driver suite runs ' +
  'against s3rver.';

/** The access key and secret of s3rver's default account. */
const S3RVER_KEY = 'S3RVER';

/**
 * The store the S3 storage driver suite talks to: the one S3_TEST_ENDPOINT names, else s3rver, an S3 server written
 * in JavaScript, started here on a free loopback port with its objects in a temporary folder. The driver speaks the
 * S3 REST protocol to it over HTTP, each request signed with AWS Signature Version 4; s3rver reads the signature's
 * access key, scope and payload hash but lets a mismatched signature through, since it canonicalises a bucket
 * request's path without the trailing slash the SDK signs ("/bucket" for "/bucket/").
 *   S3_TEST_ENDPOINT=http://127.0.0.1:9000 [S3_TEST_BUCKET=omnibot-test S3_TEST_ACCESS_KEY_ID=minioadmin
 *   S3_TEST_SECRET_ACCESS_KEY=minioadmin S3_TEST_REGION=us-east-1] npx vitest run src/storage src/modules/files
 */
export async function startS3TestStore(): Promise<S3TestStore> {
  if (S3_TEST) return { settings: S3_TEST, close: () => Promise.resolve() };
  const directory = await mkdtemp(path.join(tmpdir(), 'omnibot-s3rver-'));
  const bucket = 'omnibot-test';
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    allowMismatchedSignatures: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    settings: {
      endpoint: `http://127.0.0.1:${port}`,
      bucket,
      region: 'us-east-1',
      accessKeyId: S3RVER_KEY,
      secretAccessKey: S3RVER_KEY,
      forcePathStyle: true,
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

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
