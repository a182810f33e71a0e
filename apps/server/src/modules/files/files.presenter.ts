import type { FastifyReply } from 'fastify';
import { extensionOf, type FileItem, type FolderItem } from '@omnibot/contracts';
import type { FileRow, FolderRow } from '../../db/schema';

// Shown in the browser: raster images, audio and PDF. Everything else downloads; SVG and HTML never render
// from our origin.
const INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'audio/mpeg',
  'audio/wav',
  'application/pdf',
]);

export const isInlineType = (contentType: string) => INLINE_TYPES.has(contentType);

export function presentFile(row: FileRow, url: string): FileItem {
  return {
    name: row.name,
    url,
    type: extensionOf(row.name),
    size: row.size,
    content_type: row.contentType,
    path: row.path,
    created_at: row.createdAt.toISOString(),
  };
}

export function presentFolder(row: Pick<FolderRow, 'name' | 'path'>): FolderItem {
  return { name: row.name, path: row.path, isFolder: true };
}

/** The headers that keep a served file from running anything or being embedded where it should not be. */
export function fileSecurityHeaders(reply: FastifyReply, contentType: string, inline: boolean) {
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
