import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { IntegrationList } from '../../../features/integrations/components/integration-list';
import { integrationPaths } from '../../../features/integrations/utils/integration-paths';
import { useCanConfigure } from '../../../lib/permissions';

/** /bot/integration/list: every integration of the organisation (menu: Integration > All Integrations). */
export function Component() {
  const canConfigure = useCanConfigure();
  return (
    <RequireMenuRoute route={integrationPaths.list}>
      <Stack gap={0} w="100%">
        <PageHeader
          title="All integrations"
          description="Each connects your bots to an engine. Open one to change it, test it or see which bots use it."
          back={{ to: integrationPaths.overview, label: 'Integrations' }}
          actions={
            canConfigure && (
              <Button component={Link} to={integrationPaths.add} leftSection={<IconPlus size={16} />}>
                Add integration
              </Button>
            )
          }
        />
        <IntegrationList />
      </Stack>
    </RequireMenuRoute>
  );
}
