import { Stack } from '@mantine/core';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { CredentialPanel } from '../../../features/credential/components/credential-panel';
import { canManageOrganisation } from '../../../lib/permissions';
import { useSession } from '../../../lib/session';

/** /credential: the own organisation's API credential. */
export function Component() {
  const session = useSession();
  return (
    <RequireMenuRoute route="/credential">
      <Stack gap={0} maw={960} w="100%">
        <PageHeader
          title="Credentials"
          description="Your systems call the API with this key and secret (HTTP Basic authentication)."
        />
        <CredentialPanel
          tenantId={session?.profile.tenant_id ?? ''}
          canManage={canManageOrganisation(session?.profile.role)}
        />
      </Stack>
    </RequireMenuRoute>
  );
}
