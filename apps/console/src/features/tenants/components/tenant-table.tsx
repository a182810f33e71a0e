import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import type { Account } from '@omnibot/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/dates';
import { tenantTypeLabel } from '../utils/tenant-labels';
import { TenantStatusBadge } from './tenant-status-badge';

const place = (account: Account) =>
  [account.address.city, account.address.country].filter(Boolean).join(', ');

function columnsFor(ownTenantId: string | undefined): DataTableColumn<Account>[] {
  return [
    {
      id: 'name',
      header: 'Name',
      sortValue: (row) => row.name,
      searchValue: (row) => `${row.name} ${row.tenant_id}`,
      render: (row) => (
        <Stack gap={0}>
          <Group gap={6} wrap="nowrap">
            <Anchor component={Link} to={paths.tenant.view(row.tenant_id)} fw={500}>
              {row.name}
            </Anchor>
            {row.tenant_id === ownTenantId && (
              <Badge size="xs" variant="light">
                Your organisation
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed" ff="monospace">
            {row.tenant_id}
          </Text>
        </Stack>
      ),
    },
    {
      id: 'type',
      nowrap: true,
      header: 'Type',
      sortValue: (row) => tenantTypeLabel(row.type),
      render: (row) => tenantTypeLabel(row.type),
    },
    {
      id: 'domain',
      header: 'Domain',
      sortValue: (row) => row.info.domain,
      render: (row) => row.info.domain || <Text c="dimmed">—</Text>,
    },
    {
      id: 'place',
      nowrap: true,
      header: 'City, country',
      sortValue: place,
      render: (row) => place(row) || <Text c="dimmed">—</Text>,
    },
    {
      id: 'status',
      nowrap: true,
      header: 'Status',
      sortValue: (row) => (row.is_active ? 'Active' : 'Inactive'),
      render: (row) => <TenantStatusBadge isActive={row.is_active} />,
    },
    {
      id: 'created',
      nowrap: true,
      header: 'Created',
      sortValue: (row) => row.created_at,
      searchable: false,
      render: (row) => formatDate(row.created_at),
    },
  ];
}

interface TenantTableProps {
  label: string;
  tenants: readonly Account[] | undefined;
  isLoading: boolean;
  emptyState: ReactNode;
  /** Marks the signed-in user's own organisation. */
  ownTenantId?: string;
}

/** Organisations with search, sorting and paging; each name opens /tenant/view. */
export function TenantTable({ label, tenants, isLoading, emptyState, ownTenantId }: TenantTableProps) {
  return (
    <DataTable
      label={label}
      columns={columnsFor(ownTenantId)}
      data={tenants}
      rowKey={(row) => row.tenant_id}
      isLoading={isLoading}
      emptyState={emptyState}
      searchPlaceholder="Search by name, ID, domain or city"
      initialSort={{ column: 'name', direction: 'asc' }}
    />
  );
}
