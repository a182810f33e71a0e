import {
  Alert,
  Anchor,
  Button,
  Card,
  DataList,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import type { Subscription } from '@omnibot/contracts';
import { IconCalendarEvent, IconInfoCircle, IconPlayerPlay, IconBan } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ConfirmButton } from '../../../components/ui/confirm';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { formatDate, formatDateTime } from '../../../lib/dates';
import { useUpdateSubscription } from '../api/update-subscription';
import { EndDateFormSchema } from '../utils/subscription-form';
import { dayOf, endAfterDayIso, lastDayOf, lastMomentOf, startOfDayIso } from '../utils/subscription-state';
import { SubscriptionStateBadge } from './subscription-state-badge';

const resolvePeriod = schemaResolver(EndDateFormSchema, { sync: true });

interface PeriodValues {
  first_day: string;
  last_day: string;
}

const periodOf = (subscription: Subscription): PeriodValues => ({
  first_day: dayOf(subscription.starts_at),
  last_day: subscription.ends_at ? lastDayOf(subscription.ends_at) : '',
});

function PeriodForm({ subscription }: { subscription: Subscription }) {
  const update = useUpdateSubscription();
  const form = useForm<PeriodValues>({
    initialValues: periodOf(subscription),
    validate: (values) => resolvePeriod(values),
    validateInputOnBlur: true,
  });

  // mutateAsync: the refetch after saving remounts this form, which would drop mutate's own callbacks.
  const onSubmit = async (values: PeriodValues) => {
    try {
      const saved = await update.mutateAsync({
        subscription,
        changes: {
          status: subscription.status,
          starts_at: startOfDayIso(values.first_day),
          ends_at: values.last_day ? endAfterDayIso(values.last_day) : null,
        },
      });
      notifySuccess(`The period of ${saved.info.name} was saved.`, 'Period saved');
    } catch (error) {
      notifyError(error, 'The period was not saved');
    }
  };

  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput type="date" label="First day" required {...form.getInputProps('first_day')} />
          <TextInput
            type="date"
            label="Last day"
            description="Leave empty for no end."
            {...form.getInputProps('last_day')}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button
            type="submit"
            variant="light"
            loading={update.isPending}
            disabled={!form.isDirty()}
            leftSection={<IconCalendarEvent size={16} />}
          >
            Save period
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface SubscriptionDetailsProps {
  subscription: Subscription;
  organisation: { name: string; href?: string };
  /** The parent's administrators (or a master on the platform) manage it; the organisation itself only reads. */
  canManage: boolean;
}

/** One subscription: what it is, its state and period; revoke, reactivate and change dates when allowed. */
export function SubscriptionDetails({ subscription, organisation, canManage }: SubscriptionDetailsProps) {
  const update = useUpdateSubscription();
  const isActive = subscription.status === 'active';
  const name = subscription.info.name;

  const setStatus = async (status: 'active' | 'revoked') => {
    const saved = await update.mutateAsync({ subscription, changes: { status } });
    notifySuccess(
      status === 'revoked' ? `${name} was revoked from ${organisation.name}.` : `${name} is active again.`,
      status === 'revoked' ? 'Subscription revoked' : 'Subscription reactivated',
    );
    return saved;
  };

  return (
    <Stack gap="lg">
      <Card withBorder padding="lg" radius="md">
        <DataList orientation="horizontal" labelWidth={140} withDivider>
          <DataList.Item>
            <DataList.ItemLabel>Organisation</DataList.ItemLabel>
            <DataList.ItemValue>
              {organisation.href ? (
                <Anchor component={Link} to={organisation.href}>
                  {organisation.name}
                </Anchor>
              ) : (
                organisation.name
              )}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Subscription</DataList.ItemLabel>
            <DataList.ItemValue>
              {name}{' '}
              <Text span c="dimmed" ff="monospace" size="sm">
                ({subscription.info.code})
              </Text>
            </DataList.ItemValue>
          </DataList.Item>
          {subscription.info.description && (
            <DataList.Item>
              <DataList.ItemLabel>Description</DataList.ItemLabel>
              <DataList.ItemValue>{subscription.info.description}</DataList.ItemValue>
            </DataList.Item>
          )}
          <DataList.Item>
            <DataList.ItemLabel>State</DataList.ItemLabel>
            <DataList.ItemValue>
              <Group gap="xs">
                <SubscriptionStateBadge subscription={subscription} />
                <Text size="sm" c="dimmed">
                  Status: {isActive ? 'active' : 'revoked'}
                </Text>
              </Group>
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>First day</DataList.ItemLabel>
            <DataList.ItemValue title={formatDateTime(subscription.starts_at)}>
              {formatDate(subscription.starts_at)}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>Last day</DataList.ItemLabel>
            <DataList.ItemValue
              title={subscription.ends_at ? `Ends ${formatDateTime(subscription.ends_at)}` : undefined}
            >
              {subscription.ends_at ? formatDate(lastMomentOf(subscription.ends_at)) : 'No end'}
            </DataList.ItemValue>
          </DataList.Item>
        </DataList>
      </Card>

      {canManage ? (
        <Card withBorder padding="lg" radius="md">
          <Stack gap="md">
            <Title order={2} size="h4">
              Manage
            </Title>
            <PeriodForm
              key={`${subscription.starts_at}:${subscription.ends_at}`}
              subscription={subscription}
            />
            <Group justify="space-between" gap="sm" wrap="wrap">
              <Text size="sm" c="dimmed" style={{ flex: '1 1 16rem' }}>
                {isActive
                  ? `Revoking ends ${name} for ${organisation.name} and for the organisations below it.`
                  : `Reactivating gives ${organisation.name} ${name} again for the period above.`}
              </Text>
              {isActive ? (
                <ConfirmButton
                  color="red"
                  variant="light"
                  leftSection={<IconBan size={16} />}
                  confirm={{
                    title: `Revoke ${name}?`,
                    message: `${organisation.name} and the organisations below it lose ${name} now. You can reactivate it later.`,
                    confirmLabel: 'Revoke',
                    danger: true,
                  }}
                  onConfirm={() => setStatus('revoked')}
                >
                  Revoke
                </ConfirmButton>
              ) : (
                <ConfirmButton
                  leftSection={<IconPlayerPlay size={16} />}
                  confirm={{
                    title: `Reactivate ${name}?`,
                    message: `${organisation.name} gets ${name} again for the period shown.`,
                    confirmLabel: 'Reactivate',
                  }}
                  onConfirm={() => setStatus('active')}
                >
                  Reactivate
                </ConfirmButton>
              )}
            </Group>
          </Stack>
        </Card>
      ) : (
        <Alert color="gray" variant="light" icon={<IconInfoCircle />}>
          Your organisation’s subscriptions are managed by its parent organisation. Ask them to change this
          one.
        </Alert>
      )}
    </Stack>
  );
}
