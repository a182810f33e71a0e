import { Alert, Anchor, Badge, Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { Profile, UserListQuery } from '@omnibot/contracts';
import { IconAlertCircle, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn, type DataTableSort } from '../../../components/ui/data-table';
import { errorMessage } from '../../../lib/error-message';
import { useUsers } from '../api/get-users';
import { isSortField, USER_PAGE_SIZES } from '../utils/user-list-query';
import { displayNameOf, formatDate } from '../utils/format';
import { userPaths } from '../utils/user-paths';
import { RoleBadge } from './role-badge';

interface UserListProps {
  tenantId: string;
  /** The caller's own organisation: links leave out `tenant_id` for it. */
  isOwnTenant: boolean;
  canManage: boolean;
  query: UserListQuery;
  onQueryChange: (query: UserListQuery) => void;
}

/** A tenant's users, paged, searched and sorted by the server (GET /v1/Account/{tenant_id}/User). */
export function UserList({ tenantId, isOwnTenant, canManage, query, onQueryChange }: UserListProps) {
  const users = useUsers(tenantId, query);
  const linkTenant = isOwnTenant ? undefined : tenantId;

  const columns = useMemo<DataTableColumn<Profile>[]>(
    () => [
      {
        id: 'name',
        header: 'Name',
        render: (user) => (
          <Anchor component={Link} to={userPaths.view(user.id, linkTenant)} fw={500}>
            {displayNameOf(user)}
          </Anchor>
        ),
      },
      {
        id: 'email',
        header: 'E-mail',
        sortValue: (user) => user.email,
        render: (user) => (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {user.email}
          </Text>
        ),
      },
      {
        id: 'role',
        header: 'Role',
        sortValue: (user) => user.role,
        render: (user) => <RoleBadge role={user.role} />,
      },
      {
        id: 'active',
        header: 'Active',
        render: (user) => (
          <Badge variant="dot" color={user.is_active ? 'teal' : 'gray'}>
            {user.is_active ? 'Active' : 'Disabled'}
          </Badge>
        ),
      },
      {
        id: 'verified',
        header: 'Verified',
        render: (user) => (
          <Badge variant="light" color={user.email_verified ? 'teal' : 'yellow'}>
            {user.email_verified ? 'Verified' : 'Not verified'}
          </Badge>
        ),
      },
      {
        id: 'created_at',
        header: 'Created',
        sortValue: (user) => user.created_at,
        render: (user) => (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatDate(user.created_at)}
          </Text>
        ),
      },
    ],
    [linkTenant],
  );

  if (users.isError || users.data?.code === 404) {
    return (
      <Alert color="red" icon={<IconAlertCircle />} title="The users could not be loaded" role="alert">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">
            {users.isError
              ? errorMessage(users.error)
              : 'This organisation was not found, or you may not see its users.'}
          </Text>
          {users.isError && (
            <Button size="xs" variant="light" color="red" onClick={() => void users.refetch()}>
              Try again
            </Button>
          )}
        </Stack>
      </Alert>
    );
  }

  const page = users.data?.code === 200 ? users.data : undefined;
  const sort: DataTableSort = { column: query.sort, direction: query.order };

  return (
    <Stack gap="sm">
      {!canManage && (
        <Text size="sm" c="dimmed">
          You see your own account here; administrators see and manage every user.
        </Text>
      )}
      <DataTable<Profile>
        label="Users"
        columns={columns}
        data={page?.items}
        rowKey={(user) => user.id}
        isLoading={users.isPending}
        searchPlaceholder="Search by name or e-mail"
        pageSizes={USER_PAGE_SIZES}
        minWidth={760}
        emptyState={
          <Stack align="center" gap="sm" ta="center">
            <ThemeIcon size={48} radius="xl" variant="light">
              <IconUsers size={26} />
            </ThemeIcon>
            <Title order={2} size="h4">
              No users yet
            </Title>
            <Text c="dimmed" maw={420}>
              {canManage
                ? 'Invite the first person: they get an e-mail with a link to choose a password.'
                : 'Ask an administrator to invite people to this organisation.'}
            </Text>
            {canManage && (
              <Button
                component={Link}
                to={userPaths.add(linkTenant)}
                leftSection={<IconUserPlus size={16} />}
              >
                Add user
              </Button>
            )}
          </Stack>
        }
        server={{
          total: page?.total ?? 0,
          page: query.page,
          pageSize: query.page_size,
          search: query.q ?? '',
          sort,
          onPageChange: (next) => onQueryChange({ ...query, page: next }),
          onPageSizeChange: (next) => onQueryChange({ ...query, page_size: next, page: 1 }),
          onSearchChange: (q) => onQueryChange({ ...query, q: q || undefined, page: 1 }),
          onSortChange: (next) =>
            isSortField(next.column) &&
            onQueryChange({ ...query, sort: next.column, order: next.direction, page: 1 }),
        }}
      />
    </Stack>
  );
}
