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
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { principalOf } from '../../plugins/principal';
import { contentDisposition, type ByteRange } from '../../storage/driver';
import { tenantObjectKey } from '../../storage/path';
import {
  DOWNLOAD_PATH,
  type UrlSigner,
  type WidgetImageSigner,
  widgetImagePath,
} from '../../storage/url-signer';
import { servableBot } from '../bots/bots.service';
import type { Auth } from '../auth/auth';
import { isTenantUsable } from '../tenancy/tenant-usable';
import { requireFilesPrincipal } from './files.guard';
import { isInlineType, presentFile, presentFolder } from './files.presenter';
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
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
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

function securityHeaders(reply: FastifyReply, contentType: string, inline: boolean) {
  reply.header('x-content-type-options', 'nosniff');
  if (contentType === 'application/pdf') {
    // Chrome's PDF viewer does not run in a sandboxed document.
    reply.header('content-security-policy', "default-src 'none'; object-src 'self'; frame-ancestors 'self'");
  } else if (inline) {
    reply.header(
      'content-security-policy',
      "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
    );
  } else {
    // SVG, HTML and everything else: a document that cannot run script or reach our origin even if opened.
    reply.header('content-security-policy', "default-src 'none'; sandbox");
  }
  // Signed image and audio links may be embedded by other origins (the widget's launcher icons, avatars).
  reply.header('cross-origin-resource-policy', inline ? 'cross-origin' : 'same-origin');
}

/** The kinds of file a bot may show publicly through a permanent link. */
export const isWidgetImageType = (contentType: string) =>
  contentType.startsWith('image/') || contentType.startsWith('audio/');

const WidgetImageQuerySchema = z.strictObject({
  path: z.string().min(1).max(1024),
  signature: z.string().min(1).max(128),
});

export function filesRoutes(
  app: FastifyInstance,
  deps: FilesDeps & { auth: Auth; signer: UrlSigner; widgetImages: WidgetImageSigner },
) {
  const { auth, db, storage, signer, widgetImages } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = requireFilesPrincipal(auth, db);
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
      securityHeaders(reply, file.contentType, inline);
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

  r.get(
    widgetImagePath(':botId'),
    {
      schema: {
        tags: ['widget'],
        summary: "An image or sound a bot's widget shows, through a permanent signed link (no session)",
        params: z.object({ botId: z.string() }),
        querystring: WidgetImageQuerySchema,
        response: { 200: z.unknown(), 304: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { botId } = request.params;
      const { path, signature } = request.query;
      if (!widgetImages.verify(botId, path, signature)) {
        throw new AppError(403, 'storage/unauthorized', 'This image link is not valid.');
      }
      // Served only while the bot is: a disabled bot or organisation shows nothing.
      const bot = await servableBot(db, botId);
      if (!bot) throw new AppError(404, 'storage/object-not-found', 'This image is not available.');
      const file = await getFile(deps, bot.tenantId, path);
      if (!isWidgetImageType(file.contentType)) {
        throw new AppError(404, 'storage/object-not-found', 'This image is not available.');
      }
      const inline = isInlineType(file.contentType);
      const etag = `"${file.sha256}"`;
      securityHeaders(reply, file.contentType, inline);
      // Host pages on other sites show these (the launcher icon); an SVG in an img element runs nothing.
      reply.header('cross-origin-resource-policy', 'cross-origin');
      reply.header('etag', etag).header('cache-control', 'public, max-age=300, must-revalidate');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      const object = await storage.driver.get(tenantObjectKey(file.tenantId, file.path));
      return reply
        .header('content-type', file.contentType)
        .header('content-length', file.size)
        .header('content-disposition', contentDisposition(inline, file.name))
        .send(object.stream);
    },
  );
}
