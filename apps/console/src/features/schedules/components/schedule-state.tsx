import { Badge, Group, Text } from '@mantine/core';
import type { ScheduleState } from '@omnibot/contracts';
import { formatDateTime } from '../../../lib/dates';

/** Open or closed now, and when that changes (in the viewer's own time). */
export function ScheduleStateBadge({ state }: { state: ScheduleState }) {
  return (
    <Group gap={6} wrap="wrap">
      <Badge variant="light" color={state.open ? 'teal' : 'gray'}>
        {state.open ? 'Open now' : 'Closed now'}
      </Badge>
      {state.next_change !== null && (
        <Text size="xs" c="dimmed">
          {state.open ? 'Closes' : 'Opens'} {formatDateTime(state.next_change)}
        </Text>
      )}
    </Group>
  );
}
