import { Stack } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { PageHeader } from '../../../components/ui/page-header';
import { paths } from '../../../config/paths';
import { SubscriptionCreateForm } from '../../../features/subscriptions/components/subscription-create-form';
import { NoOrganisations } from './no-organisations';
import { RequireClientManagement } from './require-client-management';
import { useOrganisations } from './use-organisations';

function SubscriptionAdd({ ownTenantId }: { ownTenantId: string }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const initialTenantId = params.get('tenant_id') ?? '';
  const organisations = useOrganisations(ownTenantId, initialTenantId);

  let content;
  if (organisations.isPending)
    content = <FormSkeleton label="Loading your client organisations" fields={4} />;
  else if (!organisations.organisations)
    content = (
      <LoadError
        title="Your client organisations could not be loaded"
        error={organisations.error}
        onRetry={() => void organisations.refetch()}
      />
    );
  else if (organisations.organisations.length === 0) content = <NoOrganisations />;
  else
    content = (
      <SubscriptionCreateForm
        organisations={organisations.organisations}
        initialTenantId={initialTenantId}
        onCreated={(subscription) =>
          void navigate(paths.subscription.view(subscription.tenant_id, subscription.id))
        }
      />
    );

  return (
    <>
      <PageHeader
        title="Add a subscription"
        description="Give one of your client organisations a subscription your organisation holds, for a period."
        back={{ to: paths.subscription.list, label: 'Subscriptions' }}
      />
      {content}
    </>
  );
}

/** /subscription/add (?tenant_id= preselects the organisation). */
export function Component() {
  return (
    <RequireClientManagement>
      {(ownTenantId) => (
        <Stack gap={0} maw={760} w="100%">
          <SubscriptionAdd ownTenantId={ownTenantId} />
        </Stack>
      )}
    </RequireClientManagement>
  );
}
