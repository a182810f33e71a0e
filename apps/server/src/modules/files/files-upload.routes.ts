import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  FILES_UPLOAD_PATH,
  isSafeText,
  STORAGE_ERRORS,
  UPLOAD_FILE_PATH_HEADER,
  UPLOAD_METADATA_KEYS,
  type StorageErrorCode,
} from '@omnibot/contracts';
import { Server as TusServer, type Upload } from '@tus/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerRequest } from 'srvx';
import { NodeRequest, sendNodeResponse } from 'srvx/node';
import { AppError } from '../../lib/errors';
import { actorId, type Principal } from '../../lib/principal';
import { isUploadId, normalizeName, normalizeStoragePath } from '../../storage/path';
import { SNIFF_BYTES, sniffContentType } from '../../storage/sniff';
import type { Identity } from '../auth/principal';
import { requireFilesPrincipal } from './files.guard';
import {
  assertCanWrite,
  commitUpload,
  findUpload,
  forgetUpload,
  reserveUpload,
  type FilesDeps,
} from './files.service';

/** The principal Fastify resolved for a request, handed to the tus hooks (which see only the raw request). */
const principals = new WeakMap<IncomingMessage, Principal>();

function principalOf(request: ServerRequest): Principal {
  const raw = request.runtime?.node?.req as IncomingMessage | undefined;
  const principal = raw ? principals.get(raw) : undefined;
  if (!principal) throw new AppError(401, 'storage/unauthenticated', 'Sign in to continue.');
  return principal;
}

const STATUS_CODES: Record<number, StorageErrorCode> = {
  400: 'storage/invalid-argument',
  401: 'storage/unauthenticated',
  402: 'storage/quota-exceeded',
  403: 'storage/unauthorized',
  404: 'storage/object-not-found',
  409: 'storage/server-file-wrong-size',
  410: 'storage/object-not-found',
  412: 'storage/invalid-argument',
  413: 'storage/file-too-large',
  415: 'storage/invalid-argument',
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isBase64OfSafeText(value: string): boolean {
  try {
    return isSafeText(utf8.decode(Buffer.from(value, 'base64')));
  } catch {
    return false;
  }
}

/** Upload-Metadata values are base64 of text: invalid UTF-8, NUL or a lone surrogate is refused, never replaced. */
function assertMetadataText(header: string | string[] | undefined) {
  if (typeof header !== 'string') return;
  const values = header.split(',').map((pair) => pair.trim().split(' ')[1] ?? '');
  if (!values.every(isBase64OfSafeText)) {
    throw new AppError(
      400,
      'storage/invalid-argument',
      'Upload-Metadata values must be base64 of UTF-8 text without NUL characters.',
    );
  }
}

const jsonBody = (code: string, message: string) => JSON.stringify({ code, message });
const uploadNotFound = () => new AppError(404, 'storage/object-not-found', 'No upload exists at this URL.');

function isErrorBody(text: string): boolean {
  try {
    const parsed = JSON.parse(text) as { code?: unknown; message?: unknown };
    return typeof parsed.code === 'string' && typeof parsed.message === 'string';
  } catch {
    return false;
  }
}

function describeStatus(status: number, text: string): [code: string, message: string] {
  const code = STATUS_CODES[status] ?? 'storage/unknown';
  if (status >= 500) return [code, STORAGE_ERRORS['storage/unknown'].message];
  return [code, text || STORAGE_ERRORS[code].message];
}

/**
 * tus answers plain-text errors; ours are `{ code, message }` with a storage code. Protocol errors tus raises
 * itself keep their status (clients act on it) and get the code that matches it.
 */
async function asJsonError(response: Response): Promise<Response> {
  if (response.status < 400 || response.headers.get('content-type')?.startsWith('application/json')) {
    return response;
  }
  const text = (await response.text()).trim();
  const headers = new Headers(response.headers);
  // tus answers 501 for a protocol extension this server does not offer (Upload-Concat, Upload-Defer-Length):
  // that is a request the client must change, so it is a 400 with tus' own explanation.
  if (response.status === 501) {
    const body = jsonBody('storage/invalid-argument', text || 'This upload feature is not supported.');
    headers.set('content-type', 'application/json; charset=utf-8');
    headers.set('content-length', String(Buffer.byteLength(body)));
    return new Response(body, { status: 400, headers });
  }
  const body = isErrorBody(text) ? text : jsonBody(...describeStatus(response.status, text));
  headers.set('content-type', 'application/json; charset=utf-8');
  headers.set('content-length', String(Buffer.byteLength(body)));
  return new Response(body, { status: response.status, headers });
}

/** Reads the staged upload once: its sha256, its length and the first bytes for sniffing. */
async function inspect(stream: AsyncIterable<Buffer>) {
  const hash = createHash('sha256');
  const head: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk);
    size += chunk.length;
    if (headLength < SNIFF_BYTES) {
      head.push(chunk.subarray(0, SNIFF_BYTES - headLength));
      headLength += Math.min(chunk.length, SNIFF_BYTES - headLength);
    }
  }
  return { sha256: hash.digest('hex'), size, head: Buffer.concat(head) };
}

export function createTusServer(deps: FilesDeps, log: FastifyInstance['log']) {
  const { db, env, storage } = deps;
  const { staging } = storage;

  return new TusServer({
    path: FILES_UPLOAD_PATH,
    datastore: staging.datastore,
    maxSize: env.FILE_MAX_BYTES,
    exposedHeaders: [UPLOAD_FILE_PATH_HEADER],
    // Same-origin console; other origins would need CORS, which this server does not open.
    allowedOrigins: [],
    namingFunction: () => staging.storeIdOf(randomBytes(16).toString('hex')),
    getFileIdFromRequest: (_request, lastPath) =>
      lastPath !== undefined && isUploadId(lastPath) ? staging.storeIdOf(lastPath) : undefined,
    generateUrl: (_request, { path, id }) => `${path}/${staging.uploadIdOf(id)}`,

    // Every request on an existing upload: the id must belong to the caller's tenant, or it does not exist.
    async onIncomingRequest(request, storeId) {
      if (request.method === 'POST') return;
      const upload = await findUpload(db, staging.uploadIdOf(storeId));
      if (!upload || upload.tenantId !== principalOf(request).tenantId) throw uploadNotFound();
    },

    async onUploadCreate(request, upload) {
      const principal = principalOf(request);
      assertCanWrite(principal);
      if (upload.sizeIsDeferred || upload.size === undefined) {
        throw new AppError(400, 'storage/invalid-argument', 'Upload-Length is required.');
      }
      const metadata = upload.metadata ?? {};
      const name = normalizeName(metadata[UPLOAD_METADATA_KEYS.filename] ?? '');
      const folder = normalizeStoragePath(metadata[UPLOAD_METADATA_KEYS.folder] ?? '', { allowRoot: true });
      await reserveUpload(deps, {
        id: staging.uploadIdOf(upload.id),
        tenantId: principal.tenantId,
        folder,
        name,
        size: upload.size,
        uploadedBy: actorId(principal),
      });
      return {
        metadata: {
          ...metadata,
          [UPLOAD_METADATA_KEYS.filename]: name,
          [UPLOAD_METADATA_KEYS.folder]: folder,
        },
      };
    },

    async onUploadFinish(request, upload: Upload) {
      const principal = principalOf(request);
      const row = await findUpload(db, staging.uploadIdOf(upload.id));
      if (!row || row.tenantId !== principal.tenantId) throw uploadNotFound();
      const facts = await inspect(await staging.read(upload.id));
      if (facts.size !== row.size) {
        throw new AppError(
          409,
          'storage/server-file-wrong-size',
          'The upload does not have its declared size.',
        );
      }
      const file = await commitUpload(deps, row, upload.id, {
        sha256: facts.sha256,
        contentType: sniffContentType(facts.head, row.name),
      });
      return { headers: { [UPLOAD_FILE_PATH_HEADER]: encodeURIComponent(file.path) } };
    },

    onResponseError(_request, error) {
      if (error instanceof AppError) {
        return { status_code: error.statusCode, body: jsonBody(error.code, error.message) };
      }
      if (error instanceof Error) {
        log.error({ err: error }, 'upload failed');
        return {
          status_code: 500,
          body: jsonBody('storage/unknown', STORAGE_ERRORS['storage/unknown'].message),
        };
      }
      return undefined;
    },
  });
}

/**
 * tus at /v1/files/upload: Fastify authenticates (session or API credential), then tus gets the raw request.
 * Errors are `{ code, message }`; an upload id answers 404 to every tenant but its own.
 */
export async function filesUploadRoutes(
  app: FastifyInstance,
  deps: FilesDeps & { identity: Identity; tus: () => TusServer },
) {
  const { tus, db } = deps;
  const guard = requireFilesPrincipal(deps.identity);

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    reply.hijack();
    if (request.principal) principals.set(request.raw, request.principal);
    let response: Response;
    try {
      response = await asJsonError(
        await tus().handleWeb(new NodeRequest({ req: request.raw, res: reply.raw })),
      );
    } catch (error) {
      request.log.error({ err: error }, 'upload failed');
      response = new Response(jsonBody('storage/unknown', STORAGE_ERRORS['storage/unknown'].message), {
        status: 500,
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
    }
    if (request.method === 'DELETE' && response.status === 204) {
      const id = /\/([0-9a-f]{32})\/?(?:\?|$)/u.exec(request.url)?.[1];
      if (id) await forgetUpload(db, id);
    }
    response.headers.set('x-request-id', request.id);
    await sendNodeResponse(reply.raw, response);
  }

  await app.register(async (scope) => {
    // tus reads the body itself.
    scope.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
    const route = {
      method: ['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'] as Array<
        'POST' | 'HEAD' | 'PATCH' | 'DELETE' | 'OPTIONS'
      >,
      schema: { hide: true },
      preHandler: async (request: FastifyRequest) => {
        if (request.method !== 'OPTIONS') await guard(request);
        assertMetadataText(request.headers['upload-metadata']);
      },
      handler: handle,
    };
    scope.route({ ...route, url: FILES_UPLOAD_PATH });
    scope.route({ ...route, url: `${FILES_UPLOAD_PATH}/*` });
  });
}
