import { Button, Group, Paper, Progress, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { getUsageQueryOptions } from '../../../lib/files/files-api';
import { formatBytes, formatExactBytes, percentOf } from '../../../lib/files/format';
import { storageErrorMessage } from '../../../lib/files/storage-errors';

/** Storage used against the quota (unfinished uploads count too), and the per-file limit. */
export function StorageUsage() {
  const usage = useQuery(getUsageQueryOptions());
  return (
    <Paper withBorder p="sm" radius="md" miw={240} style={{ flex: '0 1 320px' }} aria-label="Storage used">
      {usage.isPending ? (
        <Stack gap={6} aria-busy="true">
          <Skeleton h={14} w="70%" />
          <Skeleton h={8} />
        </Stack>
      ) : usage.isError ? (
        <Group gap="xs" justify="space-between">
          <Text size="sm" c="red">
            {storageErrorMessage(usage.error)}
          </Text>
          <Button size="compact-xs" variant="light" onClick={() => void usage.refetch()}>
            Try again
          </Button>
        </Group>
      ) : (
        <UsageBar
          used={usage.data.used_bytes}
          quota={usage.data.quota_bytes}
          maxFile={usage.data.max_file_bytes}
        />
      )}
    </Paper>
  );
}

function UsageBar({ used, quota, maxFile }: { used: number; quota: number; maxFile: number }) {
  const percent = percentOf(used, quota);
  const color = percent >= 90 ? 'red' : percent >= 75 ? 'yellow' : 'blue';
  return (
    <Stack gap={6}>
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500}>
          <span title={formatExactBytes(used)}>{formatBytes(used)}</span> of{' '}
          <span title={formatExactBytes(quota)}>{formatBytes(quota)}</span> used
        </Text>
        <Text size="sm" c={percent >= 90 ? 'red' : 'dimmed'}>
          {percent}%
        </Text>
      </Group>
      <Progress value={percent} color={color} size="md" aria-label="Storage used of the quota" />
      <Text size="xs" c="dimmed">
        {percent >= 100
          ? 'The quota is used up: delete files before uploading more.'
          : `Up to ${formatBytes(maxFile)} per file.`}
      </Text>
    </Stack>
  );
}
