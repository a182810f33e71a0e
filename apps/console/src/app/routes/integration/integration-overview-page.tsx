import { Stack } from '@mantine/core';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { IntegrationOverview } from '../../../features/integrations/components/integration-overview';
import { integrationPaths } from '../../../features/integrations/utils/integration-paths';

/** /bot/integration: the integrations at a glance (also the header brand link). */
export function Component() {
  return (
    <RequireMenuRoute route={integrationPaths.list}>
      <Stack gap={0} w="100%">
        <PageHeader
          title="Integrations"
          description="Connect your bots to the engines that answer for them, and test each connection."
        />
        <IntegrationOverview />
      </Stack>
    </RequireMenuRoute>
  );
}
