import { randomBytes } from 'node:crypto';
import { SafeTextSchema } from '@omnibot/contracts';
import { and, asc, eq, gt, lte, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import {
  fileUploads,
  files,
  folders,
  systemSettings,
  type FileRow,
  type FileUploadRow,
} from '../../db/schema';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import { theRow } from '../../lib/rows';
import { actorId, type Principal } from '../../lib/principal';
import type { Storage } from '../../storage';
import { objectNotFound } from '../../storage/driver';
import {
  baseNameOf,
  joinPath,
  normalizeName,
  normalizeStoragePath,
  parentOf,
  tenantFolderPrefix,
  tenantObjectKey,
} from '../../storage/path';
import { isInlineType } from './files.presenter';

export interface FilesDeps {
  db: Db;
  storage: Storage;
  env: Env;
}

const alreadyExists = (message = 'A file or folder with this name already exists.') =>
  new AppError(409, 'storage/already-exists', message);
const folderNotFound = () => objectNotFound('No folder exists at this path.');
const forbiddenWrite = () =>
  new AppError(403, 'storage/unauthorized', 'Your role may read files but not change them.');

/** Agents answer chats: they may read the tenant's files but not change them. */
export function assertCanWrite(principal: Principal) {
  if (principal.role === 'agent') throw forbiddenWrite();
}

/** The secret that signs local download URLs: generated once per installation, kept in system_settings. */
export async function loadFilesUrlSecret(db: Db): Promise<string> {
  await db
    .insert(systemSettings)
    .values({ key: 'files_url_secret', value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const row = theRow(
    await db.select().from(systemSettings).where(eq(systemSettings.key, 'files_url_secret')),
  );
  return row.value;
}

// Arbitrary first key of the two-key advisory lock that serialises a tenant's metadata changes.
const LOCK_NAMESPACE = 70_105;

/** Runs `work` in a transaction holding the tenant's files lock: names are checked and taken atomically. */
async function withTenantLock<T>(db: Db, tenantId: string, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(${sql.raw(String(LOCK_NAMESPACE))}, hashtext(${tenantId}))`,
    );
    return work(tx);
  });
}

const startsWith = (column: SQL | typeof files.path, prefix: string) =>
  sql`starts_with(${column}, ${prefix})`;

async function fileAt(db: Db, tenantId: string, path: string): Promise<FileRow | undefined> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.tenantId, tenantId), eq(files.path, path)));
  return row;
}

async function folderExists(db: Db, tenantId: string, path: string): Promise<boolean> {
  if (path === '') return true;
  const [row] = await db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.tenantId, tenantId), eq(folders.path, path)));
  return row !== undefined;
}

/** A name in a folder belongs to one file or one folder (a local file system could not hold both). */
async function isTaken(db: Db, tenantId: string, path: string): Promise<boolean> {
  return (await fileAt(db, tenantId, path)) !== undefined || (await folderExists(db, tenantId, path));
}

/** Creates `folder` and its missing ancestors; 409 when a file holds one of those names. */
async function ensureFolders(db: Db, tenantId: string, folder: string, actor: string | null) {
  if (folder === '') return;
  const segments = folder.split('/');
  for (let i = 1; i <= segments.length; i += 1) {
    const path = segments.slice(0, i).join('/');
    if (await fileAt(db, tenantId, path)) throw alreadyExists(`A file named "${path}" is in the way.`);
    await db
      .insert(folders)
      .values({ tenantId, path, parent: parentOf(path), name: baseNameOf(path), createdBy: actor })
      .onConflictDoNothing();
  }
}

/** `name`, or "name (1).ext", "name (2).ext", ... whichever is free in `folder`. */
async function freePath(db: Db, tenantId: string, folder: string, name: string): Promise<string> {
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 0; n < 10_000; n += 1) {
    const candidate = n === 0 ? name : normalizeName(`${stem} (${n})${extension}`);
    const path = joinPath(folder, candidate);
    if (!(await isTaken(db, tenantId, path))) return path;
  }
  throw alreadyExists('Too many files with this name.');
}

/** Stored files plus the declared lengths of unfinished uploads that have not expired. */
async function usedBytes(db: Db, tenantId: string): Promise<number> {
  const [stored] = await db
    .select({ total: sql<string>`coalesce(sum(${files.size}), 0)` })
    .from(files)
    .where(eq(files.tenantId, tenantId));
  const [pending] = await db
    .select({ total: sql<string>`coalesce(sum(${fileUploads.size}), 0)` })
    .from(fileUploads)
    .where(and(eq(fileUploads.tenantId, tenantId), gt(fileUploads.expiresAt, new Date())));
  return Number(stored?.total ?? 0) + Number(pending?.total ?? 0);
}

export async function storageUsage(deps: FilesDeps, tenantId: string) {
  return {
    used_bytes: await usedBytes(deps.db, tenantId),
    quota_bytes: deps.env.TENANT_QUOTA_BYTES,
    max_file_bytes: deps.env.FILE_MAX_BYTES,
  };
}

// Listing: folders first, then files, each by name; the cursor is the last name returned and its kind.
const CursorSchema = z.object({ k: z.enum(['d', 'f']), n: SafeTextSchema.max(1024).nullable() }).strict();
type Cursor = z.infer<typeof CursorSchema>;

const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');
/** Only a cursor this server could have written is accepted: its shape, and the exact bytes it encodes to. */
function decodeCursor(raw: string | undefined): Cursor | null {
  if (raw === undefined || raw === '') return null;
  const parsed = CursorSchema.safeParse(parseJsonOrNull(Buffer.from(raw, 'base64url').toString('utf8')));
  if (!parsed.success || encodeCursor(parsed.data) !== raw) {
    throw new AppError(400, 'storage/invalid-argument', 'The cursor is not valid.');
  }
  return parsed.data;
}

function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export async function listFolder(
  deps: FilesDeps,
  tenantId: string,
  query: { path: string; cursor?: string; page_size: number },
) {
  const { db } = deps;
  const folder = normalizeStoragePath(query.path, { allowRoot: true });
  const cursor = decodeCursor(query.cursor);
  if (!(await folderExists(db, tenantId, folder))) throw folderNotFound();
  const size = query.page_size;

  let folderRows: Array<typeof folders.$inferSelect> = [];
  if (!cursor || cursor.k === 'd') {
    folderRows = await db
      .select()
      .from(folders)
      .where(
        and(
          eq(folders.tenantId, tenantId),
          eq(folders.parent, folder),
          cursor?.n != null ? gt(folders.name, cursor.n) : undefined,
        ),
      )
      .orderBy(asc(folders.name))
      .limit(size + 1);
    if (folderRows.length > size) {
      const page = folderRows.slice(0, size);
      return {
        folders: page,
        files: [],
        nextCursor: encodeCursor({ k: 'd', n: theRow(page.slice(-1)).name }),
      };
    }
  }
  const room = size - folderRows.length;
  const after = cursor?.k === 'f' ? cursor.n : null;
  const fileRows = await db
    .select()
    .from(files)
    .where(
      and(
        eq(files.tenantId, tenantId),
        eq(files.folder, folder),
        after !== null ? gt(files.name, after) : undefined,
      ),
    )
    .orderBy(asc(files.name))
    .limit(room + 1);
  const page = fileRows.slice(0, room);
  const nextCursor =
    fileRows.length > room ? encodeCursor({ k: 'f', n: page.at(-1)?.name ?? after ?? null }) : null;
  return { folders: folderRows, files: page, nextCursor };
}

export async function getFile(
  deps: Pick<FilesDeps, 'db'>,
  tenantId: string,
  rawPath: string,
): Promise<FileRow> {
  const file = await fileAt(deps.db, tenantId, normalizeStoragePath(rawPath));
  if (!file) throw objectNotFound();
  return file;
}

/** A download URL for a file, valid for FILE_URL_TTL_SECONDS. */
export function signedUrlFor(deps: FilesDeps, file: FileRow): Promise<string> {
  return deps.storage.driver.signedUrl(tenantObjectKey(file.tenantId, file.path), {
    expiresAt: new Date(Date.now() + deps.env.FILE_URL_TTL_SECONDS * 1000),
    filename: file.name,
    contentType: file.contentType,
    inline: isInlineType(file.contentType),
  });
}

export async function createFolder(deps: FilesDeps, principal: Principal, rawPath: string) {
  assertCanWrite(principal);
  const path = normalizeStoragePath(rawPath);
  const { tenantId } = principal;
  return withTenantLock(deps.db, tenantId, async (tx) => {
    if (await isTaken(tx, tenantId, path)) throw alreadyExists();
    await ensureFolders(tx, tenantId, path, actorId(principal));
    return theRow(
      await tx
        .select()
        .from(folders)
        .where(and(eq(folders.tenantId, tenantId), eq(folders.path, path))),
    );
  });
}

/** Replaces the `from` prefix of a column's value with `to` (the value is `from` or starts with `from/`). */
const reprefix = (column: SQL | typeof files.path, from: string, to: string) =>
  sql`${to} || substr(${column}, ${from.length + 1})`;

async function moveFolderRows(db: Db, tenantId: string, from: string, to: string) {
  await db
    .update(folders)
    .set({
      path: reprefix(sql`${folders.path}`, from, to),
      parent: sql`case when ${folders.path} = ${from} then ${parentOf(to)} else ${reprefix(sql`${folders.parent}`, from, to)} end`,
      name: sql`case when ${folders.path} = ${from} then ${baseNameOf(to)} else ${folders.name} end`,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(folders.tenantId, tenantId),
        or(eq(folders.path, from), startsWith(sql`${folders.path}`, `${from}/`)),
      ),
    );
  await db
    .update(files)
    .set({
      path: reprefix(sql`${files.path}`, from, to),
      folder: reprefix(sql`${files.folder}`, from, to),
      updatedAt: new Date(),
    })
    .where(and(eq(files.tenantId, tenantId), startsWith(sql`${files.path}`, `${from}/`)));
}

export async function renameFolder(
  deps: FilesDeps,
  principal: Principal,
  body: { path: string; name: string },
) {
  assertCanWrite(principal);
  const from = normalizeStoragePath(body.path);
  const to = joinPath(parentOf(from), normalizeName(body.name));
  const { tenantId } = principal;
  const { db, storage } = deps;
  await withTenantLock(db, tenantId, async (tx) => {
    if (!(await folderExists(tx, tenantId, from))) throw folderNotFound();
    if (to === from) return;
    if (await isTaken(tx, tenantId, to)) throw alreadyExists();
    await moveFolderRows(tx, tenantId, from, to);
  });
  if (to !== from) {
    try {
      await storage.driver.movePrefix(tenantFolderPrefix(tenantId, from), tenantFolderPrefix(tenantId, to));
    } catch (error) {
      await withTenantLock(db, tenantId, (tx) => moveFolderRows(tx, tenantId, to, from));
      throw error;
    }
  }
  return { name: baseNameOf(to), path: to };
}

export async function deleteFolder(
  deps: FilesDeps,
  principal: Principal,
  query: { path: string; recursive: boolean },
) {
  assertCanWrite(principal);
  const path = normalizeStoragePath(query.path);
  const { tenantId } = principal;
  await withTenantLock(deps.db, tenantId, async (tx) => {
    if (!(await folderExists(tx, tenantId, path))) throw folderNotFound();
    const [child] = await tx
      .select({ id: folders.id })
      .from(folders)
      .where(and(eq(folders.tenantId, tenantId), eq(folders.parent, path)))
      .limit(1);
    const [file] = await tx
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.tenantId, tenantId), eq(files.folder, path)))
      .limit(1);
    if ((child || file) && !query.recursive) {
      throw new AppError(
        409,
        'storage/folder-not-empty',
        'The folder is not empty; pass recursive=true to delete it.',
      );
    }
    await tx
      .delete(files)
      .where(and(eq(files.tenantId, tenantId), startsWith(sql`${files.path}`, `${path}/`)));
    await tx
      .delete(folders)
      .where(
        and(
          eq(folders.tenantId, tenantId),
          or(eq(folders.path, path), startsWith(sql`${folders.path}`, `${path}/`)),
        ),
      );
  });
  await deps.storage.driver.deletePrefix(tenantFolderPrefix(tenantId, path));
}

/** Renames or moves one file; the bytes follow the row, and the row goes back if they cannot. */
async function relocateFile(
  deps: FilesDeps,
  principal: Principal,
  rawPath: string,
  target: (tx: Db, file: FileRow) => Promise<string>,
): Promise<FileRow> {
  assertCanWrite(principal);
  const path = normalizeStoragePath(rawPath);
  const { tenantId } = principal;
  const { db, storage } = deps;
  const moved = await withTenantLock(db, tenantId, async (tx) => {
    const file = await fileAt(tx, tenantId, path);
    if (!file) throw objectNotFound();
    const to = await target(tx, file);
    if (to === file.path) return { before: file, after: file };
    const after = theRow(
      await tx
        .update(files)
        .set({ path: to, folder: parentOf(to), name: baseNameOf(to), updatedAt: new Date() })
        .where(eq(files.id, file.id))
        .returning(),
    );
    return { before: file, after };
  });
  const { before, after } = moved;
  if (after.path !== before.path) {
    try {
      await storage.driver.move(
        tenantObjectKey(tenantId, before.path),
        tenantObjectKey(tenantId, after.path),
      );
    } catch (error) {
      await db
        .update(files)
        .set({ path: before.path, folder: before.folder, name: before.name })
        .where(eq(files.id, before.id));
      throw error;
    }
  }
  return after;
}

/** Renames a file inside its folder; 409 when the new name is taken. */
export function renameFile(deps: FilesDeps, principal: Principal, body: { path: string; name: string }) {
  const name = normalizeName(body.name);
  return relocateFile(deps, principal, body.path, async (tx, file) => {
    const to = joinPath(file.folder, name);
    if (to !== file.path && (await isTaken(tx, principal.tenantId, to))) throw alreadyExists();
    return to;
  });
}

/** Moves a file into an existing folder; a name already there gets a " (1)" suffix, as an upload would. */
export function moveFile(deps: FilesDeps, principal: Principal, body: { path: string; folder: string }) {
  const folder = normalizeStoragePath(body.folder, { allowRoot: true });
  return relocateFile(deps, principal, body.path, async (tx, file) => {
    if (folder === file.folder) return file.path;
    if (!(await folderExists(tx, principal.tenantId, folder))) throw folderNotFound();
    return freePath(tx, principal.tenantId, folder, file.name);
  });
}

export async function deleteFile(deps: FilesDeps, principal: Principal, rawPath: string) {
  assertCanWrite(principal);
  const path = normalizeStoragePath(rawPath);
  const { tenantId } = principal;
  const [deleted] = await deps.db
    .delete(files)
    .where(and(eq(files.tenantId, tenantId), eq(files.path, path)))
    .returning();
  if (!deleted) throw objectNotFound();
  await deps.storage.driver.delete(tenantObjectKey(tenantId, path));
}

export interface UploadReservation {
  id: string;
  tenantId: string;
  folder: string;
  name: string;
  size: number;
  uploadedBy: string | null;
}

/** Counts a new upload against the quota (402 when it does not fit) and records who owns its id. */
export async function reserveUpload(deps: FilesDeps, upload: UploadReservation) {
  const { db, env } = deps;
  await withTenantLock(db, upload.tenantId, async (tx) => {
    for (let path = upload.folder; path !== ''; path = parentOf(path)) {
      if (await fileAt(tx, upload.tenantId, path))
        throw alreadyExists(`A file named "${path}" is in the way.`);
    }
    const used = await usedBytes(tx, upload.tenantId);
    if (used + upload.size > env.TENANT_QUOTA_BYTES) {
      throw new AppError(
        402,
        'storage/quota-exceeded',
        `This upload does not fit in your organisation's storage quota (${used} of ${env.TENANT_QUOTA_BYTES} bytes used).`,
      );
    }
    await tx.insert(fileUploads).values({
      ...upload,
      expiresAt: new Date(Date.now() + env.UPLOAD_EXPIRY_HOURS * 3600 * 1000),
    });
  });
}

export async function findUpload(db: Db, uploadId: string): Promise<FileUploadRow | undefined> {
  const [row] = await db.select().from(fileUploads).where(eq(fileUploads.id, uploadId));
  return row;
}

export async function forgetUpload(db: Db, uploadId: string) {
  await db.delete(fileUploads).where(eq(fileUploads.id, uploadId));
}

/**
 * Turns a finished upload into a file: takes a free name (" (1)" on collision), records the metadata, then
 * moves the bytes to the tenant's object key. If the bytes cannot move, the upload is restored for a retry.
 */
export async function commitUpload(
  deps: FilesDeps,
  upload: FileUploadRow,
  storeId: string,
  facts: { sha256: string; contentType: string },
): Promise<FileRow> {
  const { db, storage } = deps;
  const { tenantId } = upload;
  const file = await withTenantLock(db, tenantId, async (tx) => {
    await ensureFolders(tx, tenantId, upload.folder, upload.uploadedBy);
    const path = await freePath(tx, tenantId, upload.folder, upload.name);
    const row = theRow(
      await tx
        .insert(files)
        .values({
          tenantId,
          path,
          folder: upload.folder,
          name: baseNameOf(path),
          size: upload.size,
          contentType: facts.contentType,
          sha256: facts.sha256,
          uploadedBy: upload.uploadedBy,
        })
        .returning(),
    );
    await tx.delete(fileUploads).where(eq(fileUploads.id, upload.id));
    return row;
  });
  try {
    await storage.staging.commit(storeId, tenantObjectKey(tenantId, file.path), facts.contentType);
  } catch (error) {
    await db.delete(files).where(eq(files.id, file.id));
    await db.insert(fileUploads).values(upload).onConflictDoNothing();
    throw error;
  }
  return file;
}

/** Deletes unfinished uploads past their expiry: their staged bytes and their rows (which free the quota). */
export async function sweepExpiredUploads(deps: FilesDeps): Promise<number> {
  const { db, storage } = deps;
  const expired = await db
    .select({ id: fileUploads.id })
    .from(fileUploads)
    .where(lte(fileUploads.expiresAt, new Date()))
    .limit(1000);
  for (const { id } of expired) {
    await storage.staging.discard(storage.staging.storeIdOf(id));
    await forgetUpload(db, id);
  }
  return expired.length;
}
