import { Alert, Card, Select, Stack } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { PageHeader } from '../../../components/ui/page-header';
import { paths } from '../../../config/paths';
import { useAssignableCodes } from '../../../features/subscriptions/api/get-assignable-codes';
import { SubscriptionAssignForm } from '../../../features/subscriptions/components/subscription-assign-form';
import { NoOrganisations } from './no-organisations';
import { RequireClientManagement } from './require-client-management';
import { useOrganisations } from './use-organisations';

function SubscriptionAssign({ ownTenantId }: { ownTenantId: string }) {
  const [params, setParams] = useSearchParams();
  const tenantId = params.get('tenant_id') ?? '';
  const organisations = useOrganisations(ownTenantId, tenantId);
  const organisation = organisations.organisations?.find((item) => item.tenant_id === tenantId);
  const { codes, query: parentCodes } = useAssignableCodes(organisation);

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
  else {
    let assignment;
    if (!tenantId)
      assignment = (
        <Alert color="blue" variant="light" icon={<IconInfoCircle />}>
          Pick an organisation to see and change its subscriptions.
        </Alert>
      );
    else if (!organisation)
      assignment = (
        <Alert color="red" icon={<IconInfoCircle />} title="Organisation not found" role="alert">
          It does not exist, or it is not one your organisation manages. Pick another one.
        </Alert>
      );
    else if (parentCodes.isError)
      assignment = (
        <LoadError
          title="The subscriptions its parent holds could not be loaded"
          error={parentCodes.error}
          onRetry={() => void parentCodes.refetch()}
        />
      );
    else if (!codes) assignment = <FormSkeleton label="Loading the subscriptions" fields={4} />;
    else
      assignment = (
        <SubscriptionAssignForm tenantId={tenantId} organisationName={organisation.name} codes={codes} />
      );
    content = (
      <Stack gap="md">
        <Card withBorder padding="lg" radius="md">
          <Select
            label="Organisation"
            placeholder="Pick an organisation"
            searchable
            nothingFoundMessage="No organisation matches"
            data={organisations.organisations.map((item) => ({
              value: item.tenant_id,
              label: item.is_active ? item.name : `${item.name} (inactive)`,
            }))}
            value={organisation ? tenantId : null}
            onChange={(value) => setParams(value ? { tenant_id: value } : {}, { replace: true })}
            allowDeselect={false}
          />
        </Card>
        {assignment}
      </Stack>
    );
  }

  return (
    <>
      <PageHeader
        title="Assign subscriptions"
        description="Pick a client organisation and tick the subscriptions it should have."
        back={{ to: paths.subscription.list, label: 'Subscriptions' }}
      />
      {content}
    </>
  );
}

/** /subscription/assign (?tenant_id= picks the organisation). */
export function Component() {
  return (
    <RequireClientManagement>
      {(ownTenantId) => (
        <Stack gap={0} maw={760} w="100%">
          <SubscriptionAssign ownTenantId={ownTenantId} />
        </Stack>
      )}
    </RequireClientManagement>
  );
}
