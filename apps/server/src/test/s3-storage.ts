import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { readdir, readFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/** The access key and secret of s3rver's default account. */
const S3RVER_KEY = 'S3RVER';

/**
 * The store the S3 tests talk to: the one S3_TEST_ENDPOINT names, else s3rver, an S3 server written in JavaScript,
 * started here on a free loopback port with its objects in a temporary folder, behind a small front that does what
 * S3 does and s3rver does not: ListParts, ListMultipartUploads and AbortMultipartUpload (tus uploads use them),
 * answered from s3rver's own upload folder; suffix ranges (`bytes=-N`); and presigned links checked as S3 checks
 * them (AWS Signature Version 4 in the query, and its expiry). Every other request passes through unchanged. The
 * driver speaks the S3 REST
 * protocol to it over HTTP, each request signed with AWS Signature Version 4; s3rver reads the signature's access
 * key, scope and payload hash but lets a mismatched signature through, since it canonicalises a bucket request's
 * path without the trailing slash the SDK signs ("/bucket" for "/bucket/").
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
  const front = await startS3Front(port, directory, S3RVER_KEY);
  return {
    settings: {
      endpoint: `http://127.0.0.1:${front.port}`,
      bucket,
      region: 'us-east-1',
      accessKeyId: S3RVER_KEY,
      secretAccessKey: S3RVER_KEY,
      forcePathStyle: true,
    },
    async close() {
      await front.close();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

const XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>';
const S3_NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/';
const xmlText = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function sendXml(response: ServerResponse, status: number, body: string) {
  response.writeHead(status, { 'content-type': 'application/xml' });
  response.end(`${XML_HEADER}${body}`);
}

const noSuchUpload = (response: ServerResponse, uploadId: string) =>
  sendXml(
    response,
    404,
    `<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${xmlText(uploadId)}</UploadId></Error>`,
  );

/** s3rver keeps an unfinished multipart upload in a folder of its bucket: `key`, then each part `<n>` and `<n>.md5`. */
const uploadFolder = (directory: string, bucket: string, uploadId: string) =>
  path.join(directory, bucket, '._S3rver_uploads', uploadId);

/** ListParts of the S3 API: every stored part of an unfinished upload, in part order, with its MD5 ETag and size. */
async function listParts(response: ServerResponse, folder: string, bucket: string, uploadId: string) {
  const key = await readFile(path.join(folder, 'key'), 'utf8').catch(() => null);
  if (key === null) return noSuchUpload(response, uploadId);
  const numbers = (await readdir(folder))
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .sort((a, b) => a - b);
  const parts = await Promise.all(
    numbers.map(async (number) => {
      const file = path.join(folder, String(number));
      const [info, md5] = await Promise.all([stat(file), readFile(`${file}.md5`, 'utf8')]);
      return `<Part><PartNumber>${number}</PartNumber><LastModified>${info.mtime.toISOString()}</LastModified><ETag>"${md5.trim()}"</ETag><Size>${info.size}</Size></Part>`;
    }),
  );
  sendXml(
    response,
    200,
    `<ListPartsResult xmlns="${S3_NAMESPACE}"><Bucket>${xmlText(bucket)}</Bucket><Key>${xmlText(key)}</Key>` +
      `<UploadId>${xmlText(uploadId)}</UploadId><PartNumberMarker>0</PartNumberMarker>` +
      `<NextPartNumberMarker>${numbers.at(-1) ?? 0}</NextPartNumberMarker><MaxParts>1000</MaxParts>` +
      `<IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`,
  );
}

/** Passes a request to s3rver as it came and its answer back as it went. */
function passThrough(request: IncomingMessage, response: ServerResponse, port: number) {
  const upstream = httpRequest(
    { host: '127.0.0.1', port, method: request.method, path: request.url, headers: request.headers },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    },
  );
  upstream.on('error', (error) => response.destroy(error));
  request.pipe(upstream);
}

/** ListMultipartUploads of the S3 API: the bucket's unfinished uploads with their keys and start times. */
async function listUploads(response: ServerResponse, directory: string, bucket: string) {
  const folder = path.join(directory, bucket, '._S3rver_uploads');
  const ids = await readdir(folder).catch(() => []);
  const uploads = await Promise.all(
    ids.map(async (id) => {
      const key = await readFile(path.join(folder, id, 'key'), 'utf8').catch(() => null);
      if (key === null) return '';
      const started = (await stat(path.join(folder, id, 'key'))).mtime.toISOString();
      return `<Upload><Key>${xmlText(key)}</Key><UploadId>${xmlText(id)}</UploadId><Initiated>${started}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`;
    }),
  );
  sendXml(
    response,
    200,
    `<ListMultipartUploadsResult xmlns="${S3_NAMESPACE}"><Bucket>${xmlText(bucket)}</Bucket>` +
      `<MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${uploads.join('')}</ListMultipartUploadsResult>`,
  );
}

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();
const rfc3986 = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Checks a presigned request as S3 does (AWS Signature Version 4 with the signature in the query): the canonical
 * request from the method, path, the other query parameters and the signed headers; the signing key from the secret,
 * date, region and service; then the expiry. Returns the S3 error code, or null when the request is valid.
 */
function presignedError(request: IncomingMessage, url: URL, secret: string): string | null {
  const query = url.searchParams;
  const signature = query.get('X-Amz-Signature') ?? '';
  const credential = (query.get('X-Amz-Credential') ?? '').split('/');
  const amzDate = query.get('X-Amz-Date') ?? '';
  const signedHeaders = (query.get('X-Amz-SignedHeaders') ?? '').split(';');
  const [, date = '', region = '', service = ''] = credential;
  const canonicalQuery = [...query.entries()]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
    .sort()
    .join('&');
  const canonicalHeaders = signedHeaders
    .map((name) => `${name}:${String(request.headers[name] ?? '').trim()}\n`)
    .join('');
  const canonicalRequest = [
    request.method,
    url.pathname,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders.join(';'),
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  const expected = Buffer.from(hmac(key, toSign).toString('hex'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'SignatureDoesNotMatch';
  const signedAt = Date.parse(
    amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
  );
  const expiresMs = Number(query.get('X-Amz-Expires') ?? '0') * 1000;
  return Number.isNaN(signedAt) || Date.now() > signedAt + expiresMs ? 'AccessDenied' : null;
}

/** A suffix range (`bytes=-N`) as the first-last range s3rver understands, from the object's size. */
async function resolveSuffixRange(request: IncomingMessage, port: number): Promise<void> {
  const suffix = /^bytes=-(\d+)$/.exec(String(request.headers.range ?? ''));
  if (!suffix) return;
  const size = await new Promise<number | null>((resolve) => {
    const head = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'HEAD',
        path: request.url,
        headers: { ...request.headers, range: '' },
      },
      (answer) => {
        answer.resume();
        resolve(answer.statusCode === 200 ? Number(answer.headers['content-length']) : null);
      },
    );
    head.on('error', () => resolve(null));
    head.end();
  });
  if (size === null || size === 0) return;
  request.headers.range = `bytes=${Math.max(0, size - Number(suffix[1]))}-${size - 1}`;
}

/** The front of s3rver: what S3 does and s3rver does not, done here; everything else, passed through. */
async function startS3Front(s3rverPort: number, directory: string, secret: string) {
  const front = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://front');
    const uploadId = url.searchParams.get('uploadId');
    const [bucket = '', ...rest] = url.pathname.slice(1).split('/');
    const onObject = rest.length > 0 && rest.join('/') !== '';
    const multipart = uploadId !== null && onObject && /^[\w-]+$/.test(uploadId);
    const fail = (error: unknown) => response.destroy(error as Error);
    if (url.searchParams.has('X-Amz-Signature')) {
      const error = presignedError(request, url, secret);
      if (error !== null) {
        request.resume();
        return sendXml(response, 403, `<Error><Code>${error}</Code><Message>${error}</Message></Error>`);
      }
    }
    if (multipart && request.method === 'GET') {
      request.resume();
      void listParts(response, uploadFolder(directory, bucket, uploadId), bucket, uploadId).catch(fail);
      return;
    }
    if (multipart && request.method === 'DELETE') {
      request.resume();
      const folder = uploadFolder(directory, bucket, uploadId);
      void stat(folder).then(
        () => rm(folder, { recursive: true, force: true }).then(() => response.writeHead(204).end()),
        () => noSuchUpload(response, uploadId),
      );
      return;
    }
    if (!onObject && url.searchParams.has('uploads') && request.method === 'GET') {
      request.resume();
      void listUploads(response, directory, bucket).catch(fail);
      return;
    }
    void resolveSuffixRange(request, s3rverPort).then(() => passThrough(request, response, s3rverPort), fail);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return {
    port: (front.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        front.closeAllConnections();
        front.close(() => resolve());
      }),
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
