import { AppError } from '../lib/errors';

const MAX_SEGMENT_BYTES = 255;
const MAX_PATH_BYTES = 1024;

/** A key in the object store. Only the functions below make one, so a raw client string never reaches a driver. */
export type ObjectKey = string & { readonly __objectKey: unique symbol };

const invalid = (message: string) => new AppError(400, 'storage/invalid-argument', message);

// C0 and C1 controls, DEL, bidi overrides and isolates (they can disguise an extension), zero-width marks.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FORBIDDEN_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/u;
// Characters that some layer may read as a slash or backslash.
const SLASH_LOOKALIKES = /[\\\u2215\u2044\u29f8\u29f9\ufe68\uff0f\uff3c]/u;
// Percent-encoding, also the %uXXXX form: a path arrives decoded exactly once, so any that is left is an attack
// (or double encoding) and is never decoded a second time.
const PERCENT_ENCODED = /%(?:[0-9a-f]{2}|u[0-9a-f]{4})/iu;
const DRIVE_LETTER = /^[a-z]:/iu;

/**
 * The one place a client path becomes a storage path: "docs/2026/report.pdf", NFC-normalised, or '' for the
 * root when `allowRoot`. Rejects (400 storage/invalid-argument) '.' and '..' segments (also in full-width or
 * other compatibility forms), empty segments, absolute and drive paths, backslashes and slash look-alikes,
 * percent-encoded sequences, NUL and control characters, segments over 255 bytes and paths over 1024 bytes.
 * One trailing slash is tolerated ("docs/" is "docs").
 */
export function normalizeStoragePath(input: unknown, options: { allowRoot?: boolean } = {}): string {
  if (typeof input !== 'string') throw invalid('The path must be a string.');
  if (input === '') {
    if (options.allowRoot) return '';
    throw invalid('A path is required.');
  }
  if (FORBIDDEN_CHARACTERS.test(input)) throw invalid('The path contains a control character.');
  if (PERCENT_ENCODED.test(input)) throw invalid('The path may not contain percent-encoded characters.');
  if (SLASH_LOOKALIKES.test(input)) throw invalid('The path may not contain backslashes.');
  if (input.startsWith('/')) throw invalid('The path must be relative (no leading slash).');
  const trimmed = input.endsWith('/') ? input.slice(0, -1) : input;
  const normalized = trimmed.normalize('NFC');
  const segments = normalized.split('/');
  for (const segment of segments) checkSegment(segment);
  if (Buffer.byteLength(normalized, 'utf8') > MAX_PATH_BYTES) {
    throw invalid(`The path is longer than ${MAX_PATH_BYTES} bytes.`);
  }
  return normalized;
}

function checkSegment(segment: string) {
  if (segment === '') throw invalid('The path has an empty segment.');
  const compatible = segment.normalize('NFKC');
  if (/^[.\s]+$/u.test(compatible)) throw invalid('A path segment may not be "." or "..".');
  if (DRIVE_LETTER.test(compatible)) throw invalid('A path segment may not start with a drive letter.');
  if (compatible.includes('/') || compatible.includes('\\')) {
    throw invalid('A path segment may not contain a slash.');
  }
  if (Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES) {
    throw invalid(`A name is longer than ${MAX_SEGMENT_BYTES} bytes.`);
  }
}

/** A single file or folder name (one segment). */
export function normalizeName(input: unknown): string {
  const name = normalizeStoragePath(input);
  if (name.includes('/')) throw invalid('A name may not contain a slash.');
  return name;
}

export const parentOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
export const baseNameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
export const joinPath = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);

const TENANT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/u;

function checkTenant(tenantId: string) {
  // Tenant ids come from the principal, never from a client; this guards the prefix all the same.
  if (!TENANT_ID.test(tenantId)) throw new Error(`unsafe tenant id for a storage key: ${tenantId}`);
}

/** `tenants/<tenant_id>/`: everything a tenant stores lives below it. */
export function tenantPrefix(tenantId: string): ObjectKey {
  checkTenant(tenantId);
  return `tenants/${tenantId}/` as ObjectKey;
}

/** The key of a file; `path` goes through normalizeStoragePath again, so it cannot leave the prefix. */
export function tenantObjectKey(tenantId: string, path: string): ObjectKey {
  return `${tenantPrefix(tenantId)}${normalizeStoragePath(path)}` as ObjectKey;
}

/** The prefix of a folder's contents ('' = the whole tenant). */
export function tenantFolderPrefix(tenantId: string, folder: string): ObjectKey {
  const normalized = normalizeStoragePath(folder, { allowRoot: true });
  return `${tenantPrefix(tenantId)}${normalized ? `${normalized}/` : ''}` as ObjectKey;
}

/** Tenant and path of a tenant object key; null for any other key. */
export function parseTenantKey(key: string): { tenantId: string; path: string } | null {
  const [, tenantId, path] = /^tenants\/([^/]+)\/(.+)$/u.exec(key) ?? [];
  if (tenantId === undefined || path === undefined || !TENANT_ID.test(tenantId)) return null;
  return { tenantId, path };
}

/** A tus upload id as we name them: 32 hex characters. */
export const isUploadId = (id: string) => /^[0-9a-f]{32}$/u.test(id);

/** Where unfinished tus uploads are staged in an object store (outside every tenant prefix). */
export function uploadStagingKey(uploadId: string): ObjectKey {
  if (!isUploadId(uploadId)) throw new Error(`unsafe upload id: ${uploadId}`);
  return `uploads/${uploadId}` as ObjectKey;
}
