import { Button, Stack, Text } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { useState } from 'react';
import { useSendVerificationEmail } from '../api/send-verification-email';
import { errorMessage } from '../utils/error-message';

interface ResendVerificationButtonProps {
  /** The address to send to, or null when there is none yet (the caller then says what is missing). */
  getEmail: () => string | null;
}

/** "Send verification email again", with the outcome said right under it. */
export function ResendVerificationButton({ getEmail }: ResendVerificationButtonProps) {
  const send = useSendVerificationEmail();
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onClick = () => {
    const email = getEmail();
    if (!email) return;
    setSentTo(null);
    send.mutate(email, { onSuccess: () => setSentTo(email) });
  };

  return (
    <Stack gap={6} align="flex-start">
      <Button
        variant="default"
        size="xs"
        leftSection={<IconMailForward size={16} stroke={1.6} />}
        loading={send.isPending}
        onClick={onClick}
      >
        Send verification email again
      </Button>
      <div aria-live="polite">
        {sentTo && send.isSuccess && (
          <Text size="sm" c="teal">
            We sent a new verification link to {sentTo}. Check your inbox.
          </Text>
        )}
        {send.isError && (
          <Text size="sm" c="red" role="alert">
            {errorMessage(send.error)}
          </Text>
        )}
      </div>
    </Stack>
  );
}
