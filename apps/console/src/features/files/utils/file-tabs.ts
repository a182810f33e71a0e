import { FILE_CATEGORY_FILTERS, type FileCategory, type FileItem } from '@omnibot/contracts';

export type FileTab = 'all' | FileCategory;

/** The File Manager's tabs; each category uses exactly the contracts' filter. */
export const FILE_TABS: readonly { value: FileTab; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'images', label: 'Images' },
  { value: 'audio', label: 'Audio' },
  { value: 'documents', label: 'Documents' },
];

export const parseFileTab = (value: string | null): FileTab =>
  FILE_TABS.find((tab) => tab.value === value)?.value ?? 'all';

/** The files a tab lists: all of them, or those its category filter accepts by name. */
export function filesForTab<T extends Pick<FileItem, 'name'>>(files: readonly T[], tab: FileTab): T[] {
  if (tab === 'all') return [...files];
  const accepts = FILE_CATEGORY_FILTERS[tab];
  return files.filter((file) => accepts(file.name));
}
