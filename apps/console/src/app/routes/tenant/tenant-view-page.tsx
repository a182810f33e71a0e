import { Alert, Anchor, Button, Grid, Stack, Title } from '@mantine/core';
import type { Account } from '@omnibot/contracts';
import { IconAlertCircle, IconBuildingCommunity, IconPlus, IconReceipt } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { PageHeader } from '../../../components/ui/page-header';
import { paths } from '../../../config/paths';
import { SubscriptionTable } from '../../../features/subscriptions/components/subscription-table';
import { useChildTenants } from '../../../features/tenants/api/get-child-tenants';
import { useTenant } from '../../../features/tenants/api/get-tenant';
import { useTenantSubscriptions } from '../../../features/tenants/api/get-tenant-subscriptions';
import { TenantDetailsForm } from '../../../features/tenants/components/tenant-details-form';
import { TenantStatusCard } from '../../../features/tenants/components/tenant-status-card';
import { TenantTable } from '../../../features/tenants/components/tenant-table';
import { tenantTypeLabel } from '../../../features/tenants/utils/tenant-labels';
import {
  canChangeTenantStatus,
  canEditTenant,
  mayHaveChildrenOfType,
} from '../../../features/tenants/utils/tenant-permissions';
import type { Session } from '../../../lib/session';
import { useSession } from '../../../lib/session';

function Section({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {title}
      </Title>
      {children}
      {actions}
    </Stack>
  );
}

function TenantChildren({ tenant, canCreate }: { tenant: Account; canCreate: boolean }) {
  const children = useChildTenants(tenant.tenant_id);
  if (children.isError) {
    return (
      <LoadError
        title="Its organisations could not be loaded"
        error={children.error}
        onRetry={() => void children.refetch()}
      />
    );
  }
  return (
    <TenantTable
      label={`Organisations of ${tenant.name}`}
      tenants={children.data}
      isLoading={children.isPending}
      emptyState={
        <EmptyPanel
          icon={<IconBuildingCommunity size={28} />}
          size="sm"
          order={3}
          title="No organisations below it"
          description={
            canCreate
              ? `Add one to create a client organisation under ${tenant.name}.`
              : 'Organisations created under it appear here.'
          }
          action={
            canCreate && (
              <Button
                component={Link}
                to={paths.tenant.addUnder(tenant.tenant_id)}
                variant="light"
                leftSection={<IconPlus size={16} />}
              >
                Add organisation
              </Button>
            )
          }
        />
      }
    />
  );
}

function TenantView({ session }: { session: Session }) {
  const [params] = useSearchParams();
  const tenantId = params.get('tenant_id') ?? '';
  const tenant = useTenant(tenantId);
  const subscriptions = useTenantSubscriptions(tenantId);
  const viewer = { role: session.profile.role, tenantId: session.profile.tenant_id };
  const back = { to: paths.tenant.list, label: 'Client organisations' };

  if (!tenantId) {
    return (
      <>
        <PageHeader title="Organisation" back={back} />
        <Alert color="red" icon={<IconAlertCircle />} title="No organisation was chosen" role="alert">
          Open one from the{' '}
          <Anchor component={Link} to={paths.tenant.list} inherit>
            list of client organisations
          </Anchor>
          .
        </Alert>
      </>
    );
  }
  if (tenant.isPending) {
    return (
      <>
        <PageHeader title="Organisation" back={back} />
        <FormSkeleton label="Loading the organisation" fields={10} />
      </>
    );
  }
  if (tenant.isError || !tenant.data) {
    return (
      <>
        <PageHeader title="Organisation" back={back} />
        {tenant.isError ? (
          <LoadError
            title="The organisation could not be loaded"
            error={tenant.error}
            onRetry={() => void tenant.refetch()}
          />
        ) : (
          <Alert color="red" icon={<IconAlertCircle />} title="Organisation not found" role="alert">
            It does not exist, or it is not one your organisation manages.{' '}
            <Anchor component={Link} to={paths.tenant.list} inherit>
              Back to the client organisations
            </Anchor>
          </Alert>
        )}
      </>
    );
  }

  const account = tenant.data;
  const canEdit = canEditTenant(viewer);
  const isOwn = account.tenant_id === viewer.tenantId;
  const holdsSubtenant =
    subscriptions.data?.some((item) => item.is_current && item.info.code === 'subtenant') ?? false;
  const canCreateBelow = canEdit && mayHaveChildrenOfType(account.type, holdsSubtenant);
  // The server lets a parent manage its children's subscriptions, and a master the platform's own.
  const canManageSubscriptions = canEdit && (!isOwn || (viewer.role === 'master' && account.type === '1'));

  return (
    <>
      <PageHeader
        title={account.name}
        description={`${tenantTypeLabel(account.type)} organisation${isOwn ? ' (your organisation)' : ''}`}
        back={back}
        actions={
          <>
            {canManageSubscriptions && !isOwn && (
              <Button
                component={Link}
                to={paths.subscription.assign(account.tenant_id)}
                variant="default"
                leftSection={<IconReceipt size={16} />}
              >
                Assign subscriptions
              </Button>
            )}
            {canCreateBelow && (
              <Button
                component={Link}
                to={paths.tenant.addUnder(account.tenant_id)}
                leftSection={<IconPlus size={16} />}
              >
                Add organisation
              </Button>
            )}
          </>
        }
      />
      <Stack gap="xl">
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: canChangeTenantStatus(viewer, account) ? 8 : 12 }}>
            <TenantDetailsForm key={account.tenant_id} tenant={account} canEdit={canEdit} />
          </Grid.Col>
          {canChangeTenantStatus(viewer, account) && (
            <Grid.Col span={{ base: 12, md: 4 }}>
              <TenantStatusCard tenant={account} />
            </Grid.Col>
          )}
        </Grid>
        <Section title="Subscriptions">
          <SubscriptionTable
            tenantId={account.tenant_id}
            label={`Subscriptions of ${account.name}`}
            emptyState={
              <EmptyPanel
                icon={<IconReceipt size={28} />}
                size="sm"
                order={3}
                title="No subscriptions"
                description={
                  canManageSubscriptions && !isOwn
                    ? 'Assign one so its users can sign in and use the features.'
                    : 'Its parent organisation assigns its subscriptions.'
                }
              />
            }
          />
        </Section>
        {(account.type === '1' || account.type === '2') && (
          <Section title="Organisations below it">
            <TenantChildren tenant={account} canCreate={canCreateBelow} />
          </Section>
        )}
      </Stack>
    </>
  );
}

/** /tenant/view?tenant_id=: one organisation's details, status, subscriptions and children. */
export function Component() {
  const session = useSession();
  return (
    <RequireMenuRoute route={paths.tenant.list}>
      <Stack gap={0} maw={1200} w="100%">
        {session && <TenantView session={session} />}
      </Stack>
    </RequireMenuRoute>
  );
}
