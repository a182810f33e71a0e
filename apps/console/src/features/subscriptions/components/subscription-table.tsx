import { Anchor, Stack, Text } from '@mantine/core';
import type { Subscription } from '@omnibot/contracts';
import { useMemo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/forms/form-skeleton';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/dates';
import { useSubscriptions } from '../api/get-subscriptions';
import { lastMomentOf, SUBSCRIPTION_STATE_LABELS, subscriptionState } from '../utils/subscription-state';
import { SubscriptionStateBadge } from './subscription-state-badge';

const STATE_ORDER = { current: 0, scheduled: 1, lapsed: 2, revoked: 3 } as const;

const COLUMNS: DataTableColumn<Subscription>[] = [
  {
    id: 'name',
    header: 'Subscription',
    sortValue: (row) => row.info.name,
    searchValue: (row) => `${row.info.name} ${row.info.code}`,
    render: (row) => (
      <Stack gap={0}>
        <Anchor component={Link} to={paths.subscription.view(row.tenant_id, row.id)} fw={500}>
          {row.info.name}
        </Anchor>
        <Text size="xs" c="dimmed" ff="monospace">
          {row.info.code}
        </Text>
      </Stack>
    ),
  },
  {
    id: 'state',
    nowrap: true,
    header: 'State',
    sortValue: (row) => STATE_ORDER[subscriptionState(row)],
    searchValue: (row) => SUBSCRIPTION_STATE_LABELS[subscriptionState(row)].label,
    render: (row) => <SubscriptionStateBadge subscription={row} />,
  },
  {
    id: 'status',
    header: 'Status',
    sortValue: (row) => row.status,
    render: (row) => (row.status === 'active' ? 'Active' : 'Revoked'),
  },
  {
    id: 'starts',
    nowrap: true,
    header: 'Starts',
    sortValue: (row) => row.starts_at,
    searchable: false,
    render: (row) => formatDate(row.starts_at),
  },
  {
    id: 'ends',
    nowrap: true,
    header: 'Last day',
    sortValue: (row) => row.ends_at,
    searchable: false,
    render: (row) => (row.ends_at ? formatDate(lastMomentOf(row.ends_at)) : <Text c="dimmed">No end</Text>),
  },
];

interface SubscriptionTableProps {
  tenantId: string;
  label: string;
  emptyState: ReactNode;
}

/** A tenant's subscriptions: code, name, state and period; each opens /subscription/view. */
export function SubscriptionTable({ tenantId, label, emptyState }: SubscriptionTableProps) {
  const subscriptions = useSubscriptions(tenantId);
  const columns = useMemo(() => COLUMNS, []);
  if (subscriptions.isError) {
    return (
      <LoadError
        title="The subscriptions could not be loaded"
        error={subscriptions.error}
        onRetry={() => void subscriptions.refetch()}
      />
    );
  }
  return (
    <DataTable
      label={label}
      columns={columns}
      data={subscriptions.data}
      rowKey={(row) => row.id}
      isLoading={subscriptions.isPending}
      emptyState={emptyState}
      searchPlaceholder="Search by name, code or state"
      initialSort={{ column: 'name', direction: 'asc' }}
      minWidth={560}
    />
  );
}
