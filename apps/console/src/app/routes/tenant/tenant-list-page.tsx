import { Button } from '@mantine/core';
import { IconBuildingCommunity, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { LoadError } from '../../../components/forms/form-skeleton';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { PageHeader } from '../../../components/ui/page-header';
import { paths } from '../../../config/paths';
import { useTenantRecords } from '../../../features/tenants/api/get-tenant-records';
import { TenantTable } from '../../../features/tenants/components/tenant-table';
import { canEditTenant, mayHaveChildrenOfType } from '../../../features/tenants/utils/tenant-permissions';
import { useSession, type Session } from '../../../lib/session';

function TenantList({ session }: { session: Session }) {
  const tenantId = session.profile.tenant_id;
  const records = useTenantRecords(tenantId, session.tenantType);
  const canCreate =
    canEditTenant({ role: session.profile.role, tenantId }) &&
    mayHaveChildrenOfType(session.tenantType, session.features.includes('subtenant'));

  const addButton = canCreate ? (
    <Button component={Link} to={paths.tenant.add} leftSection={<IconPlus size={16} />}>
      Add organisation
    </Button>
  ) : null;

  return (
    <>
      <PageHeader
        title="Client organisations"
        description="The organisations your organisation manages: open one to edit its details, status and subscriptions."
        actions={addButton}
      />
      {records.isError ? (
        <LoadError
          title="The organisations could not be loaded"
          error={records.error}
          onRetry={() => void records.refetch()}
        />
      ) : (
        <TenantTable
          label="Client organisations"
          tenants={records.data}
          isLoading={records.isPending}
          ownTenantId={tenantId}
          emptyState={
            <EmptyPanel
              icon={<IconBuildingCommunity size={32} />}
              title="No client organisations yet"
              action={addButton}
              description={
                canCreate
                  ? 'Create the first one: it gets its own users, API credential and the subscriptions you pass on.'
                  : 'Organisations your organisation manages appear here once an administrator creates them.'
              }
            />
          }
        />
      )}
    </>
  );
}

/** /tenant, "Client Org.": the tenant records the tenant type rules load (tenantRecords). */
export function Component() {
  const session = useSession();
  return (
    <RequireMenuRoute route={paths.tenant.list}>
      {session && <TenantList session={session} />}
    </RequireMenuRoute>
  );
}
