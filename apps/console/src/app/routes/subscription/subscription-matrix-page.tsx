import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { PageHeader } from '../../../components/ui/page-header';
import { paths } from '../../../config/paths';
import { useSubscriptions } from '../../../features/subscriptions/api/get-subscriptions';
import { SubscriptionMatrix } from '../../../features/subscriptions/components/subscription-matrix';
import { heldCodes } from '../../../features/subscriptions/utils/subscription-state';
import { NoOrganisations } from './no-organisations';
import { RequireClientManagement } from './require-client-management';
import { useOrganisations } from './use-organisations';

function SubscriptionOverview({ ownTenantId }: { ownTenantId: string }) {
  const organisations = useOrganisations(ownTenantId, '');
  const own = useSubscriptions(ownTenantId);

  let content;
  if (organisations.isPending || own.isPending)
    content = <FormSkeleton label="Loading the subscriptions" fields={4} />;
  else if (!organisations.organisations || own.isError)
    content = (
      <LoadError
        title="The overview could not be loaded"
        error={organisations.error ?? own.error}
        onRetry={() => void Promise.all([organisations.refetch(), own.refetch()])}
      />
    );
  else
    content = (
      <SubscriptionMatrix
        organisations={organisations.organisations}
        codes={heldCodes(own.data)}
        emptyState={<NoOrganisations />}
      />
    );

  return (
    <>
      <PageHeader
        title="Subscriptions by organisation"
        description="Every client organisation against the subscriptions your organisation holds. Tick a cell to assign, untick it to revoke."
        back={{ to: paths.subscription.list, label: 'Subscriptions' }}
      />
      {content}
    </>
  );
}

/** /subscription/assign/detail: the matrix of client organisations × codes. */
export function Component() {
  return (
    <RequireClientManagement>
      {(ownTenantId) => <SubscriptionOverview ownTenantId={ownTenantId} />}
    </RequireClientManagement>
  );
}
