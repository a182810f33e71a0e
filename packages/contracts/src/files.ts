import { z } from 'zod';
import { isSafeText, SAFE_TEXT_MESSAGE, safeString } from './text';

/** The tus endpoint; an upload's own URL is this path plus `/<id>`. */
export const FILES_UPLOAD_PATH = '/v1/files/upload';
/** `Upload-Metadata` keys the server reads; the tenant never comes from metadata. */
export const UPLOAD_METADATA_KEYS = { filename: 'filename', folder: 'folder', filetype: 'filetype' } as const;
/** Response header of the finishing PATCH: the stored path (URL-encoded), after any " (1)" suffix. */
export const UPLOAD_FILE_PATH_HEADER = 'x-file-path';

export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'svg', 'webp'] as const;
const AUDIO_EXTENSIONS = ['mp3', 'wav'] as const;
/** Extensions the Documents listing leaves out; it keeps every other name, images and audio included. */
const NON_DOCUMENT_EXTENSIONS = ['txt', 'doc'] as const;

/**
 * A file's extension: the text after the last dot of the name (the last path
 * segment), exactly as written. A name without a dot has the extension ''.
 */
export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot === -1 ? '' : base.slice(dot + 1);
}

const hasExtension = (list: readonly string[], name: string) => list.includes(extensionOf(name));

/** Images tab and gallery: jpg, jpeg, png, gif, bmp, svg, webp; case-sensitive ("A.PNG" is not one). */
export const isImage = (name: string): boolean => hasExtension(IMAGE_EXTENSIONS, name);
/** Audio tab: mp3 and wav; case-sensitive. */
export const isAudio = (name: string): boolean => hasExtension(AUDIO_EXTENSIONS, name);
/** Documents tab: every name except those ending in .txt or .doc (case-sensitive, so ".TXT" stays). */
export const isDocument = (name: string): boolean => !hasExtension(NON_DOCUMENT_EXTENSIONS, name);

export type FileCategory = 'images' | 'audio' | 'documents';
export const FILE_CATEGORY_FILTERS: Record<FileCategory, (name: string) => boolean> = {
  images: isImage,
  audio: isAudio,
  documents: isDocument,
};

/** Storage error codes with the HTTP status the server answers; null = client-side only. */
export const STORAGE_ERRORS = {
  'storage/unknown': { status: 500, message: 'An unknown storage error occurred.' },
  'storage/object-not-found': { status: 404, message: 'No file or folder exists at this path.' },
  'storage/bucket-not-found': { status: 404, message: 'The storage bucket does not exist.' },
  'storage/quota-exceeded': { status: 402, message: 'The storage quota of your organisation is used up.' },
  'storage/unauthenticated': { status: 401, message: 'Sign in to continue.' },
  'storage/unauthorized': { status: 403, message: 'You are not allowed to do this.' },
  'storage/unauthorized-app': { status: 403, message: 'This application may not use storage.' },
  'storage/retry-limit-exceeded': { status: null, message: 'The retry time limit was exceeded.' },
  'storage/canceled': { status: null, message: 'The operation was cancelled.' },
  'storage/invalid-url': { status: 400, message: 'The URL is not valid.' },
  'storage/invalid-argument': { status: 400, message: 'The request is not valid.' },
  'storage/no-download-url': { status: 404, message: 'The file has no download URL.' },
  'storage/server-file-wrong-size': {
    status: 409,
    message: 'The stored file does not have the expected size; try the upload again.',
  },
  // Beyond the public storage codes.
  'storage/file-too-large': { status: 413, message: 'The file is larger than the maximum allowed size.' },
  'storage/already-exists': { status: 409, message: 'A file or folder with this name already exists.' },
  'storage/folder-not-empty': {
    status: 409,
    message: 'The folder is not empty; confirm to delete it with its contents.',
  },
} as const satisfies Record<string, { status: number | null; message: string }>;
export type StorageErrorCode = keyof typeof STORAGE_ERRORS;

/** A path inside the tenant's storage, e.g. "docs/2026/report.pdf" ('' is the root folder). */
const StoragePathSchema = safeString().max(4096);
const NameSchema = safeString().min(1).max(1024);

/** Longest file or folder name the server stores, in UTF-8 bytes. */
const FILE_NAME_MAX_BYTES = 255;
// Same character classes as the server's path normaliser: controls, bidi and zero-width marks, slash look-alikes.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NAME_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u;
const NAME_SLASHES = /[/\\\u2215\u2044\u29f8\u29f9\ufe68\uff0f\uff3c]/u;

/**
 * One file or folder name as a form checks it before the server does (which applies the same rules):
 * no slashes, not "." or "..", no drive letter, control characters or percent-encoding, at most 255 UTF-8 bytes.
 */
export const FileNameSchema = z
  .string()
  .trim()
  .min(1, 'Enter a name')
  .refine((name) => !NAME_SLASHES.test(name), 'A name may not contain a slash or a backslash')
  .refine((name) => !/^[.\s]+$/u.test(name.normalize('NFKC')), 'A name may not be "." or ".."')
  .refine((name) => !NAME_FORBIDDEN.test(name), 'A name may not contain control characters')
  .refine(isSafeText, SAFE_TEXT_MESSAGE)
  .refine((name) => !/%(?:[0-9a-f]{2}|u[0-9a-f]{4})/iu.test(name), 'A name may not contain "%" codes')
  .refine((name) => !/^[a-z]:/iu.test(name.normalize('NFKC')), 'A name may not start with a drive letter')
  .refine(
    (name) => new TextEncoder().encode(name).length <= FILE_NAME_MAX_BYTES,
    `A name may be at most ${FILE_NAME_MAX_BYTES} bytes long`,
  );

/** A file in a folder listing. Only the listed keys reach a response: any other column is dropped. */
export const FileItemSchema = z.object({
  name: z.string(),
  /** A download URL signed for a limited time. */
  url: z.string(),
  /** The file extension: the text after the last dot, '' without one. */
  type: z.string(),
  size: z.number().int().nonnegative(),
  content_type: z.string(),
  path: z.string(),
  created_at: z.string(),
});
export type FileItem = z.infer<typeof FileItemSchema>;

/** A folder in a listing; `path` is its full path inside the tenant's storage. */
export const FolderItemSchema = z.object({
  name: z.string(),
  path: z.string(),
  isFolder: z.literal(true),
});
export type FolderItem = z.infer<typeof FolderItemSchema>;

export const FileListingSchema = z.object({
  items: z.array(FileItemSchema),
  prefixes: z.array(FolderItemSchema),
  /** Pass back as `cursor` for the next page; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type FileListing = z.infer<typeof FileListingSchema>;

const LIST_PAGE_SIZE_MIN = 1;
export const LIST_PAGE_SIZE_MAX = 1000;

export const FileListQuerySchema = z.object({
  path: StoragePathSchema.default(''),
  cursor: safeString().max(2048).optional(),
  page_size: z.coerce.number().int().min(LIST_PAGE_SIZE_MIN).max(LIST_PAGE_SIZE_MAX).default(100),
});

export const FilePathQuerySchema = z.object({ path: StoragePathSchema });

export const StorageUsageSchema = z.object({
  /** Stored files plus the declared lengths of unfinished uploads. */
  used_bytes: z.number().int().nonnegative(),
  quota_bytes: z.number().int().nonnegative(),
  max_file_bytes: z.number().int().nonnegative(),
});
export type StorageUsage = z.infer<typeof StorageUsageSchema>;

export const CreateFolderBodySchema = z.object({ path: StoragePathSchema });
export type CreateFolderBody = z.infer<typeof CreateFolderBodySchema>;

/** Renames the file or folder at `path` to `name` inside the same parent folder. */
export const RenameBodySchema = z.object({ path: StoragePathSchema, name: NameSchema });
export type RenameBody = z.infer<typeof RenameBodySchema>;

/** Moves the file at `path` into `folder` ('' = root), keeping its name (or a " (1)" variant). */
export const MoveFileBodySchema = z.object({ path: StoragePathSchema, folder: StoragePathSchema });
export type MoveFileBody = z.infer<typeof MoveFileBodySchema>;

const booleanQuery = z.enum(['true', 'false']).transform((value) => value === 'true');

/** Deleting a non-empty folder needs `recursive=true` (the console asks for confirmation first). */
export const DeleteFolderQuerySchema = z.object({
  path: StoragePathSchema,
  recursive: booleanQuery.default(false),
});
