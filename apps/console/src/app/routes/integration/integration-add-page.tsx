import { Stack } from '@mantine/core';
import { useNavigate } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { IntegrationForm } from '../../../features/integrations/components/integration-form';
import { integrationPaths } from '../../../features/integrations/utils/integration-paths';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { useCanConfigure } from '../../../lib/permissions';

/** /bot/integration/add: a new chatbot-engine integration, tested before or after it is saved. */
export function Component() {
  const navigate = useNavigate();
  const canConfigure = useCanConfigure();
  return (
    <RequireMenuRoute route={integrationPaths.list}>
      <Stack gap={0} w="100%">
        <PageHeader
          title="Add integration"
          description="Choose the engine, fill in its settings and test the connection before you save."
          back={{ to: integrationPaths.list, label: 'All integrations' }}
        />
        {canConfigure ? (
          <IntegrationForm onSaved={(saved) => void navigate(integrationPaths.view(saved.id))} />
        ) : (
          <ReadOnlyNotice back={{ to: integrationPaths.list, label: 'Back to the integrations' }} />
        )}
      </Stack>
    </RequireMenuRoute>
  );
}
