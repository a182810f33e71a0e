import { Stack } from '@mantine/core';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { PageHeader } from '../../../components/ui/page-header';
import { useAccount } from '../../../features/account/api/get-account';
import { ServiceAddressForm } from '../../../features/account/components/service-address-form';
import { canManageOrganisation } from '../../../lib/permissions';
import { useSession } from '../../../lib/session';

/** /account, "Service Address": the own organisation's address and contact details. */
export function Component() {
  const session = useSession();
  const tenantId = session?.profile.tenant_id ?? '';
  const account = useAccount(tenantId);
  const canEdit = canManageOrganisation(session?.profile.role);

  let content;
  if (account.isPending) content = <FormSkeleton label="Loading the service address" fields={10} />;
  else if (account.isError)
    content = (
      <LoadError
        title="The service address could not be loaded"
        error={account.error}
        onRetry={() => void account.refetch()}
      />
    );
  else if (!account.data)
    content = (
      <LoadError
        title="Your organisation was not found"
        message="The account service did not find it. Sign in again, or ask your administrator."
        onRetry={() => void account.refetch()}
      />
    );
  else
    content = (
      <ServiceAddressForm
        account={account.data}
        canEdit={canEdit}
        onSaved={() => void session?.refresh?.()}
      />
    );

  return (
    <RequireMenuRoute route="/account">
      <Stack gap={0} maw={960} w="100%">
        <PageHeader
          title="Service Address"
          description={
            canEdit
              ? "Your organisation's name, address and contact details."
              : "Your organisation's name, address and contact details (read-only)."
          }
        />
        {content}
      </Stack>
    </RequireMenuRoute>
  );
}
