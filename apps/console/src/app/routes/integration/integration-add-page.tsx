import { Stack } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { ContactCentreForm } from '../../../features/integrations/components/contact-centre-form';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { IntegrationForm } from '../../../features/integrations/components/integration-form';
import { integrationPaths } from '../../../features/integrations/utils/integration-paths';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { useCanConfigure } from '../../../lib/permissions';

const CHATBOT_ENGINES = ['openai', 'builtin', 'dialogflowcx', 'lex', 'bedrock'] as const;
const chatbotEngineOf = (value: string | null) =>
  CHATBOT_ENGINES.find((engine) => engine === value) ?? 'openai';

/**
 * /bot/integration/add: a new integration, tested before or after it is saved: a chatbot engine, or with
 * `?kind=ccaas` (and `&engine=genesys|connect`) a contact centre; `?engine=dialogflowcx|lex|bedrock` starts with that engine.
 */
export function Component() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const canConfigure = useCanConfigure();
  const isContactCentre = params.get('kind') === 'ccaas';
  const onSaved = (saved: { id: string }) => void navigate(integrationPaths.view(saved.id));
  return (
    <RequireMenuRoute route={isContactCentre ? integrationPaths.ccaas : integrationPaths.list}>
      <Stack gap={0} w="100%">
        <PageHeader
          title={isContactCentre ? 'Add contact centre' : 'Add integration'}
          description={
            isContactCentre
              ? 'Choose Genesys Cloud or Amazon Connect, fill in its settings and test the connection before you save.'
              : 'Choose the engine, fill in its settings and test the connection before you save.'
          }
          back={
            isContactCentre
              ? { to: integrationPaths.ccaas, label: 'Contact centres' }
              : { to: integrationPaths.list, label: 'All integrations' }
          }
        />
        {canConfigure && isContactCentre ? (
          <ContactCentreForm
            initialEngine={params.get('engine') === 'connect' ? 'connect' : 'genesys'}
            onSaved={onSaved}
          />
        ) : canConfigure ? (
          <IntegrationForm onSaved={onSaved} initialEngine={chatbotEngineOf(params.get('engine'))} />
        ) : (
          <ReadOnlyNotice back={{ to: integrationPaths.list, label: 'Back to the integrations' }} />
        )}
      </Stack>
    </RequireMenuRoute>
  );
}
