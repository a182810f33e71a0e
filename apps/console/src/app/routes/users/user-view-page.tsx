import { Alert, Anchor, Stack } from '@mantine/core';
import { assignableRoles, isMenuRole } from '@omnibot/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { PageHeader } from '../../../components/ui/page-header';
import { useCurrentUser } from '../../../features/users/api/get-current-user';
import { useUser } from '../../../features/users/api/get-user';
import { useTargetTenant } from '../../../features/users/hooks/use-target-tenant';
import { UserEditForm } from '../../../features/users/components/user-edit-form';
import { userPaths } from '../../../features/users/utils/user-paths';
import { canManageOrganisation } from '../../../lib/permissions';
import { useSession } from '../../../lib/session';

function NotFound({ listHref, children }: { listHref: string; children: string }) {
  return (
    <Alert color="red" icon={<IconAlertCircle />} role="alert" title="User not found">
      {children}{' '}
      <Anchor component={Link} to={listHref} inherit>
        Back to the users
      </Anchor>
    </Alert>
  );
}

/** /user/view?user_id=&tenant_id=: one user's role, status, details and address. */
export function Component() {
  const session = useSession();
  const [params] = useSearchParams();
  const ownTenantId = session?.profile.tenant_id ?? '';
  const tenantId = params.get('tenant_id') || ownTenantId;
  const userId = params.get('user_id') ?? '';
  const linkTenant = tenantId === ownTenantId ? undefined : tenantId;
  const stored = session?.profile.role ?? '';
  const actorRole = isMenuRole(stored) ? stored : 'agent';
  const canManage = canManageOrganisation(actorRole);

  const user = useUser(tenantId, userId);
  const me = useCurrentUser();
  const target = useTargetTenant(
    { tenantId: ownTenantId, name: session?.tenantName ?? '', type: session?.tenantType ?? '' },
    tenantId,
    canManage,
  );

  let content;
  if (!userId) content = <NotFound listHref={userPaths.list(linkTenant)}>No user was chosen.</NotFound>;
  else if (user.isPending || me.isPending || (canManage && target.isPending))
    content = <FormSkeleton label="Loading the user" fields={10} />;
  else if (user.isError)
    content = (
      <LoadError
        title="The user could not be loaded"
        error={user.error}
        onRetry={() => void user.refetch()}
      />
    );
  else if (!user.data)
    content = (
      <NotFound listHref={userPaths.list(linkTenant)}>
        This user does not exist in the organisation, or you may not see them.
      </NotFound>
    );
  else {
    const isSelf = me.data?.id === user.data.id;
    content = (
      <Stack gap="md">
        {isSelf && (
          <Alert color="blue" variant="light">
            This is you. Your password is changed on{' '}
            <Anchor component={Link} to="/profile" inherit>
              your profile
            </Anchor>
            .
          </Alert>
        )}
        <UserEditForm
          key={user.data.id}
          user={user.data}
          actorRole={actorRole}
          assignableRoles={target.tenant ? assignableRoles(actorRole, target.tenant.type) : []}
          canManage={canManage && !!target.tenant}
          isSelf={isSelf}
        />
      </Stack>
    );
  }

  return (
    <RequireMenuRoute route="/user">
      <Stack gap={0} maw={960} w="100%">
        <PageHeader title="User" back={{ to: userPaths.list(linkTenant), label: 'Users' }} />
        {content}
      </Stack>
    </RequireMenuRoute>
  );
}
