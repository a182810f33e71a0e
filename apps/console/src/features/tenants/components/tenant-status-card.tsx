import { Card, Group, Stack, Text, Title } from '@mantine/core';
import type { Account } from '@omnibot/contracts';
import { IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { ConfirmButton } from '../../../components/ui/confirm';
import { notifySuccess } from '../../../components/ui/notify';
import { useUpdateTenant } from '../api/update-tenant';
import { TenantStatusBadge } from './tenant-status-badge';

/** Activate or deactivate an organisation (PUT with the full object and the new is_active), after confirming. */
export function TenantStatusCard({ tenant }: { tenant: Account }) {
  const update = useUpdateTenant(tenant.tenant_id);
  const activate = !tenant.is_active;

  const change = async () => {
    const { name, address, info } = tenant;
    const saved = await update.mutateAsync({ name, address, info, is_active: activate });
    notifySuccess(
      saved.is_active ? `${saved.name} is active again.` : `${saved.name} was deactivated.`,
      saved.is_active ? 'Organisation activated' : 'Organisation deactivated',
    );
  };

  return (
    <Card withBorder padding="lg" radius="md">
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Title order={2} size="h4">
            Status
          </Title>
          <TenantStatusBadge isActive={tenant.is_active} />
        </Group>
        <Text size="sm" c="dimmed">
          {tenant.is_active
            ? 'Its users can sign in and its bots answer on websites.'
            : 'Its users cannot sign in and its bots’ widgets show that the service is unavailable.'}
        </Text>
        <Group justify="flex-end">
          <ConfirmButton
            variant={activate ? 'filled' : 'light'}
            color={activate ? 'teal' : 'red'}
            leftSection={activate ? <IconPlayerPlay size={16} /> : <IconPlayerPause size={16} />}
            confirm={
              activate
                ? {
                    title: `Activate ${tenant.name}?`,
                    message: 'Its users can sign in again and its bots answer on websites again.',
                    confirmLabel: 'Activate',
                  }
                : {
                    title: `Deactivate ${tenant.name}?`,
                    message:
                      'Its users are signed out and cannot sign in, and its bots’ widgets show that the service is unavailable, until it is activated again.',
                    confirmLabel: 'Deactivate',
                    danger: true,
                  }
            }
            onConfirm={change}
          >
            {activate ? 'Activate' : 'Deactivate'}
          </ConfirmButton>
        </Group>
      </Stack>
    </Card>
  );
}
