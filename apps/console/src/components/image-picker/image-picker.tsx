import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { FileItem } from '@omnibot/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { getImagesQueryOptions, getUsageQueryOptions } from '../../lib/files/files-api';
import type { UploadItem } from '../../lib/files/upload-queue';
import { useOnUploaded, useRefreshFilesOnUpload } from '../../lib/files/use-uploads';
import { useSession } from '../../lib/session';
import { UploadDropzone } from '../uploads/upload-dropzone';
import { UploadList } from '../uploads/upload-list';
import { ImageBrowser } from './image-browser';

/**
 * The image the user picked. Store `path`: `url` is a download link signed for a limited time; ask
 * GET /v1/files/object?path= for a fresh one when the image is shown later.
 */
type PickedImage = Pick<FileItem, 'path' | 'name' | 'url' | 'size' | 'content_type'>;

export interface ImagePickerProps {
  opened: boolean;
  onClose: () => void;
  onPick: (image: PickedImage) => void;
  title?: string;
  /** The confirm button, e.g. "Use as avatar". */
  confirmLabel?: string;
  /** The folder to open with (null = all folders); uploads go to the chosen folder, or the root. */
  initialFolder?: string | null;
  /** The current choice, shown selected. */
  selectedPath?: string | null;
}

function ImagePickerBody({
  onClose,
  onPick,
  confirmLabel,
  initialFolder,
  selectedPath: initialSelection,
}: Omit<ImagePickerProps, 'opened' | 'title'>) {
  const session = useSession();
  const canWrite = session?.profile.role !== 'agent';
  const [folder, setFolder] = useState<string | null>(initialFolder ?? null);
  const [selectedPath, setSelectedPath] = useState<string | null>(initialSelection ?? null);
  const [uploadIds, setUploadIds] = useState<string[]>([]);
  const images = useQuery(getImagesQueryOptions(folder));
  const usage = useQuery(getUsageQueryOptions());
  useRefreshFilesOnUpload();

  // An image uploaded from here is the one the user means: select it once it is stored.
  useOnUploaded(
    useCallback(
      (item: UploadItem) => {
        if (uploadIds.includes(item.id) && item.path) setSelectedPath(item.path);
      },
      [uploadIds],
    ),
  );

  const selected = images.data?.images.find((image) => image.path === selectedPath) ?? null;
  const uploadFolder = folder ?? '';

  return (
    <Stack gap="md">
      {canWrite && (
        <>
          <UploadDropzone
            folder={uploadFolder}
            accept="images"
            maxFileBytes={usage.data?.max_file_bytes}
            onEnqueued={(ids) => setUploadIds((current) => [...current, ...ids])}
          />
          <UploadList filter={(item) => uploadIds.includes(item.id)} />
        </>
      )}
      <ImageBrowser
        folder={folder}
        onFolderChange={setFolder}
        selectedPath={selectedPath}
        onSelect={(image) => setSelectedPath(image.path)}
        emptyHint={
          canWrite
            ? 'Drop an image above, or choose another folder.'
            : 'Choose another folder, or ask a colleague to upload one.'
        }
        pageSize={12}
      />
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" c="dimmed" aria-live="polite" style={{ minWidth: 0 }} truncate="end">
          {selected ? `Selected: ${selected.path}` : 'Select an image.'}
        </Text>
        <Group gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={!selected}
            onClick={() => {
              if (!selected) return;
              const { path, name, url, size, content_type } = selected;
              onPick({ path, name, url, size, content_type });
              onClose();
            }}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

/**
 * A modal to pick one of the tenant's images, or upload one and pick it (bot avatar, logo, launcher icons).
 * `onPick` receives the image; the modal then closes.
 */
export function ImagePicker({
  opened,
  onClose,
  title = 'Choose an image',
  confirmLabel = 'Use this image',
  ...rest
}: ImagePickerProps) {
  const isNarrow = useMediaQuery('(max-width: 48em)');
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="xl" fullScreen={isNarrow}>
      <ImagePickerBody onClose={onClose} confirmLabel={confirmLabel} {...rest} />
    </Modal>
  );
}
