import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { AGENT_READ_ONLY_MESSAGE } from '@omnibot/contracts';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';

interface ReadOnlyNoticeProps {
  title?: string;
  /** Where to go instead, for a screen that only exists to make a change (an add or create page). */
  back?: { to: string; label: string };
}

/** Where a form or an action would be for a role that may configure: why this user only reads. */
export function ReadOnlyNotice({ title = 'Read only', back }: ReadOnlyNoticeProps) {
  return (
    <Alert color="gray" variant="light" icon={<IconLock aria-hidden="true" />} title={title}>
      <Stack gap="xs">
        <Text inherit>{AGENT_READ_ONLY_MESSAGE}</Text>
        {back && (
          <Anchor component={Link} to={back.to} inherit>
            {back.label}
          </Anchor>
        )}
      </Stack>
    </Alert>
  );
}
