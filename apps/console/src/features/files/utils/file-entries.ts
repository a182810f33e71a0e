import type { FileItem, FolderItem } from '@omnibot/contracts';

/** One row of a folder listing: a subfolder or a file. */
export type FileEntry = { kind: 'folder'; folder: FolderItem } | { kind: 'file'; file: FileItem };

export type EntrySortColumn = 'name' | 'type' | 'size' | 'created';
export interface EntrySort {
  column: EntrySortColumn;
  direction: 'asc' | 'desc';
}

export const entryName = (entry: FileEntry) =>
  entry.kind === 'folder' ? entry.folder.name : entry.file.name;
export const entryPath = (entry: FileEntry) =>
  entry.kind === 'folder' ? entry.folder.path : entry.file.path;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function compareFiles(a: FileItem, b: FileItem, column: EntrySortColumn): number {
  switch (column) {
    case 'type':
      return collator.compare(a.type, b.type);
    case 'size':
      return a.size - b.size;
    case 'created':
      return a.created_at.localeCompare(b.created_at);
    case 'name':
      return 0;
  }
}

/**
 * Folders first (by name), then files that match every word of `query` in their name, in the chosen order
 * (ties by name). Folders are searched by name too.
 */
export function arrangeEntries(
  folders: readonly FolderItem[],
  files: readonly FileItem[],
  query: string,
  sort: EntrySort,
): FileEntry[] {
  const words = query.trim().toLowerCase().split(/\s+/u).filter(Boolean);
  const matches = (name: string) => words.every((word) => name.toLowerCase().includes(word));
  const factor = sort.direction === 'asc' ? 1 : -1;
  const folderEntries = folders
    .filter((folder) => matches(folder.name))
    .sort((a, b) => collator.compare(a.name, b.name) * (sort.column === 'name' ? factor : 1))
    .map((folder): FileEntry => ({ kind: 'folder', folder }));
  const fileEntries = files
    .filter((file) => matches(file.name))
    .sort((a, b) => (compareFiles(a, b, sort.column) || collator.compare(a.name, b.name)) * factor)
    .map((file): FileEntry => ({ kind: 'file', file }));
  return [...folderEntries, ...fileEntries];
}
