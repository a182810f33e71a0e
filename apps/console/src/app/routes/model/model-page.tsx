import { Stack } from '@mantine/core';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { ModelPanel } from '../../../features/models/components/model-panel';
import { useReachableTenants } from '../../../features/users/api/get-reachable-tenants';
import { useSession } from '../../../lib/session';

function ModelScreen({ tenantId }: { tenantId: string }) {
  // The organisations a model can be shared with: every one below the master's own.
  const tenants = useReachableTenants(tenantId, tenantId !== '');
  const organisations = (tenants.data ?? []).map((tenant) => ({
    value: tenant.tenantId,
    label: [...tenant.ancestors, tenant.name].join(' › '),
  }));
  return <ModelPanel organisations={organisations} organisationsLoading={tenants.isPending} />;
}

/** /model: model connections, for masters of a level-1 or level-2 organisation with Omni RAG. */
export function Component() {
  const session = useSession();
  return (
    <RequireMenuRoute route="/model">
      <Stack gap={0} w="100%">
        <ModelScreen tenantId={session?.profile.tenant_id ?? ''} />
      </Stack>
    </RequireMenuRoute>
  );
}
