import { Anchor, Checkbox, Loader, Stack, Text, Tooltip } from '@mantine/core';
import type { Account, FeatureCode, Subscription } from '@omnibot/contracts';
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { confirmAction } from '../../../components/ui/confirm';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { paths } from '../../../config/paths';
import { useApplyAssignment } from '../api/apply-assignment';
import { useSubscriptionsOf } from '../api/get-subscriptions';
import {
  codeName,
  isAssigned,
  planAssignment,
  SUBSCRIPTION_STATE_LABELS,
  subscriptionState,
} from '../utils/subscription-state';

interface MatrixRow {
  organisation: Account;
  subscriptions: Subscription[] | undefined;
  isError: boolean;
}

interface MatrixCellProps {
  row: MatrixRow;
  code: FeatureCode;
}

/** One organisation × code: ticked when assigned; a click assigns or revokes it after confirming. */
function MatrixCell({ row, code }: MatrixCellProps) {
  const apply = useApplyAssignment();
  const [isBusy, setIsBusy] = useState(false);
  const { organisation, subscriptions } = row;
  if (row.isError)
    return (
      <Text size="sm" c="red">
        Not loaded
      </Text>
    );
  if (!subscriptions) return <Loader size="xs" aria-label="Loading" />;
  const subscription = subscriptions.find((item) => item.info.code === code);
  const assigned = isAssigned(subscription);
  const name = codeName(code);
  const state = subscription
    ? SUBSCRIPTION_STATE_LABELS[subscriptionState(subscription)].label
    : 'Not assigned';

  const toggle = async () => {
    const ticked = new Set(subscriptions.filter((item) => isAssigned(item)).map((item) => item.info.code));
    if (assigned) ticked.delete(code);
    else ticked.add(code);
    const changes = planAssignment([code], subscriptions, ticked);
    const confirmed = await confirmAction(
      assigned
        ? {
            title: `Revoke ${name} from ${organisation.name}?`,
            message: `${organisation.name} and the organisations below it lose ${name} now.`,
            confirmLabel: 'Revoke',
            danger: true,
          }
        : {
            title: `Assign ${name} to ${organisation.name}?`,
            message: `${organisation.name} gets ${name} from today, without an end date.`,
            confirmLabel: 'Assign',
          },
    );
    if (!confirmed) return;
    setIsBusy(true);
    try {
      const outcome = await apply.mutateAsync({ tenantId: organisation.tenant_id, changes });
      for (const { error } of outcome.failed) notifyError(error, `${name} was not changed`);
      if (outcome.failed.length === 0) {
        notifySuccess(
          assigned
            ? `${name} was revoked from ${organisation.name}.`
            : `${name} was assigned to ${organisation.name}.`,
        );
      }
    } finally {
      setIsBusy(false);
    }
  };

  if (isBusy) return <Loader size="xs" aria-label={`Saving ${name} for ${organisation.name}`} />;
  return (
    <Tooltip label={state} withArrow openDelay={300}>
      <Checkbox
        checked={assigned}
        onChange={() => void toggle()}
        aria-label={`${name} for ${organisation.name}`}
        styles={{ input: { cursor: 'pointer' } }}
      />
    </Tooltip>
  );
}

interface SubscriptionMatrixProps {
  organisations: readonly Account[];
  /** The codes the caller's organisation holds: the columns. */
  codes: readonly FeatureCode[];
  emptyState: ReactNode;
}

/** Client organisations × the codes the caller holds, with each cell's current state. */
export function SubscriptionMatrix({ organisations, codes, emptyState }: SubscriptionMatrixProps) {
  const results = useSubscriptionsOf(organisations.map((organisation) => organisation.tenant_id));
  const rows: MatrixRow[] = organisations.map((organisation, index) => ({
    organisation,
    subscriptions: results[index]?.data,
    isError: results[index]?.isError ?? false,
  }));
  const columns = useMemo<DataTableColumn<MatrixRow>[]>(
    () => [
      {
        id: 'organisation',
        header: 'Organisation',
        sortValue: (row) => row.organisation.name,
        render: (row) => (
          <Stack gap={0}>
            <Anchor component={Link} to={paths.subscription.assign(row.organisation.tenant_id)} fw={500}>
              {row.organisation.name}
            </Anchor>
            {!row.organisation.is_active && (
              <Text size="xs" c="dimmed">
                Inactive
              </Text>
            )}
          </Stack>
        ),
      },
      ...codes.map<DataTableColumn<MatrixRow>>((code) => ({
        id: code,
        header: codeName(code),
        align: 'center',
        searchable: false,
        sortValue: (row) => (isAssigned(row.subscriptions?.find((item) => item.info.code === code)) ? 1 : 0),
        render: (row) => <MatrixCell row={row} code={code} />,
      })),
    ],
    [codes],
  );
  return (
    <DataTable
      label="Subscriptions by organisation"
      columns={columns}
      data={rows}
      rowKey={(row) => row.organisation.tenant_id}
      emptyState={emptyState}
      searchPlaceholder="Search organisations"
      initialSort={{ column: 'organisation', direction: 'asc' }}
      minWidth={200 + codes.length * 140}
    />
  );
}
