import { extensionOf, isAudio, isImage } from '@omnibot/contracts';

export type FileKind = 'folder' | 'image' | 'audio' | 'pdf' | 'other';

/** How a file previews: images and audio by the contracts' extension rules, PDF by its extension. */
export function fileKindOf(name: string): Exclude<FileKind, 'folder'> {
  if (isImage(name)) return 'image';
  if (isAudio(name)) return 'audio';
  if (extensionOf(name).toLowerCase() === 'pdf') return 'pdf';
  return 'other';
}
