import '@mantine/dropzone/styles.css';
import { Box, Group, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IMAGE_EXTENSIONS, isImage } from '@omnibot/contracts';
import { IconCloudUpload, IconPhoto, IconUpload, IconX } from '@tabler/icons-react';
import { formatBytes } from '../../lib/files/format';
import { useUploadStore } from '../../lib/files/use-uploads';
import { useSession } from '../../lib/session';
import { notifications } from '@mantine/notifications';
import { TOAST_DELAY_MS } from '../ui/notify';

interface UploadDropzoneProps {
  /** Where dropped files go ('' = root). */
  folder: string;
  /** 'images': only names the Images listing shows (image extensions), so an upload never vanishes from view. */
  accept?: 'any' | 'images';
  /** The server's per-file limit, from /v1/files/usage; larger files are refused before any byte is sent. */
  maxFileBytes?: number;
  disabled?: boolean;
  /** The queue ids of the files this drop added. */
  onEnqueued?: (ids: string[]) => void;
  /** Receives a function that opens the file chooser (for an "Upload files" button elsewhere). */
  openRef?: React.Ref<() => void | undefined>;
}

const IMAGE_LIST = IMAGE_EXTENSIONS.join(', ');

function rejectionText(rejection: FileRejection, maxFileBytes: number | undefined): string {
  const codes = rejection.errors.map((error) => error.code);
  if (codes.includes('file-too-large') && maxFileBytes) {
    return `${rejection.file.name} is larger than the ${formatBytes(maxFileBytes)} a file may have.`;
  }
  return `${rejection.file.name}: ${rejection.errors.map((error) => error.message).join(' ')}`;
}

/** Drag-and-drop (or click to choose) upload of several files into one folder through the upload queue. */
export function UploadDropzone({
  folder,
  accept = 'any',
  maxFileBytes,
  disabled,
  onEnqueued,
  openRef,
}: UploadDropzoneProps) {
  const store = useUploadStore();
  const session = useSession();
  const tenantId = session?.profile.tenant_id ?? '';
  const where = folder ? `“${folder}”` : 'the root folder';

  const onDrop = (files: File[]) => {
    if (files.length === 0) return;
    // Not inside `onEnqueued?.(...)`: an optional call skips evaluating its arguments.
    const ids = store.enqueue(files, { folder, tenantId });
    onEnqueued?.(ids);
  };
  const onReject = (rejections: FileRejection[]) => {
    for (const rejection of rejections) {
      notifications.show({
        color: 'red',
        title: 'Not uploaded',
        message: rejectionText(rejection, maxFileBytes),
        autoClose: TOAST_DELAY_MS,
      });
    }
  };

  return (
    <Dropzone
      onDrop={onDrop}
      onReject={onReject}
      openRef={openRef}
      maxSize={maxFileBytes}
      disabled={disabled}
      validator={
        accept === 'images'
          ? (file) =>
              isImage(file.name)
                ? null
                : {
                    code: 'not-an-image',
                    message: `Only ${IMAGE_LIST} files (lower-case extension) are images.`,
                  }
          : undefined
      }
      inputProps={{
        'aria-label': accept === 'images' ? 'Choose images to upload' : 'Choose files to upload',
      }}
      aria-label={`Upload files to ${where}`}
      p="lg"
    >
      <Group justify="center" gap="lg" wrap="nowrap" style={{ pointerEvents: 'none' }}>
        <Box style={{ flexShrink: 0, display: 'flex' }}>
          <Dropzone.Accept>
            <IconUpload size={40} stroke={1.5} color="var(--mantine-color-blue-6)" aria-hidden="true" />
          </Dropzone.Accept>
          <Dropzone.Reject>
            <IconX size={40} stroke={1.5} color="var(--mantine-color-red-6)" aria-hidden="true" />
          </Dropzone.Reject>
          <Dropzone.Idle>
            {accept === 'images' ? (
              <IconPhoto size={40} stroke={1.5} color="var(--mantine-color-dimmed)" aria-hidden="true" />
            ) : (
              <IconCloudUpload
                size={40}
                stroke={1.5}
                color="var(--mantine-color-dimmed)"
                aria-hidden="true"
              />
            )}
          </Dropzone.Idle>
        </Box>
        <Stack gap={4}>
          <Text size="md" fw={500}>
            {disabled
              ? 'Your role can view files but not upload them'
              : `Drop ${accept === 'images' ? 'images' : 'files'} here to upload them to ${where}`}
          </Text>
          {!disabled && (
            <Text size="sm" c="dimmed">
              Or click to choose.{' '}
              {accept === 'images' ? `Accepted: ${IMAGE_LIST}.` : 'Several at once are fine.'}
              {maxFileBytes ? ` Up to ${formatBytes(maxFileBytes)} each.` : ''} Large files resume after a
              lost connection or a reload.
            </Text>
          )}
        </Stack>
      </Group>
    </Dropzone>
  );
}
