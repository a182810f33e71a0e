import { bigint, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

/** A stored file; its bytes live in the storage driver at `tenants/<tenant_id>/<path>`. */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    /** Normalised full path inside the tenant's storage, e.g. "docs/report.pdf". */
    path: text('path').notNull(),
    /** The parent folder's path ('' for the root), for listing a folder by index. */
    folder: text('folder').notNull(),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    /** Sniffed from the bytes, never taken from the client. */
    contentType: text('content_type').notNull(),
    sha256: text('sha256').notNull(),
    uploadedBy: text('uploaded_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('files_tenant_path_idx').on(t.tenantId, t.path),
    index('files_tenant_folder_name_idx').on(t.tenantId, t.folder, t.name),
  ],
);

/** A folder (a prefix); kept as a row so that empty folders exist and list like the others. */
export const folders = pgTable(
  'folders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    parent: text('parent').notNull(),
    name: text('name').notNull(),
    createdBy: text('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('folders_tenant_path_idx').on(t.tenantId, t.path),
    index('folders_tenant_parent_name_idx').on(t.tenantId, t.parent, t.name),
  ],
);

/** An unfinished tus upload: who owns its id, where it goes, and its declared length (counted in the quota). */
export const fileUploads = pgTable(
  'file_uploads',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    folder: text('folder').notNull(),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    uploadedBy: text('uploaded_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('file_uploads_tenant_idx').on(t.tenantId), index('file_uploads_expires_idx').on(t.expiresAt)],
);

export type FileRow = typeof files.$inferSelect;
export type FolderRow = typeof folders.$inferSelect;
export type FileUploadRow = typeof fileUploads.$inferSelect;
