import { Alert, Button, Card, Checkbox, Group, List, Skeleton, Stack, Text } from '@mantine/core';
import type { FeatureCode, Subscription } from '@omnibot/contracts';
import { IconDeviceFloppy, IconInfoCircle } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { LoadError } from '../../../components/forms/form-skeleton';
import { confirmAction } from '../../../components/ui/confirm';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { formatDate } from '../../../lib/dates';
import { useApplyAssignment } from '../api/apply-assignment';
import { useSubscriptions } from '../api/get-subscriptions';
import {
  codeName,
  describeChanges,
  isAssigned,
  lastMomentOf,
  planAssignment,
  subscriptionState,
} from '../utils/subscription-state';
import { SubscriptionStateBadge } from './subscription-state-badge';

function stateNote(subscription: Subscription | undefined): string {
  if (!subscription) return 'Not assigned yet.';
  switch (subscriptionState(subscription)) {
    case 'current':
      return subscription.ends_at
        ? `Assigned until ${formatDate(lastMomentOf(subscription.ends_at))}.`
        : 'Assigned, no end date.';
    case 'scheduled':
      return `Starts ${formatDate(subscription.starts_at)}.`;
    case 'lapsed':
      return subscription.ends_at
        ? `Ended ${formatDate(lastMomentOf(subscription.ends_at))}. Ticking it assigns it again without an end date.`
        : 'Ended.';
    case 'revoked':
      return 'Revoked. Ticking it assigns it again.';
  }
}

interface AssignmentChecklistProps {
  tenantId: string;
  organisationName: string;
  codes: readonly FeatureCode[];
  subscriptions: readonly Subscription[];
}

function AssignmentChecklist({ tenantId, organisationName, codes, subscriptions }: AssignmentChecklistProps) {
  const apply = useApplyAssignment();
  const assigned = useMemo(
    () => subscriptions.filter((item) => isAssigned(item)).map((item) => item.info.code),
    [subscriptions],
  );
  // Codes the parent holds, plus any the organisation still has that the parent no longer holds (to revoke).
  const rows = useMemo(() => [...new Set<string>([...codes, ...assigned])].sort(), [codes, assigned]);
  const [ticked, setTicked] = useState<string[]>(assigned);
  const changes = planAssignment(rows, subscriptions, new Set(ticked));

  const save = async () => {
    const revokes = changes.some((change) => change.kind === 'revoke');
    const confirmed = await confirmAction({
      title: `Change the subscriptions of ${organisationName}?`,
      message: (
        <List size="sm" spacing={4}>
          {describeChanges(changes).map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
      ),
      confirmLabel: 'Save changes',
      danger: revokes,
    });
    if (!confirmed) return;
    const outcome = await apply.mutateAsync({ tenantId, changes });
    if (outcome.done.length > 0) {
      notifySuccess(
        `${outcome.done.length} change${outcome.done.length === 1 ? '' : 's'} saved for ${organisationName}.`,
        'Subscriptions saved',
      );
    }
    for (const { change, error } of outcome.failed)
      notifyError(error, `${codeName(change.code)} was not changed`);
  };

  return (
    <Card withBorder padding="lg" radius="md">
      <Stack gap="md">
        <Checkbox.Group
          label={`Subscriptions of ${organisationName}`}
          description="Ticked codes are assigned; untick one to revoke it."
          value={ticked}
          onChange={setTicked}
        >
          <Stack gap="sm" mt="sm">
            {rows.map((code) => {
              const subscription = subscriptions.find((item) => item.info.code === code);
              const held = (codes as readonly string[]).includes(code);
              const isTicked = ticked.includes(code);
              return (
                <Group key={code} justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
                  <Checkbox
                    value={code}
                    label={codeName(code)}
                    disabled={!held && !isTicked}
                    description={
                      held
                        ? stateNote(subscription)
                        : 'Your organisation no longer holds it: it can only be revoked.'
                    }
                  />
                  {subscription && <SubscriptionStateBadge subscription={subscription} />}
                </Group>
              );
            })}
          </Stack>
        </Checkbox.Group>
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed" aria-live="polite">
            {changes.length === 0
              ? 'No changes.'
              : `${changes.length} change${changes.length === 1 ? '' : 's'} to save.`}
          </Text>
          <Group gap="sm">
            <Button variant="default" disabled={changes.length === 0} onClick={() => setTicked(assigned)}>
              Undo
            </Button>
            <Button
              onClick={() => void save()}
              disabled={changes.length === 0}
              loading={apply.isPending}
              leftSection={<IconDeviceFloppy size={16} />}
            >
              Save changes
            </Button>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}

interface SubscriptionAssignFormProps {
  tenantId: string;
  organisationName: string;
  codes: readonly FeatureCode[];
}

/** Tick the codes one organisation should hold: creates, reactivates or revokes its subscriptions to match. */
export function SubscriptionAssignForm({ tenantId, organisationName, codes }: SubscriptionAssignFormProps) {
  const subscriptions = useSubscriptions(tenantId);
  if (subscriptions.isPending) {
    return (
      <Card withBorder padding="lg" radius="md" aria-busy="true" aria-label="Loading the subscriptions">
        <Stack gap="sm">
          {codes.map((code) => (
            <Skeleton key={code} height={36} />
          ))}
        </Stack>
      </Card>
    );
  }
  if (subscriptions.isError) {
    return (
      <LoadError
        title="The subscriptions could not be loaded"
        error={subscriptions.error}
        onRetry={() => void subscriptions.refetch()}
      />
    );
  }
  if (codes.length === 0 && subscriptions.data.length === 0) {
    return (
      <Alert color="yellow" icon={<IconInfoCircle />}>
        Your organisation holds no subscription it could pass on.
      </Alert>
    );
  }
  // Remounts with the saved state after every change, so the ticks always start from what the server holds.
  return (
    <AssignmentChecklist
      key={`${tenantId}:${subscriptions.dataUpdatedAt}`}
      tenantId={tenantId}
      organisationName={organisationName}
      codes={codes}
      subscriptions={subscriptions.data}
    />
  );
}
