import { Alert, Stack } from '@mantine/core';
import type { AccountCreated } from '@omnibot/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { OneTimeSecretModal } from '../../../components/ui/one-time-secret';
import { PageHeader } from '../../../components/ui/page-header';
import { paths } from '../../../config/paths';
import { useTenant } from '../../../features/tenants/api/get-tenant';
import { useTenantSubscriptions } from '../../../features/tenants/api/get-tenant-subscriptions';
import { TenantCreateForm } from '../../../features/tenants/components/tenant-create-form';
import { useSession } from '../../../lib/session';

function TenantAdd({ ownTenantId }: { ownTenantId: string }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const parentId = params.get('parent_id') || ownTenantId;
  const parent = useTenant(parentId);
  const subscriptions = useTenantSubscriptions(parentId);
  // The secret lives here only, until the modal closes.
  const [created, setCreated] = useState<AccountCreated | null>(null);

  let content;
  if (parent.isPending || subscriptions.isPending) {
    content = <FormSkeleton label="Loading the parent organisation" fields={8} />;
  } else if (parent.isError || subscriptions.isError) {
    content = (
      <LoadError
        title="The parent organisation could not be loaded"
        error={parent.error ?? subscriptions.error}
        onRetry={() => void Promise.all([parent.refetch(), subscriptions.refetch()])}
      />
    );
  } else if (!parent.data) {
    content = (
      <Alert color="red" icon={<IconAlertCircle />} title="Organisation not found" role="alert">
        The organisation to create it under does not exist or is not yours to manage.
      </Alert>
    );
  } else if (parent.data.type === '3') {
    content = (
      <Alert color="yellow" icon={<IconAlertCircle />} title="Clients cannot have organisations">
        {parent.data.name} is a client organisation: organisations can only be created under the platform or a
        partner.
      </Alert>
    );
  } else {
    content = (
      <TenantCreateForm
        parent={parent.data}
        parentSubscriptions={subscriptions.data}
        onCreated={setCreated}
      />
    );
  }

  const closeSecret = () => {
    const tenantId = created?.account.tenant_id;
    setCreated(null);
    if (tenantId) void navigate(paths.tenant.view(tenantId));
  };

  return (
    <>
      <PageHeader
        title="Add an organisation"
        description="Name it, pick the subscriptions it starts with, and add its address and contact details."
        back={{ to: paths.tenant.list, label: 'Client organisations' }}
      />
      {content}
      <OneTimeSecretModal
        credential={created?.credential ?? null}
        title={created ? `API credential of ${created.account.name}` : undefined}
        description="Servers use this key and secret to call the account service for the new organisation."
        onClose={closeSecret}
      />
    </>
  );
}

/** /tenant/add (?parent_id= to create under a child, for a master or an ancestor's administrator). */
export function Component() {
  const session = useSession();
  return (
    <RequireMenuRoute route={paths.tenant.list}>
      <Stack gap={0} maw={960} w="100%">
        {session && <TenantAdd ownTenantId={session.profile.tenant_id} />}
      </Stack>
    </RequireMenuRoute>
  );
}
