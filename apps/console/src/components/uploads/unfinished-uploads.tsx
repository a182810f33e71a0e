import { Alert, Button, FileButton, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { filesKeys } from '../../lib/files/files-api';
import { formatBytes, formatDateTime, percentOf } from '../../lib/files/format';
import {
  discardUnfinishedUpload,
  findUnfinishedUploads,
  probeUnfinishedUpload,
  type UnfinishedUpload,
} from '../../lib/files/tus-transport';
import type { UploadItem } from '../../lib/files/upload-queue';
import { uploadUrlStorage } from '../../lib/files/url-storage';
import { useUploads, useUploadStore } from '../../lib/files/use-uploads';
import { useSession } from '../../lib/session';
import { notifySuccess } from '../ui/notify';
import { notifyUploadProblem } from './upload-notify';

interface UnfinishedWithProgress extends UnfinishedUpload {
  /** Bytes the server holds; null when it could not be asked. */
  offset: number | null;
}

/** The unfinished uploads the server still keeps; those it no longer knows (expired) are forgotten here. */
async function loadUnfinished(tenantId: string): Promise<UnfinishedWithProgress[]> {
  const found = await findUnfinishedUploads(tenantId);
  const probed = await Promise.all(
    found.map(async (upload) => {
      const progress = await probeUnfinishedUpload(upload).catch(() => null);
      if (progress === 'gone') {
        await uploadUrlStorage.removeUpload(upload.key);
        return null;
      }
      return { ...upload, offset: progress?.offset ?? null };
    }),
  );
  return probed.filter((upload) => upload !== null);
}

const isInQueue = (upload: UnfinishedUpload, items: readonly UploadItem[]) =>
  items.some(
    (item) => item.name === upload.name && item.folder === upload.folder && item.size === upload.size,
  );

function UnfinishedRow({ upload, tenantId }: { upload: UnfinishedWithProgress; tenantId: string }) {
  const store = useUploadStore();
  const queryClient = useQueryClient();
  const [isConfirming, setIsConfirming] = useState(false);
  const discard = useMutation({
    mutationFn: () => discardUnfinishedUpload(upload),
    onSuccess: () => {
      notifySuccess(`The unfinished upload of ${upload.name} was deleted.`);
      setIsConfirming(false);
    },
    onError: (error) =>
      notifyUploadProblem(`Could not delete the unfinished upload of ${upload.name}`, error),
    // The unfinished list, and the usage the discarded upload was counted in.
    onSettled: () => queryClient.invalidateQueries({ queryKey: filesKeys.all }),
  });

  const onChosen = (file: File | null) => {
    if (!file) return;
    if (file.name !== upload.name || file.size !== upload.size) {
      notifyUploadProblem(
        'Not the same file',
        `Choose ${upload.name} (${formatBytes(upload.size)}) to continue this upload; that was ${file.name}.`,
      );
      return;
    }
    store.enqueue([file], { folder: upload.folder, tenantId }, { resumeFrom: upload.previous });
  };

  const { offset } = upload;
  const percent = offset === null ? null : percentOf(offset, upload.size);
  return (
    <Stack gap={4} role="group" aria-label={`Unfinished upload of ${upload.name}`}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Stack gap={0} style={{ minWidth: 0, flex: '1 1 12rem' }}>
          <Text size="sm" fw={500} truncate="end">
            {upload.name}
          </Text>
          <Text size="xs" c="dimmed">
            {offset === null
              ? `${formatBytes(upload.size)}`
              : `${formatBytes(offset)} of ${formatBytes(upload.size)} uploaded (${percentOf(offset, upload.size)}%)`}{' '}
            · to {upload.folder ? `“${upload.folder}”` : 'the root folder'}
            {upload.createdAt ? ` · started ${formatDateTime(upload.createdAt.toISOString())}` : ''}
          </Text>
        </Stack>
        <Group gap="xs">
          <FileButton onChange={onChosen}>
            {(props) => (
              <Button {...props} size="xs" leftSection={<IconPlayerPlay size={14} />}>
                Resume
              </Button>
            )}
          </FileButton>
          <Button size="xs" variant="default" onClick={() => setIsConfirming(true)}>
            Discard
          </Button>
        </Group>
      </Group>
      {percent !== null && (
        <Progress value={percent} size="xs" color="yellow" aria-label={`Uploaded so far of ${upload.name}`} />
      )}
      <Modal
        opened={isConfirming}
        onClose={() => setIsConfirming(false)}
        title="Discard this upload?"
        centered
      >
        <Stack>
          <Text size="sm">
            The {upload.offset ? formatBytes(upload.offset) : 'part'} of {upload.name} already uploaded will
            be deleted from the server. To store the file later you will have to upload it from the start.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setIsConfirming(false)}>
              Keep it
            </Button>
            <Button color="red" loading={discard.isPending} onClick={() => discard.mutate()}>
              Discard upload
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/**
 * Uploads of an earlier visit (the page was closed or reloaded) that the server still holds: dropping the same
 * file again, or choosing it with Resume, continues where it stopped.
 */
export function UnfinishedUploads() {
  const session = useSession();
  const tenantId = session?.profile.tenant_id ?? '';
  const items = useUploads();
  const { data } = useQuery({
    queryKey: filesKeys.unfinishedUploads(tenantId),
    queryFn: () => loadUnfinished(tenantId),
    enabled: tenantId !== '',
  });
  const shown = (data ?? []).filter((upload) => !isInQueue(upload, items));
  if (shown.length === 0) return null;

  return (
    <Alert color="blue" variant="light" title="Unfinished uploads" icon={<IconPlayerPlay />}>
      <Stack gap="sm">
        <Text size="sm">
          These uploads stopped before they finished. Drop the same file again, or choose it with Resume, to
          continue where it stopped. The server keeps unfinished uploads for a limited time (24 hours unless
          configured otherwise).
        </Text>
        {shown.map((upload) => (
          <UnfinishedRow key={upload.key} upload={upload} tenantId={tenantId} />
        ))}
      </Stack>
    </Alert>
  );
}
