import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { IntegrationList } from '../../../features/integrations/components/integration-list';
import { integrationPaths } from '../../../features/integrations/utils/integration-paths';
import { useCanConfigure } from '../../../lib/permissions';

/** /bot/integration/ccaas: the contact-centre integrations (menu: Integration > Contact Center). */
export function Component() {
  const canConfigure = useCanConfigure();
  return (
    <RequireMenuRoute route={integrationPaths.ccaas}>
      <Stack gap={0} w="100%">
        <PageHeader
          title="Contact centres"
          description="Where a bot hands a conversation over when a visitor asks for a person: Genesys Cloud or Amazon Connect."
          back={{ to: integrationPaths.overview, label: 'Integrations' }}
          actions={
            canConfigure && (
              <Button
                component={Link}
                to={integrationPaths.addContactCentre()}
                leftSection={<IconPlus size={16} />}
              >
                Add contact centre
              </Button>
            )
          }
        />
        <IntegrationList kind="ccaas" />
      </Stack>
    </RequireMenuRoute>
  );
}
