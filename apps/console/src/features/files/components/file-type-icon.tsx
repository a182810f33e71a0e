import { IconFile, IconFileMusic, IconFileTypePdf, IconFolder, IconPhoto } from '@tabler/icons-react';
import type { FileKind } from '../utils/file-kind';

const ICONS = {
  folder: IconFolder,
  image: IconPhoto,
  audio: IconFileMusic,
  pdf: IconFileTypePdf,
  other: IconFile,
};
const COLORS: Record<FileKind, string> = {
  folder: 'var(--mantine-color-yellow-6)',
  image: 'var(--mantine-color-grape-5)',
  audio: 'var(--mantine-color-cyan-6)',
  pdf: 'var(--mantine-color-red-6)',
  other: 'var(--mantine-color-dimmed)',
};

export function FileTypeIcon({ kind, size = 20 }: { kind: FileKind; size?: number }) {
  const Icon = ICONS[kind];
  return <Icon size={size} stroke={1.5} color={COLORS[kind]} aria-hidden="true" style={{ flexShrink: 0 }} />;
}
