import { Alert, Anchor, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { notifySuccess } from '../../../components/ui/notify';
import { PageHeader } from '../../../components/ui/page-header';
import { useDeleteIntegration, useIntegration } from '../../../features/integrations/api/integrations-api';
import { IntegrationBots } from '../../../features/integrations/components/integration-bots';
import { ContactCentreForm } from '../../../features/integrations/components/contact-centre-form';
import { IntegrationForm } from '../../../features/integrations/components/integration-form';
import { AwsEngineForm } from '../../../features/integrations/components/aws-engine-form';
import { isAwsEngine } from '../../../features/integrations/utils/aws-engine-form';
import { ENGINE_LABELS } from '../../../features/integrations/utils/integration-form';
import { integrationPaths } from '../../../features/integrations/utils/integration-paths';
import { ApiError } from '../../../lib/api-client';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { useCanConfigure } from '../../../lib/permissions';

function NotFound({ children }: { children: ReactNode }) {
  return (
    <Alert color="red" icon={<IconAlertCircle />} role="alert" title="Integration not found">
      {children}{' '}
      <Anchor component={Link} to={integrationPaths.list} inherit>
        Back to the integrations
      </Anchor>
    </Alert>
  );
}

function IntegrationView({ id }: { id: string }) {
  const integration = useIntegration(id);
  const remove = useDeleteIntegration();
  const navigate = useNavigate();
  const canConfigure = useCanConfigure();

  if (integration.isPending) return <FormSkeleton label="Loading the integration" fields={5} />;
  if (
    integration.isError &&
    integration.error instanceof ApiError &&
    [400, 404].includes(integration.error.status)
  ) {
    return <NotFound>It may have been deleted.</NotFound>;
  }
  if (integration.isError) {
    return (
      <LoadError
        title="The integration could not be loaded"
        error={integration.error}
        onRetry={() => void integration.refetch()}
      />
    );
  }
  const data = integration.data;
  const inUse = data.bots.length > 0;
  const isContactCentre = data.kind === 'ccaas';
  const Form = isContactCentre
    ? ContactCentreForm
    : isAwsEngine(data.engine)
      ? AwsEngineForm
      : IntegrationForm;

  return (
    <Stack gap={0} w="100%">
      <PageHeader
        title={data.name}
        description={`${isContactCentre ? 'Contact centre' : 'Chatbot engine'} · ${ENGINE_LABELS[data.engine]}`}
        back={
          isContactCentre
            ? { to: integrationPaths.ccaas, label: 'Contact centres' }
            : { to: integrationPaths.list, label: 'All integrations' }
        }
      />
      <Stack gap="lg">
        {canConfigure ? (
          <Form
            key={data.updated_at}
            integration={data}
            onSaved={() => undefined}
            actions={
              <ConfirmButton
                variant="default"
                color="red"
                disabled={inUse}
                confirm={{
                  title: 'Delete integration',
                  message: `"${data.name}" will be deleted. This cannot be undone.`,
                  confirmLabel: 'Delete',
                  danger: true,
                }}
                onConfirm={async () => {
                  await remove.mutateAsync(data.id);
                  notifySuccess(`Integration "${data.name}" was deleted.`);
                  await navigate(integrationPaths.list);
                }}
              >
                Delete
              </ConfirmButton>
            }
          />
        ) : (
          <ReadOnlyNotice />
        )}
        <IntegrationBots integration={data} />
      </Stack>
    </Stack>
  );
}

/** /bot/integration/view?id=: one integration, its settings, a connection test and the bots that use it. */
export function Component() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  return (
    <RequireMenuRoute route={integrationPaths.list}>
      {id ? <IntegrationView key={id} id={id} /> : <NotFound>No integration was chosen.</NotFound>}
    </RequireMenuRoute>
  );
}
