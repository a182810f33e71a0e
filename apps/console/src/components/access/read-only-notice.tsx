import { Alert } from '@mantine/core';
import { AGENT_READ_ONLY_MESSAGE } from '@omnibot/contracts';
import { IconLock } from '@tabler/icons-react';

/** Where a form or an action would be for a role that may configure: why this user only reads. */
export function ReadOnlyNotice({ title = 'Read only' }: { title?: string }) {
  return (
    <Alert color="gray" variant="light" icon={<IconLock aria-hidden="true" />} title={title}>
      {AGENT_READ_ONLY_MESSAGE}
    </Alert>
  );
}
