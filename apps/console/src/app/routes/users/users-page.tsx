import { Alert, Button, Stack } from '@mantine/core';
import { TenantIdSchema, type UserListQuery } from '@omnibot/contracts';
import { IconAlertCircle, IconUserPlus } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { TenantPicker } from '../../../features/users/components/tenant-picker';
import { UserList } from '../../../features/users/components/user-list';
import { listQueryFrom } from '../../../features/users/utils/user-list-query';
import { userPaths } from '../../../features/users/utils/user-paths';
import { canManageOrganisation } from '../../../lib/permissions';
import { useSession } from '../../../lib/session';

const DEFAULTS = listQueryFrom(new URLSearchParams());

/** The list's state in the address bar, leaving out what is the default. */
function searchFor(tenantId: string | undefined, query: UserListQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (tenantId) params.set('tenant_id', tenantId);
  if (query.q) params.set('q', query.q);
  if (query.page !== DEFAULTS.page) params.set('page', String(query.page));
  if (query.page_size !== DEFAULTS.page_size) params.set('page_size', String(query.page_size));
  if (query.sort !== DEFAULTS.sort) params.set('sort', query.sort);
  if (query.order !== DEFAULTS.order) params.set('order', query.order);
  return params;
}

/** /user (and /user?tenant_id= for a client organisation): the organisation's users. */
export function Component() {
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const ownTenantId = session?.profile.tenant_id ?? '';
  const requested = params.get('tenant_id');
  const tenantId = requested || ownTenantId;
  const isOwnTenant = tenantId === ownTenantId;
  const canManage = canManageOrganisation(session?.profile.role);
  const query = listQueryFrom(params);
  const linkTenant = isOwnTenant ? undefined : tenantId;

  const content = TenantIdSchema.safeParse(tenantId).success ? (
    <UserList
      key={tenantId}
      tenantId={tenantId}
      isOwnTenant={isOwnTenant}
      canManage={canManage}
      query={query}
      onQueryChange={(next) => setParams(searchFor(linkTenant, next))}
    />
  ) : (
    <Alert color="red" icon={<IconAlertCircle />} role="alert" title="This address names no organisation">
      The organisation in the address is not valid. Pick one from the list, or open Users from the menu.
    </Alert>
  );

  return (
    <RequireMenuRoute route="/user">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Users"
          description="The people who sign in to the console, their roles and whether they may sign in."
          actions={
            canManage && (
              <Button
                component={Link}
                to={userPaths.add(linkTenant)}
                leftSection={<IconUserPlus size={16} />}
              >
                Add user
              </Button>
            )
          }
        />
        <Stack gap="md">
          {canManage && (
            <TenantPicker
              ownTenantId={ownTenantId}
              ownTenantName={session?.tenantName ?? ''}
              value={tenantId}
              onChange={(next) =>
                setParams(
                  searchFor(next === ownTenantId ? undefined : next, { ...query, page: 1, q: undefined }),
                )
              }
            />
          )}
          {content}
        </Stack>
      </Stack>
    </RequireMenuRoute>
  );
}
