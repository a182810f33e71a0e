import { Center, Image } from '@mantine/core';
import type { FileEntry } from '../utils/file-entries';
import { fileKindOf } from '../utils/file-kind';
import { FileTypeIcon } from './file-type-icon';

/** A small preview: the image itself for images, a type icon (folder, audio, PDF, other) otherwise. */
export function FileThumb({ entry, size }: { entry: FileEntry; size: number }) {
  if (entry.kind === 'folder') return <FileTypeIcon kind="folder" size={Math.round(size * 0.8)} />;
  const kind = fileKindOf(entry.file.name);
  if (kind === 'image') {
    return (
      <Image
        src={entry.file.url}
        alt=""
        w={size}
        h={size}
        fit="cover"
        radius="sm"
        loading="lazy"
        style={{ flexShrink: 0 }}
      />
    );
  }
  return (
    <Center w={size} h={size} style={{ flexShrink: 0 }}>
      <FileTypeIcon kind={kind} size={Math.round(size * 0.8)} />
    </Center>
  );
}
