import { Alert, Stack } from '@mantine/core';
import { assignableRoles, isMenuRole } from '@omnibot/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import { useNavigate, useSearchParams } from 'react-router';
import { NoAccess, RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { PageHeader } from '../../../components/ui/page-header';
import { TenantPicker } from '../../../features/users/components/tenant-picker';
import { useTargetTenant } from '../../../features/users/hooks/use-target-tenant';
import { UserCreateForm } from '../../../features/users/components/user-create-form';
import { userPaths } from '../../../features/users/utils/user-paths';
import { canManageOrganisation } from '../../../lib/permissions';
import { useSession } from '../../../lib/session';

/** /user/add (and ?tenant_id= for a client organisation): invite a person. Administrators and masters only. */
export function Component() {
  const session = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const ownTenantId = session?.profile.tenant_id ?? '';
  const tenantId = params.get('tenant_id') || ownTenantId;
  const linkTenant = tenantId === ownTenantId ? undefined : tenantId;
  const stored = session?.profile.role ?? '';
  const role = isMenuRole(stored) ? stored : undefined;
  const canManage = role !== undefined && canManageOrganisation(role);
  const target = useTargetTenant(
    { tenantId: ownTenantId, name: session?.tenantName ?? '', type: session?.tenantType ?? '' },
    tenantId,
    canManage,
  );

  let content;
  if (!role || !canManage) content = null;
  else if (target.isPending) content = <FormSkeleton label="Loading the organisation" fields={4} />;
  else if (target.error)
    content = (
      <LoadError
        title="The organisation could not be loaded"
        error={target.error}
        onRetry={() => void target.refetch()}
      />
    );
  else if (!target.tenant)
    content = (
      <Alert color="red" icon={<IconAlertCircle />} role="alert" title="Organisation not found">
        The organisation in the address is not one you manage. Pick one from the list above.
      </Alert>
    );
  else
    content = (
      <UserCreateForm
        key={target.tenant.tenantId}
        tenantId={target.tenant.tenantId}
        tenantName={target.tenant.name}
        roles={assignableRoles(role, target.tenant.type)}
        onCreated={() => void navigate(userPaths.list(linkTenant))}
      />
    );

  return (
    <RequireMenuRoute route="/user">
      {canManage ? (
        <Stack gap={0} maw={960} w="100%">
          <PageHeader
            title="Add user"
            description="Invite a person by e-mail. They choose their own password from the link we send."
            back={{ to: userPaths.list(linkTenant), label: 'Users' }}
          />
          <Stack gap="md">
            <TenantPicker
              ownTenantId={ownTenantId}
              ownTenantName={session?.tenantName ?? ''}
              value={tenantId}
              onChange={(next) => setParams(next === ownTenantId ? {} : { tenant_id: next })}
              label="Add to organisation"
            />
            {content}
          </Stack>
        </Stack>
      ) : (
        <NoAccess />
      )}
    </RequireMenuRoute>
  );
}
