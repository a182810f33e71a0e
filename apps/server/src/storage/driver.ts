import type { Readable } from 'node:stream';
import { AppError } from '../lib/errors';
import type { ObjectKey } from './path';

export interface ObjectInfo {
  key: ObjectKey;
  size: number;
  modifiedAt: Date;
}

/** Inclusive byte offsets, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface ObjectStream {
  stream: Readable;
  /** Size of the whole object. */
  size: number;
  /** Set when a range was asked for. */
  range?: ByteRange;
}

export interface SignedUrlOptions {
  expiresAt: Date;
  /** File name offered to the browser. */
  filename: string;
  contentType: string;
  /** Shown in the browser (images, audio, PDF) or downloaded as an attachment. */
  inline: boolean;
}

/**
 * Where file bytes live: the local file system or an S3-compatible store. Keys are made only by the functions
 * of ./path (tenant objects under `tenants/<tenant_id>/`); readers such as knowledge ingestion use
 * `get(tenantObjectKey(tenantId, path))`.
 */
export interface StorageDriver {
  readonly kind: 'local' | 's3';
  /** Writes an object (replacing any); answers the bytes written. */
  put(
    key: ObjectKey,
    body: Readable | Buffer,
    options?: { size?: number; contentType?: string },
  ): Promise<number>;
  /** Moves a local file into the store (the source is consumed); cheap on the local driver. */
  importFile(localPath: string, key: ObjectKey, options?: { contentType?: string }): Promise<void>;
  /** Reads an object, or the given byte range of it; 404 storage/object-not-found when missing. */
  get(key: ObjectKey, range?: ByteRange): Promise<ObjectStream>;
  stat(key: ObjectKey): Promise<ObjectInfo | null>;
  /** Deletes one object; missing objects are not an error. */
  delete(key: ObjectKey): Promise<void>;
  /** Deletes every object under a prefix (which must end with '/'); answers how many. */
  deletePrefix(prefix: ObjectKey): Promise<number>;
  /** Every object under a prefix, recursively, in no particular order. */
  list(prefix: ObjectKey): AsyncIterable<ObjectInfo>;
  copy(from: ObjectKey, to: ObjectKey): Promise<void>;
  move(from: ObjectKey, to: ObjectKey): Promise<void>;
  /** Moves every object under `from` to the same relative key under `to` (both end with '/'). */
  movePrefix(from: ObjectKey, to: ObjectKey): Promise<void>;
  /** A URL that downloads the object without a session until `expiresAt`. */
  signedUrl(key: ObjectKey, options: SignedUrlOptions): Promise<string>;
  close(): void;
}

export const objectNotFound = (message = 'No file exists at this path.') =>
  new AppError(404, 'storage/object-not-found', message);

export function assertPrefix(prefix: string) {
  if (!prefix.endsWith('/') || prefix.length < 2) throw new Error(`not a prefix: ${prefix}`);
}

/** `Content-Disposition` with an ASCII fallback name and the UTF-8 name (RFC 6266 / 8187). */
export function contentDisposition(inline: boolean, filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/gu, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/gu,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${inline ? 'inline' : 'attachment'}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
