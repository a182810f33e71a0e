import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Paper,
  Progress,
  ScrollArea,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import {
  IconAlertCircle,
  IconCheck,
  IconPlayerPause,
  IconPlayerPlay,
  IconRefresh,
  IconX,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { hasErrorCode } from '../../lib/error-message';
import { filesKeys } from '../../lib/files/files-api';
import { formatBytes, formatExactBytes, percentOf } from '../../lib/files/format';
import { baseNameOf, joinPath } from '../../lib/files/storage-paths';
import { queueSummary, type UploadItem } from '../../lib/files/upload-queue';
import { useUploads, useUploadStore } from '../../lib/files/use-uploads';
import { notifyUploadProblem } from './upload-notify';

const folderLabel = (folder: string) => (folder ? `“${folder}”` : 'the root folder');

function statusText(item: UploadItem): string {
  const percent = percentOf(item.bytesUploaded, item.size);
  const amount = `${formatBytes(item.bytesUploaded)} of ${formatBytes(item.size)}`;
  switch (item.status) {
    case 'queued':
      return item.bytesUploaded > 0 ? `Waiting to continue at ${percent}%` : 'Waiting to start';
    case 'uploading': {
      if (item.retrying) return `Connection problem: trying again (attempt ${item.retrying.attempt})`;
      const resumed =
        typeof item.resumedFrom === 'number'
          ? ` · resumed at ${percentOf(item.resumedFrom, item.size)}%`
          : '';
      return `${amount} · ${percent}%${resumed}`;
    }
    case 'paused':
      return `Paused at ${percent}% (${amount})`;
    case 'done': {
      const { path } = item;
      return path && path !== joinPath(item.folder, item.name)
        ? `Uploaded as “${baseNameOf(path)}”`
        : 'Uploaded';
    }
    case 'error':
      return item.error?.message ?? 'The upload failed.';
  }
}

const COLORS: Record<UploadItem['status'], string> = {
  queued: 'gray',
  uploading: 'blue',
  paused: 'yellow',
  done: 'teal',
  error: 'red',
};

function UploadRow({ item }: { item: UploadItem }) {
  const store = useUploadStore();
  const queryClient = useQueryClient();
  const percent = percentOf(item.bytesUploaded, item.size);
  const cancel = () => {
    store
      .cancel(item.id)
      // The cancelled upload no longer counts against the quota.
      .then(() => queryClient.invalidateQueries({ queryKey: filesKeys.usage }))
      .catch((error: unknown) => notifyUploadProblem(`Could not cancel ${item.name} on the server`, error));
  };
  const action = (label: string, icon: React.ReactNode, onClick: () => void, color?: string) => (
    <Tooltip label={label} withArrow>
      <ActionIcon
        variant="subtle"
        color={color ?? 'gray'}
        aria-label={`${label}: ${item.name}`}
        onClick={onClick}
      >
        {icon}
      </ActionIcon>
    </Tooltip>
  );

  return (
    <Stack gap={4} data-upload-status={item.status} aria-label={`Upload of ${item.name}`} role="group">
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="sm" fw={500} truncate="end" title={item.name}>
            {item.name}
          </Text>
          <Text
            size="xs"
            c={item.status === 'error' ? 'red' : 'dimmed'}
            role={item.status === 'error' ? 'alert' : undefined}
            title={formatExactBytes(item.size)}
          >
            {statusText(item)}
            {item.status !== 'error' && ` · to ${folderLabel(item.folder)}`}
          </Text>
        </Stack>
        <Group gap={2} wrap="nowrap">
          {(item.status === 'uploading' || item.status === 'queued') &&
            action('Pause', <IconPlayerPause size={18} />, () => store.pause(item.id))}
          {item.status === 'paused' &&
            action('Resume', <IconPlayerPlay size={18} />, () => store.resume(item.id), 'blue')}
          {item.status === 'error' &&
            action('Retry', <IconRefresh size={18} />, () => store.retry(item.id), 'blue')}
          {item.status === 'done' && (
            <IconCheck size={18} color="var(--mantine-color-teal-6)" aria-hidden="true" />
          )}
          {item.status === 'done'
            ? action('Dismiss', <IconX size={18} />, () => store.dismiss(item.id))
            : action('Cancel', <IconX size={18} />, cancel, 'red')}
        </Group>
      </Group>
      <Progress
        value={percent}
        color={COLORS[item.status]}
        size="sm"
        animated={item.status === 'uploading'}
        aria-label={`Upload progress of ${item.name}`}
      />
    </Stack>
  );
}

/** The upload queue: per-file progress, pause, resume, cancel, retry; `filter` narrows it to some uploads. */
export function UploadList({ filter }: { filter?: (item: UploadItem) => boolean }) {
  const store = useUploadStore();
  const all = useUploads();
  const items = filter ? all.filter(filter) : all;
  if (items.length === 0) return null;
  const summary = queueSummary(items);
  const isOverQuota = items.some((item) => hasErrorCode(item.error, 'storage/quota-exceeded'));

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="Uploads">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Text fw={600}>
            Uploads · {summary.done} of {summary.total} done
            {summary.failed > 0 ? ` · ${summary.failed} failed` : ''}
          </Text>
          {summary.done > 0 && (
            <Button variant="subtle" size="compact-sm" onClick={() => store.clearFinished()}>
              Clear finished
            </Button>
          )}
        </Group>
        {isOverQuota && (
          <Alert color="red" icon={<IconAlertCircle />} title="Your organisation's storage is full">
            An upload did not fit in the storage quota. Delete files you no longer need (or ask your
            administrator for more space), then retry.
          </Alert>
        )}
        <ScrollArea.Autosize mah={360} type="auto" offsetScrollbars>
          <Stack gap="sm">
            {items.map((item) => (
              <UploadRow key={item.id} item={item} />
            ))}
          </Stack>
        </ScrollArea.Autosize>
      </Stack>
    </Paper>
  );
}
