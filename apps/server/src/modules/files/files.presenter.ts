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
