import { Stack, Text, Tooltip } from '@mantine/core';
import type { KnowledgeSource } from '@omnibot/contracts';
import { formatDateTime } from '../../../lib/dates';
import { canSchedule, describeSchedule, formatRelative } from '../utils/sync-values';

const OUTCOME_LABEL = { unchanged: 'Unchanged', changed: 'Changed', failed: 'Failed' } as const;
const OUTCOME_COLOR = { unchanged: 'dimmed', changed: 'teal', failed: 'red' } as const;

/** A time as "in 3 hours" with the exact date and time beside it. */
function When({ label, at }: { label: string; at: string }) {
  return (
    <Text size="sm">
      {label}:{' '}
      <Tooltip label={formatDateTime(at)}>
        <span>{formatRelative(at)}</span>
      </Tooltip>{' '}
      <Text span size="xs" c="dimmed">
        ({formatDateTime(at)})
      </Text>
    </Text>
  );
}

/** A source's last sync with what it found, its schedule and its next run. */
export function SourceSyncStatus({ source }: { source: KnowledgeSource }) {
  const result = source.last_sync_result;
  return (
    <Stack gap={2} miw={0}>
      {result ? (
        <>
          <When label="Last" at={result.at} />
          <Text size="sm" c={OUTCOME_COLOR[result.outcome]} style={{ overflowWrap: 'anywhere' }}>
            {OUTCOME_LABEL[result.outcome]}: {result.message}
          </Text>
        </>
      ) : (
        <Text size="sm">
          Last: {source.last_synced_at ? formatDateTime(source.last_synced_at) : 'Not yet'}
        </Text>
      )}
      {canSchedule(source) &&
        (source.next_sync_at ? (
          <When label="Next" at={source.next_sync_at} />
        ) : (
          <Text size="sm" c="dimmed">
            Next: not scheduled
          </Text>
        ))}
      {canSchedule(source) && source.sync.frequency !== 'off' && (
        <Text size="xs" c="dimmed">
          {describeSchedule(source.sync)}
        </Text>
      )}
    </Stack>
  );
}
