import { ActionIcon, Anchor, Badge, Button, Text, Tooltip } from '@mantine/core';
import type { Integration, IntegrationKind } from '@omnibot/contracts';
import { IconPlugConnected, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/forms/form-skeleton';
import { confirmAction } from '../../../components/ui/confirm-action';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { formatDateTime } from '../../../lib/dates';
import { useDeleteIntegration, useIntegrations } from '../api/integrations-api';
import { ENGINE_LABELS } from '../utils/integration-form';
import { integrationPaths } from '../utils/integration-paths';
import { useCanConfigure } from '../../../lib/permissions';

const KIND_LABELS: Record<IntegrationKind, string> = { chatbot: 'Chatbot engine', ccaas: 'Contact centre' };

const ENGINE_COLOURS: Record<Integration['engine'], string> = {
  builtin: 'grape',
  openai: 'blue',
  dialogflowcx: 'yellow',
  lex: 'indigo',
  bedrock: 'cyan',
  genesys: 'orange',
  connect: 'teal',
};

/** What an integration connects to, in a few words. */
function target(integration: Integration): string {
  const settings = integration.settings;
  if ('rag_id' in settings) return 'A RAG of your organisation';
  if ('base_url' in settings) return `${settings.model} at ${settings.base_url}`;
  if ('service_account_key' in settings) {
    const names = settings.agents.map((agent) => agent.agentName).join(', ');
    return `Dialogflow CX agents ${names} (${settings.client_email})`;
  }
  if ('bot_id' in settings)
    return `Lex bot ${settings.bot_id} (alias ${settings.bot_alias_id}) in ${settings.region}`;
  if ('auth' in settings) return `${settings.model} on Bedrock in ${settings.region}`;
  if ('server_url' in settings) return `Deployment ${settings.deployment_id} at ${settings.server_url}`;
  return `Instance ${settings.instance_id} in ${settings.region}`;
}

/** What the list says when it is empty, and where it sends the user to add one. */
const EMPTY: Record<IntegrationKind | 'all', { title: string; description: string; action: string }> = {
  all: {
    title: 'No integrations yet',
    description:
      'An integration connects your bots to a chatbot engine (a RAG of your organisation or an OpenAI-compatible chat endpoint) or to a contact centre they hand conversations over to. Add one, test its connection, then choose it for a bot.',
    action: 'Add an integration',
  },
  chatbot: {
    title: 'No integrations yet',
    description:
      'An integration connects your bots to a chatbot engine: a RAG of your organisation (builtin) or an OpenAI-compatible chat endpoint. Add one, test its connection, then choose it for a bot.',
    action: 'Add an integration',
  },
  ccaas: {
    title: 'No contact centre yet',
    description:
      'Connect Genesys Cloud or Amazon Connect, test the connection, then choose it in a bot’s engine settings so visitors can talk to your agents there.',
    action: 'Add a contact centre',
  },
};

/** The organisation's integrations (of one kind when `kind` is given); each can be deleted after a confirmation. */
export function IntegrationList({ kind }: { kind?: IntegrationKind }) {
  const integrations = useIntegrations(kind ? { kind } : {});
  const remove = useDeleteIntegration();
  const canConfigure = useCanConfigure();

  const columns = useMemo<DataTableColumn<Integration>[]>(() => {
    const onDelete = async (integration: Integration) => {
      const confirmed = await confirmAction({
        title: 'Delete integration',
        message: `"${integration.name}" will be deleted. This cannot be undone.`,
        confirmLabel: 'Delete',
        danger: true,
      });
      if (!confirmed) return;
      try {
        await remove.mutateAsync(integration.id);
        notifySuccess(`Integration "${integration.name}" was deleted.`);
      } catch (error) {
        notifyError(error, 'The integration was not deleted');
      }
    };
    const shown: DataTableColumn<Integration>[] = [
      {
        id: 'name',
        header: 'Name',
        sortValue: (integration) => integration.name.toLowerCase(),
        searchValue: (integration) => integration.name,
        render: (integration) => (
          <Anchor component={Link} to={integrationPaths.view(integration.id)} fw={500}>
            {integration.name}
          </Anchor>
        ),
      },
      {
        id: 'kind',
        header: 'Kind',
        render: (integration) => KIND_LABELS[integration.kind],
      },
      {
        id: 'engine',
        header: 'Engine',
        sortValue: (integration) => integration.engine,
        searchValue: (integration) => ENGINE_LABELS[integration.engine],
        render: (integration) => (
          <Badge variant="light" color={ENGINE_COLOURS[integration.engine]}>
            {ENGINE_LABELS[integration.engine]}
          </Badge>
        ),
      },
      {
        id: 'target',
        header: 'Connects to',
        render: (integration) => (
          <Text inherit style={{ overflowWrap: 'anywhere' }}>
            {target(integration)}
          </Text>
        ),
      },
      {
        id: 'bots',
        header: 'Bots',
        sortValue: (integration) => integration.bots.length,
        render: (integration) =>
          integration.bots.length === 0 ? (
            <Text inherit c="dimmed">
              None
            </Text>
          ) : (
            integration.bots.map((bot) => bot.name).join(', ')
          ),
      },
      {
        id: 'updated',
        header: 'Updated',
        sortValue: (integration) => integration.updated_at,
        render: (integration) => formatDateTime(integration.updated_at),
        nowrap: true,
      },
    ];
    if (!canConfigure) return shown;
    return [
      ...shown,
      {
        id: 'actions',
        header: 'Actions',
        render: (integration) => (
          <Tooltip
            label={
              integration.bots.length > 0
                ? `Used by ${integration.bots.map((bot) => bot.name).join(', ')}: point them elsewhere first`
                : 'Delete'
            }
          >
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete ${integration.name}`}
              disabled={integration.bots.length > 0}
              onClick={() => void onDelete(integration)}
            >
              <IconTrash size={16} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
        ),
      },
    ];
  }, [remove, canConfigure]);

  const empty = EMPTY[kind ?? 'all'];
  if (integrations.isError && !integrations.data) {
    return (
      <LoadError
        title="The integrations could not be loaded"
        error={integrations.error}
        onRetry={() => void integrations.refetch()}
      />
    );
  }

  return (
    <DataTable<Integration>
      label={kind ? `${KIND_LABELS[kind]} integrations` : 'Integrations'}
      columns={columns}
      data={integrations.data?.items}
      rowKey={(integration) => integration.id}
      isLoading={integrations.isPending}
      searchPlaceholder="Search by name or engine"
      initialSort={{ column: 'name', direction: 'asc' }}
      emptyState={
        <EmptyPanel
          icon={<IconPlugConnected size={26} />}
          title={empty.title}
          description={empty.description}
          action={
            canConfigure && (
              <Button
                component={Link}
                to={kind === 'ccaas' ? integrationPaths.addContactCentre() : integrationPaths.add}
                leftSection={<IconPlus size={16} />}
              >
                {empty.action}
              </Button>
            )
          }
        />
      }
    />
  );
}
