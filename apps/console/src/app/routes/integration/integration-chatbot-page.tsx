import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { IntegrationList } from '../../../features/integrations/components/integration-list';
import { integrationPaths } from '../../../features/integrations/utils/integration-paths';
import { useCanConfigure } from '../../../lib/permissions';

/** /bot/integration/chatbot: the chatbot-engine integrations (menu: Integration > Chatbot). */
export function Component() {
  const canConfigure = useCanConfigure();
  return (
    <RequireMenuRoute route={integrationPaths.chatbot}>
      <Stack gap={0} w="100%">
        <PageHeader
          title="Chatbot engines"
          description="A bot answers with the engine you choose for it: builtin over a RAG, or an OpenAI-compatible chat model."
          back={{ to: integrationPaths.overview, label: 'Integrations' }}
          actions={
            canConfigure && (
              <Button component={Link} to={integrationPaths.add} leftSection={<IconPlus size={16} />}>
                Add chatbot engine
              </Button>
            )
          }
        />
        <IntegrationList kind="chatbot" />
      </Stack>
    </RequireMenuRoute>
  );
}
