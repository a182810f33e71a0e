import type { FileItem } from '@omnibot/contracts';

export type ImageSort = 'name' | 'newest' | 'largest';

export const IMAGE_SORTS: { value: ImageSort; label: string }[] = [
  { value: 'name', label: 'Name' },
  { value: 'newest', label: 'Newest first' },
  { value: 'largest', label: 'Largest first' },
];

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Images whose name or folder contains every word of `query`, in the chosen order (a sorted copy). */
export function arrangeImages(images: readonly FileItem[], query: string, sort: ImageSort): FileItem[] {
  const words = query.trim().toLowerCase().split(/\s+/u).filter(Boolean);
  const found = images.filter((image) => words.every((word) => image.path.toLowerCase().includes(word)));
  const byName = (a: FileItem, b: FileItem) =>
    collator.compare(a.name, b.name) || collator.compare(a.path, b.path);
  return found.sort((a, b) => {
    if (sort === 'newest') return b.created_at.localeCompare(a.created_at) || byName(a, b);
    if (sort === 'largest') return b.size - a.size || byName(a, b);
    return byName(a, b);
  });
}
