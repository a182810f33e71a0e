import { Alert, Button, Card, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconInfoCircle, IconKey, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmButton } from '../../../components/ui/confirm';
import { notifySuccess } from '../../../components/ui/notify';
import { OneTimeSecretModal } from '../../../components/ui/one-time-secret';
import { errorMessage } from '../../../lib/error-message';
import { revealsSecret, useChangeCredential, type CredentialChange } from '../api/change-credential';
import { useCredential } from '../api/get-credential';
import { CHANGE_SUCCESS, CONFIRMATIONS } from '../utils/credential-messages';
import { SecretValue } from './secret-value';

interface CredentialPanelProps {
  tenantId: string;
  /** Administrators and masters may change the credential; everybody else sees it read-only. */
  canManage: boolean;
}

/** The organisation's API credential (HTTP Basic `key:secret`): key, masked secret, and the four changes. */
export function CredentialPanel({ tenantId, canManage }: CredentialPanelProps) {
  const credential = useCredential(tenantId);
  const change = useChangeCredential(tenantId);
  const [revealed, setRevealed] = useState<{ key: string; secret: string } | null>(null);

  const run = async (kind: CredentialChange) => {
    const answer = await change.mutateAsync(kind);
    if (revealsSecret(kind)) setRevealed({ key: answer.key, secret: answer.secret });
    notifySuccess(CHANGE_SUCCESS[kind]);
  };

  const closeReveal = () => {
    setRevealed(null);
    // Drops the answer that held the secret in full.
    change.reset();
  };

  const changeButton = (kind: CredentialChange, label: string, variant: 'filled' | 'light' | 'default') => (
    <ConfirmButton
      confirm={CONFIRMATIONS[kind]}
      onConfirm={() => run(kind)}
      variant={variant}
      color={kind === 'reset' ? 'red' : undefined}
      leftSection={kind === 'create' ? <IconKey size={16} /> : <IconRefresh size={16} />}
      disabled={change.isPending && change.variables !== kind}
    >
      {label}
    </ConfirmButton>
  );

  let body;
  if (credential.isPending) {
    body = (
      <Stack gap="md" aria-busy="true" aria-label="Loading the credential">
        <Skeleton height={14} width={80} />
        <Skeleton height={36} />
        <Skeleton height={14} width={80} />
        <Skeleton height={36} />
      </Stack>
    );
  } else if (credential.isError) {
    body = (
      <Alert color="red" icon={<IconAlertCircle />} title="The credential could not be loaded" role="alert">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{errorMessage(credential.error)}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void credential.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  } else if (credential.data.code === 404) {
    body = (
      <Stack align="center" gap="sm" py="lg" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light">
          <IconKey size={26} />
        </ThemeIcon>
        <Title order={2} size="h4">
          No API credential yet
        </Title>
        <Text c="dimmed" maw={460}>
          {canManage
            ? 'Create one to let your own systems call the API with HTTP Basic authentication (key and secret).'
            : 'An administrator of your organisation can create one.'}
        </Text>
        {canManage && changeButton('create', 'Create credential', 'filled')}
      </Stack>
    );
  } else {
    body = (
      <Stack gap="md">
        <SecretValue label="Key" value={credential.data.key} />
        <SecretValue label="Secret" value={credential.data.secret} copyable={false} />
        <Text size="sm" c="dimmed">
          Only the last four characters of the secret are kept visible. It was shown in full once, when it was
          made{canManage ? '; if it is lost, regenerate it.' : '.'}
        </Text>
        {canManage ? (
          <Group gap="sm">
            {changeButton('secret', 'Regenerate secret', 'default')}
            {changeButton('key', 'Regenerate key', 'default')}
            {changeButton('reset', 'Reset credential', 'light')}
          </Group>
        ) : (
          <Alert color="gray" variant="light" icon={<IconInfoCircle />}>
            Only administrators can create, reset or regenerate the credential.
          </Alert>
        )}
      </Stack>
    );
  }

  return (
    <>
      <Card withBorder padding="lg" radius="md" maw={720}>
        {body}
      </Card>
      <OneTimeSecretModal
        credential={revealed}
        description="Your organisation's API credential. Integrations send it as HTTP Basic key:secret."
        onClose={closeReveal}
      />
    </>
  );
}
