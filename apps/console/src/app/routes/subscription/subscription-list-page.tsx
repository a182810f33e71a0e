import { Alert, Button } from '@mantine/core';
import { IconInfoCircle, IconLayoutGrid, IconListCheck, IconPlus, IconReceipt } from '@tabler/icons-react';
import { Link } from 'react-router';
import { isMenuRouteVisible } from '../../../components/access/menu-route';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { PageHeader } from '../../../components/ui/page-header';
import { paths } from '../../../config/paths';
import { SubscriptionTable } from '../../../features/subscriptions/components/subscription-table';
import { useVisibleMenu } from '../../../lib/menu';
import { useSession, type Session } from '../../../lib/session';

function SubscriptionList({ session }: { session: Session }) {
  const { entries } = useVisibleMenu();
  // Passing subscriptions on is for organisations that manage client organisations.
  const managesClients = isMenuRouteVisible(entries, paths.tenant.list);
  const ownTenantId = session.profile.tenant_id;
  const isPlatformMaster = session.profile.role === 'master' && session.tenantType === '1';

  return (
    <>
      <PageHeader
        title="Subscriptions"
        description={`What ${session.tenantName} subscribes to: each code turns on a part of the console.`}
        actions={
          managesClients && (
            <>
              <Button
                component={Link}
                to={paths.subscription.matrix}
                variant="default"
                leftSection={<IconLayoutGrid size={16} />}
              >
                Overview
              </Button>
              <Button
                component={Link}
                to={paths.subscription.assign()}
                variant="default"
                leftSection={<IconListCheck size={16} />}
              >
                Assign
              </Button>
              <Button component={Link} to={paths.subscription.add()} leftSection={<IconPlus size={16} />}>
                Add subscription
              </Button>
            </>
          )
        }
      />
      {!isPlatformMaster && (
        <Alert color="gray" variant="light" icon={<IconInfoCircle />} mb="md">
          Your organisation’s subscriptions are assigned by its parent organisation.
          {managesClients && ' Use Assign or Add subscription to pass them on to your client organisations.'}
        </Alert>
      )}
      <SubscriptionTable
        tenantId={ownTenantId}
        label="Your subscriptions"
        emptyState={
          <EmptyPanel
            icon={<IconReceipt size={32} />}
            title="No subscriptions"
            description="Your organisation has no subscription. Ask its parent organisation to assign one."
          />
        }
      />
    </>
  );
}

/** /subscription: the own organisation's subscriptions (code, name, state, period). */
export function Component() {
  const session = useSession();
  return (
    <RequireMenuRoute route={paths.subscription.list}>
      {session && <SubscriptionList session={session} />}
    </RequireMenuRoute>
  );
}
