import { FileItemSchema, FileListingSchema, FolderItemSchema } from '@omnibot/contracts';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { describe, expect, it } from 'vitest';
import type { FileRow, FolderRow } from '../../db/schema';
import { presentFile, presentFolder } from './files.presenter';

/** The response serializer the app installs, for a schema the /v1/files routes declare. */
const serialize = (schema: ZodType, data: unknown): Record<string, unknown> =>
  JSON.parse(
    serializerCompiler({ schema, method: 'GET', url: '/v1/files', httpStatus: '200' })(data),
  ) as Record<string, unknown>;

const fileRow: FileRow = {
  id: '7d0f3b8e-4b8a-4a8e-9a57-1f2f5c1e9b10',
  tenantId: 'abcdefghjkmn',
  path: 'docs/report.pdf',
  folder: 'docs',
  name: 'report.pdf',
  size: 1234,
  contentType: 'application/pdf',
  sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  uploadedBy: 'user-1',
  createdAt: new Date('2026-01-02T03:04:05.000Z'),
  updatedAt: new Date('2026-01-02T03:04:05.000Z'),
};
const folderRow: Pick<FolderRow, 'name' | 'path'> = { name: 'docs', path: 'docs' };

// A presenter that one day spreads a whole row (or a new column) must still answer only the listed keys.
const leaky = <T extends object>(item: T) => ({
  ...item,
  tenant_id: fileRow.tenantId,
  sha256: fileRow.sha256,
});

describe('files responses carry only the listed keys', () => {
  it('drops an extra column from a file, a folder and a listing', () => {
    const file = presentFile(fileRow, 'https://files.example/report.pdf');
    const folder = presentFolder(folderRow);
    expect(serialize(FileItemSchema, leaky(file))).toEqual(file);
    expect(serialize(FolderItemSchema, leaky(folder))).toEqual(folder);
    expect(
      serialize(FileListingSchema, { items: [leaky(file)], prefixes: [leaky(folder)], next_cursor: null }),
    ).toEqual({ items: [file], prefixes: [folder], next_cursor: null });
  });

  it('presents a file with exactly the contract keys', () => {
    expect(Object.keys(presentFile(fileRow, 'u')).sort()).toEqual(Object.keys(FileItemSchema.shape).sort());
    expect(Object.keys(presentFolder(folderRow)).sort()).toEqual(Object.keys(FolderItemSchema.shape).sort());
  });
});
