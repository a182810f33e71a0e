import { Alert, Anchor, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { isMenuRouteVisible } from '../../../components/access/menu-route';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { PageHeader } from '../../../components/ui/page-header';
import { paths } from '../../../config/paths';
import { useSubscription } from '../../../features/subscriptions/api/get-subscription';
import { SubscriptionDetails } from '../../../features/subscriptions/components/subscription-details';
import { useTenant } from '../../../features/tenants/api/get-tenant';
import { useVisibleMenu } from '../../../lib/menu';
import { useSession, type Session } from '../../../lib/session';

function SubscriptionView({ session }: { session: Session }) {
  const [params] = useSearchParams();
  const { entries } = useVisibleMenu();
  const ownTenantId = session.profile.tenant_id;
  const tenantId = params.get('tenant_id') || ownTenantId;
  const id = params.get('id') ?? '';
  const subscription = useSubscription(tenantId, id);
  const tenant = useTenant(tenantId);
  const isOwn = tenantId === ownTenantId;
  const back = { to: paths.subscription.list, label: 'Subscriptions' };

  const notFound = (
    <Alert color="red" icon={<IconAlertCircle />} title="Subscription not found" role="alert">
      It does not exist, or it belongs to an organisation yours does not manage.{' '}
      <Anchor component={Link} to={paths.subscription.list} inherit>
        Back to the subscriptions
      </Anchor>
    </Alert>
  );

  if (!id)
    return (
      <>
        <PageHeader title="Subscription" back={back} />
        {notFound}
      </>
    );
  if (subscription.isPending || tenant.isPending)
    return (
      <>
        <PageHeader title="Subscription" back={back} />
        <FormSkeleton label="Loading the subscription" fields={6} />
      </>
    );
  if (subscription.isError || tenant.isError)
    return (
      <>
        <PageHeader title="Subscription" back={back} />
        <LoadError
          title="The subscription could not be loaded"
          error={subscription.error ?? tenant.error}
          onRetry={() => void Promise.all([subscription.refetch(), tenant.refetch()])}
        />
      </>
    );
  if (!subscription.data)
    return (
      <>
        <PageHeader title="Subscription" back={back} />
        {notFound}
      </>
    );

  const organisationName = tenant.data?.name ?? tenantId;
  const role = session.profile.role;
  const isManager = role === 'administrator' || role === 'master';
  // A parent manages its children's subscriptions; only a master manages the platform's own.
  const canManage = isManager && (!isOwn || (role === 'master' && tenant.data?.type === '1'));
  const canOpenTenant = !isOwn && isMenuRouteVisible(entries, paths.tenant.list);

  return (
    <>
      <PageHeader
        title={subscription.data.info.name}
        description={`Subscription of ${organisationName}`}
        back={
          isOwn
            ? back
            : {
                to: canOpenTenant ? paths.tenant.view(tenantId) : paths.subscription.list,
                label: canOpenTenant ? organisationName : 'Subscriptions',
              }
        }
      />
      <SubscriptionDetails
        subscription={subscription.data}
        organisation={{
          name: organisationName,
          href: canOpenTenant ? paths.tenant.view(tenantId) : undefined,
        }}
        canManage={canManage}
      />
    </>
  );
}

/** /subscription/view?tenant_id=&id=: one subscription; revoke, reactivate, change its period. */
export function Component() {
  const session = useSession();
  return (
    <RequireMenuRoute route={paths.subscription.list}>
      <Stack gap={0} maw={760} w="100%">
        {session && <SubscriptionView session={session} />}
      </Stack>
    </RequireMenuRoute>
  );
}
