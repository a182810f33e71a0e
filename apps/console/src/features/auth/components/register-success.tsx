import { Alert, Button, Stack, Text } from '@mantine/core';
import { AUTH_MESSAGES } from '@omnibot/contracts';
import { IconMailCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { AuthHeading } from './auth-frame';
import { ResendVerificationButton } from './resend-verification-button';

/** After registration: check the inbox for the verification link. */
export function RegisterSuccess({ email }: { email: string | null }) {
  return (
    <Stack gap="lg">
      <AuthHeading title={AUTH_MESSAGES.registrationSuccess} />
      <Alert color="teal" icon={<IconMailCheck />} title="Check your inbox" role="status">
        {email ? (
          <>
            We sent a verification link to <strong>{email}</strong>.
          </>
        ) : (
          'We sent you a verification link.'
        )}{' '}
        Open it to verify your e-mail address, then sign in.
      </Alert>
      {email && (
        <Stack gap={6}>
          <Text size="sm" c="dimmed">
            Nothing arrived after a few minutes? Check your spam folder, or:
          </Text>
          <ResendVerificationButton getEmail={() => email} />
        </Stack>
      )}
      <Button component={Link} to={paths.login} fullWidth>
        Go to sign in
      </Button>
    </Stack>
  );
}
