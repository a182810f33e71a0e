import {
  FileItemSchema,
  FileListingSchema,
  isImage,
  LIST_PAGE_SIZE_MAX,
  StorageUsageSchema,
  type FileItem,
  type FileListing,
  type FolderItem,
} from '@omnibot/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../api-client';

/** Query keys of the files API; invalidating `filesKeys.all` refreshes every listing and the usage. */
export const filesKeys = {
  all: ['files'] as const,
  folder: (path: string) => ['files', 'folder', path] as const,
  subfolders: (path: string) => ['files', 'subfolders', path] as const,
  usage: ['files', 'usage'] as const,
  images: (folder: string | null) => ['files', 'images', folder] as const,
  allFolders: ['files', 'all-folders'] as const,
  unfinishedUploads: (tenantId: string) => ['files', 'unfinished-uploads', tenantId] as const,
};

/** A folder listing is read in whole up to this many pages of 1000 (more is reported as truncated). */
export const MAX_LISTING_PAGES = 10;
/** "All folders" image search visits at most this many folders. */
export const MAX_FOLDERS_WALKED = 200;

interface Signal {
  signal?: AbortSignal;
}

export const getFolderPage = (
  query: { path: string; cursor?: string; page_size?: number },
  { signal }: Signal = {},
): Promise<FileListing> =>
  api.get('/v1/files', {
    query: { path: query.path, cursor: query.cursor, page_size: query.page_size ?? LIST_PAGE_SIZE_MAX },
    schema: FileListingSchema,
    signal,
  });

interface FolderContents {
  folders: FolderItem[];
  files: FileItem[];
  /** True when the folder held more than MAX_LISTING_PAGES pages and the rest was not read. */
  isTruncated: boolean;
}

/** Every subfolder and file of one folder, following the cursor (folders come first, each by name). */
async function listFolder(path: string, { signal }: Signal = {}): Promise<FolderContents> {
  const contents: FolderContents = { folders: [], files: [], isTruncated: false };
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LISTING_PAGES; page += 1) {
    const listing = await getFolderPage({ path, cursor }, { signal });
    contents.folders.push(...listing.prefixes);
    contents.files.push(...listing.items);
    if (!listing.next_cursor) return contents;
    cursor = listing.next_cursor;
  }
  contents.isTruncated = true;
  return contents;
}

/** Only the subfolders of a folder: the server lists folders before files, so the first file ends them. */
async function listSubfolders(path: string, { signal }: Signal = {}): Promise<FolderItem[]> {
  const folders: FolderItem[] = [];
  let cursor: string | undefined;
  for (;;) {
    const listing = await getFolderPage({ path, cursor }, { signal });
    folders.push(...listing.prefixes);
    if (!listing.next_cursor || listing.items.length > 0) return folders;
    cursor = listing.next_cursor;
  }
}

interface ImageList {
  images: FileItem[];
  /** True when not every folder could be visited (MAX_FOLDERS_WALKED) or a folder was too large. */
  isTruncated: boolean;
}

/**
 * The images (by extension, case-sensitive) of one folder, or of every folder when
 * `folder` is null. The API lists one folder at a time, so "every folder" walks the tree breadth-first.
 */
async function listImages(folder: string | null, { signal }: Signal = {}): Promise<ImageList> {
  if (folder !== null) {
    const contents = await listFolder(folder, { signal });
    return { images: contents.files.filter((file) => isImage(file.name)), isTruncated: contents.isTruncated };
  }
  const images: FileItem[] = [];
  let isTruncated = false;
  let pending = [''];
  let visited = 0;
  while (pending.length > 0) {
    const room = MAX_FOLDERS_WALKED - visited;
    if (room <= 0) {
      isTruncated = true;
      break;
    }
    const batch = pending.slice(0, Math.min(4, room));
    pending = pending.slice(batch.length);
    visited += batch.length;
    const results = await Promise.all(batch.map((path) => listFolder(path, { signal })));
    for (const contents of results) {
      images.push(...contents.files.filter((file) => isImage(file.name)));
      pending.push(...contents.folders.map((sub) => sub.path));
      isTruncated ||= contents.isTruncated;
    }
  }
  images.sort((a, b) => a.path.localeCompare(b.path));
  return { images, isTruncated };
}

interface FolderList {
  /** Every folder's path, parents before their children, each level by name. */
  paths: string[];
  isTruncated: boolean;
}

/** Every folder of the tenant (breadth-first, at most MAX_FOLDERS_WALKED), for folder choosers. */
async function listAllFolders({ signal }: Signal = {}): Promise<FolderList> {
  const paths: string[] = [];
  let pending = [''];
  let visited = 0;
  while (pending.length > 0) {
    const room = MAX_FOLDERS_WALKED - visited;
    if (room <= 0) return { paths, isTruncated: true };
    const batch = pending.slice(0, Math.min(4, room));
    pending = pending.slice(batch.length);
    visited += batch.length;
    const results = await Promise.all(batch.map((path) => listSubfolders(path, { signal })));
    for (const folders of results) {
      paths.push(...folders.map((folder) => folder.path));
      pending.push(...folders.map((folder) => folder.path));
    }
  }
  return { paths, isTruncated: false };
}

const getUsage = ({ signal }: Signal = {}) =>
  api.get('/v1/files/usage', { schema: StorageUsageSchema, signal });

/** One file with a freshly signed download URL (valid for the server's full link lifetime). */
export const getFileObject = (path: string, { signal }: Signal = {}) =>
  api.get('/v1/files/object', { query: { path }, schema: FileItemSchema, signal });

export const getFolderQueryOptions = (path: string) =>
  queryOptions({ queryKey: filesKeys.folder(path), queryFn: ({ signal }) => listFolder(path, { signal }) });

export const getSubfoldersQueryOptions = (path: string) =>
  queryOptions({
    queryKey: filesKeys.subfolders(path),
    queryFn: ({ signal }) => listSubfolders(path, { signal }),
  });

export const getUsageQueryOptions = () =>
  queryOptions({ queryKey: filesKeys.usage, queryFn: ({ signal }) => getUsage({ signal }) });

export const getImagesQueryOptions = (folder: string | null) =>
  queryOptions({
    queryKey: filesKeys.images(folder),
    queryFn: ({ signal }) => listImages(folder, { signal }),
  });

export const getAllFoldersQueryOptions = () =>
  queryOptions({ queryKey: filesKeys.allFolders, queryFn: ({ signal }) => listAllFolders({ signal }) });
