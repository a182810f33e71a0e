import {
  CreateFolderBodySchema,
  DeleteFolderQuerySchema,
  ErrorBodySchema,
  FileItemSchema,
  FileListingSchema,
  FileListQuerySchema,
  FilePathQuerySchema,
  FolderItemSchema,
  MoveFileBodySchema,
  RenameBodySchema,
  StorageUsageSchema,
} from '@omnibot/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { principalOf } from '../../lib/principal';
import { contentDisposition, type ByteRange } from '../../storage/driver';
import { tenantObjectKey } from '../../storage/path';
import { DOWNLOAD_PATH, type UrlSigner } from '../../storage/url-signer';
import type { Identity } from '../auth/principal';
import { isTenantUsable } from '../tenancy/tenant-usable';
import { requireFilesPrincipal } from './files.guard';
import { fileSecurityHeaders, isInlineType, presentFile, presentFolder } from './files.presenter';
import {
  createFolder,
  deleteFile,
  deleteFolder,
  getFile,
  listFolder,
  moveFile,
  renameFile,
  renameFolder,
  signedUrlFor,
  storageUsage,
  type FilesDeps,
} from './files.service';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
};

const DownloadQuerySchema = z.object({
  tenant: z.string().min(1).max(64),
  path: z.string().min(1).max(4096),
  expires: z.coerce.number().int().nonnegative(),
  signature: z.string().min(1).max(128),
});

/** One `bytes=` range against a size: null = serve the whole file, 'unsatisfiable' = 416. */
function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/u.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (size === 0) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}

/** The kinds of file a bot may show publicly through a permanent link. */
export const isWidgetImageType = (contentType: string) =>
  contentType.startsWith('image/') || contentType.startsWith('audio/');

export function filesRoutes(
  app: FastifyInstance,
  deps: FilesDeps & { identity: Identity; signer: UrlSigner },
) {
  const { db, storage, signer } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = requireFilesPrincipal(deps.identity);
  const tags = ['files'];
  const withUrl = async (row: Parameters<typeof signedUrlFor>[1]) =>
    presentFile(row, await signedUrlFor(deps, row));

  r.get(
    '/v1/files',
    {
      preHandler,
      schema: {
        tags,
        summary: 'A folder: its subfolders first, then its files, by name, cursor-paged',
        querystring: FileListQuerySchema,
        response: { 200: FileListingSchema, ...errors },
      },
    },
    async (request) => {
      const page = await listFolder(deps, principalOf(request).tenantId, request.query);
      return {
        items: await Promise.all(page.files.map(withUrl)),
        prefixes: page.folders.map(presentFolder),
        next_cursor: page.nextCursor,
      };
    },
  );

  r.get(
    '/v1/files/usage',
    {
      preHandler,
      schema: {
        tags,
        summary: "The tenant's storage used and its quota",
        response: { 200: StorageUsageSchema, ...errors },
      },
    },
    async (request) => storageUsage(deps, principalOf(request).tenantId),
  );

  r.get(
    '/v1/files/object',
    {
      preHandler,
      schema: {
        tags,
        summary: 'One file with a fresh download URL',
        querystring: FilePathQuerySchema,
        response: { 200: FileItemSchema, ...errors },
      },
    },
    async (request) => withUrl(await getFile(deps, principalOf(request).tenantId, request.query.path)),
  );

  r.patch(
    '/v1/files',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Rename a file inside its folder',
        body: RenameBodySchema,
        response: { 200: FileItemSchema, ...errors },
      },
    },
    async (request) => withUrl(await renameFile(deps, principalOf(request), request.body)),
  );

  r.post(
    '/v1/files/move',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Move a file into another folder (a taken name gets a " (1)" suffix)',
        body: MoveFileBodySchema,
        response: { 200: FileItemSchema, ...errors },
      },
    },
    async (request) => withUrl(await moveFile(deps, principalOf(request), request.body)),
  );

  r.delete(
    '/v1/files',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Delete a file',
        querystring: FilePathQuerySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteFile(deps, principalOf(request), request.query.path);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/v1/files/folders',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Create a folder (and its missing parents)',
        body: CreateFolderBodySchema,
        response: { 201: FolderItemSchema, ...errors },
      },
    },
    async (request, reply) => {
      const folder = await createFolder(deps, principalOf(request), request.body.path);
      return reply.code(201).send(presentFolder(folder));
    },
  );

  r.patch(
    '/v1/files/folders',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Rename a folder; its contents follow',
        body: RenameBodySchema,
        response: { 200: FolderItemSchema, ...errors },
      },
    },
    async (request) => presentFolder(await renameFolder(deps, principalOf(request), request.body)),
  );

  r.delete(
    '/v1/files/folders',
    {
      preHandler,
      schema: {
        tags,
        summary: 'Delete a folder; with contents only when recursive=true',
        querystring: DeleteFolderQuerySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteFolder(deps, principalOf(request), request.query);
      return reply.code(204).send(null);
    },
  );

  r.get(
    DOWNLOAD_PATH,
    {
      schema: {
        tags,
        summary: 'File bytes through a signed link (no session); Range supported',
        querystring: DownloadQuerySchema,
        response: { 200: z.unknown(), 206: z.unknown(), 304: z.null(), ...errors, 416: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const check = signer.verify(query);
      if (check !== 'ok') {
        throw new AppError(
          403,
          'storage/unauthorized',
          check === 'expired' ? 'This download link has expired.' : 'This download link is not valid.',
        );
      }
      // A signed link stops working as soon as its tenant (or an ancestor) is deactivated, not at expiry.
      if (!(await isTenantUsable(db, query.tenant))) {
        throw new AppError(403, 'storage/unauthorized', 'This organisation is deactivated.');
      }
      const file = await getFile(deps, query.tenant, query.path);
      const inline = isInlineType(file.contentType);
      const etag = `"${file.sha256}"`;
      fileSecurityHeaders(reply, file.contentType, inline);
      reply.header('etag', etag);
      reply.header('accept-ranges', 'bytes');
      reply.header(
        'cache-control',
        `private, max-age=${Math.max(0, query.expires - Math.floor(Date.now() / 1000))}`,
      );
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);

      const range = parseRange(request.headers.range, file.size);
      if (range === 'unsatisfiable') {
        reply.header('content-range', `bytes */${file.size}`);
        throw new AppError(416, 'storage/invalid-argument', 'The requested range is not satisfiable.', {
          'content-range': `bytes */${file.size}`,
        });
      }
      const object = await storage.driver.get(tenantObjectKey(file.tenantId, file.path), range ?? undefined);
      reply.header(
        'content-type',
        file.contentType.startsWith('text/') ? `${file.contentType}; charset=utf-8` : file.contentType,
      );
      reply.header('content-disposition', contentDisposition(inline, file.name));
      if (range) {
        reply.code(206);
        reply.header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
        reply.header('content-length', range.end - range.start + 1);
      } else {
        reply.header('content-length', file.size);
      }
      return reply.send(object.stream);
    },
  );
}
