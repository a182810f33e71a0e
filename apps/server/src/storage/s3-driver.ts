import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  assertPrefix,
  contentDisposition,
  objectNotFound,
  type ByteRange,
  type ObjectInfo,
  type ObjectStream,
  type SignedUrlOptions,
  type StorageDriver,
} from './driver';
import type { ObjectKey } from './path';

export interface S3Settings {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** Client options shared by the driver and @tus/s3-store. */
export function s3ClientConfig(settings: S3Settings): S3ClientConfig {
  return {
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
    // Many S3-compatible stores reject the SDK's default streaming checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

const isNotFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
};

const copySource = (bucket: string, key: string) =>
  `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;

/** Objects in one bucket of any S3-compatible store (AWS, MinIO, ...), through the AWS SDK v3. */
export class S3StorageDriver implements StorageDriver {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;

  constructor(settings: S3Settings) {
    this.client = new S3Client(s3ClientConfig(settings));
    this.bucket = settings.bucket;
  }

  async put(
    key: ObjectKey,
    body: Readable | Buffer,
    options: { size?: number; contentType?: string } = {},
  ): Promise<number> {
    if (Buffer.isBuffer(body)) {
      await this.putObject(key, body, body.length, options.contentType);
      return body.length;
    }
    if (options.size !== undefined) {
      await this.putObject(key, body, options.size, options.contentType);
      return options.size;
    }
    // PutObject needs the length up front: spool a stream of unknown length to a temporary file.
    const temp = path.join(tmpdir(), `omnibot-s3-${randomBytes(12).toString('hex')}`);
    try {
      await pipeline(body, createWriteStream(temp));
      const { size } = await fs.stat(temp);
      await this.putObject(key, createReadStream(temp), size, options.contentType);
      return size;
    } finally {
      await fs.rm(temp, { force: true });
    }
  }

  private async putObject(key: ObjectKey, body: Readable | Buffer, size: number, contentType?: string) {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentLength: size,
        ...(contentType ? { ContentType: contentType } : {}),
      }),
    );
  }

  async importFile(localPath: string, key: ObjectKey, options: { contentType?: string } = {}) {
    const { size } = await fs.stat(localPath);
    await this.putObject(key, createReadStream(localPath), size, options.contentType);
    await fs.rm(localPath, { force: true });
  }

  async get(key: ObjectKey, range?: ByteRange): Promise<ObjectStream> {
    try {
      const response = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const total = /\/(\d+)$/u.exec(response.ContentRange ?? '')?.[1];
      const size = total !== undefined ? Number(total) : (response.ContentLength ?? 0);
      return { stream: response.Body as Readable, size, ...(range ? { range } : {}) };
    } catch (error) {
      if (isNotFound(error)) throw objectNotFound();
      throw error;
    }
  }

  async stat(key: ObjectKey): Promise<ObjectInfo | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: ObjectKey): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deleteKeys(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
        }),
      );
    }
  }

  async deletePrefix(prefix: ObjectKey): Promise<number> {
    assertPrefix(prefix);
    const keys: string[] = [];
    for await (const object of this.list(prefix)) keys.push(object.key);
    await this.deleteKeys(keys);
    return keys.length;
  }

  async *list(prefix: ObjectKey): AsyncIterable<ObjectInfo> {
    assertPrefix(prefix);
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield {
          key: object.Key as ObjectKey,
          size: object.Size ?? 0,
          modifiedAt: object.LastModified ?? new Date(0),
        };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async copy(from: ObjectKey, to: ObjectKey): Promise<void> {
    try {
      await this.client.send(
        new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: copySource(this.bucket, from) }),
      );
    } catch (error) {
      if (isNotFound(error)) throw objectNotFound();
      throw error;
    }
  }

  async move(from: ObjectKey, to: ObjectKey): Promise<void> {
    await this.copy(from, to);
    await this.delete(from);
  }

  async movePrefix(from: ObjectKey, to: ObjectKey): Promise<void> {
    assertPrefix(from);
    assertPrefix(to);
    const keys: ObjectKey[] = [];
    for await (const object of this.list(from)) keys.push(object.key);
    for (const key of keys) await this.move(key, `${to}${key.slice(from.length)}` as ObjectKey);
  }

  async signedUrl(key: ObjectKey, options: SignedUrlOptions): Promise<string> {
    const expiresIn = Math.max(1, Math.floor((options.expiresAt.getTime() - Date.now()) / 1000));
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        ResponseContentType: options.contentType,
        ResponseContentDisposition: contentDisposition(options.inline, options.filename),
      }),
      { expiresIn },
    );
  }

  close() {
    this.client.destroy();
  }
}
