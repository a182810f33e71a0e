import { ActionIcon, Anchor, Button, Text, Tooltip } from '@mantine/core';
import { CASE_SUMMARY_TRIGGER_LABELS, type CaseSummaryConfig } from '@omnibot/contracts';
import { IconNotes, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/forms/form-skeleton';
import { confirmAction } from '../../../components/ui/confirm-action';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { formatDateTime } from '../../../lib/dates';
import { useCanConfigure } from '../../../lib/permissions';
import { useCaseSummaryConfigs, useDeleteCaseSummaryConfig } from '../api/case-summaries-api';
import { caseSummaryPaths } from '../utils/case-summary-paths';

function NoConfigs() {
  const canConfigure = useCanConfigure();
  return (
    <EmptyPanel
      icon={<IconNotes size={26} />}
      title="No case-summary configurations yet"
      description={
        canConfigure
          ? 'Add one to give your agents a summary of each conversation when it is handed over or closed.'
          : 'Ask a user or an administrator of your organisation to add one; its summaries then appear in the inbox.'
      }
      action={
        canConfigure && (
          <Button component={Link} to={caseSummaryPaths.add} leftSection={<IconPlus size={16} />}>
            Add a configuration
          </Button>
        )
      }
    />
  );
}

/** The organisation's case-summary configurations; each can be deleted after a confirmation. */
export function CaseSummaryList() {
  const configs = useCaseSummaryConfigs();
  const remove = useDeleteCaseSummaryConfig();
  const canConfigure = useCanConfigure();

  const columns = useMemo<DataTableColumn<CaseSummaryConfig>[]>(() => {
    const onDelete = async (config: CaseSummaryConfig) => {
      const confirmed = await confirmAction({
        title: 'Delete configuration',
        message: `"${config.name}" will be deleted; its bots get no new summaries. Summaries already written stay.`,
        confirmLabel: 'Delete',
        danger: true,
      });
      if (!confirmed) return;
      try {
        await remove.mutateAsync(config.id);
        notifySuccess(`Configuration "${config.name}" was deleted.`);
      } catch (error) {
        notifyError(error, 'The configuration was not deleted');
      }
    };
    const shown: DataTableColumn<CaseSummaryConfig>[] = [
      {
        id: 'name',
        header: 'Name',
        sortValue: (config) => config.name.toLowerCase(),
        searchValue: (config) => config.name,
        render: (config) => (
          <Anchor component={Link} to={caseSummaryPaths.view(config.id)} fw={500}>
            {config.name}
          </Anchor>
        ),
      },
      {
        id: 'bots',
        header: 'Bots',
        searchValue: (config) => config.bots.map((bot) => bot.name).join(' '),
        render: (config) => config.bots.map((bot) => bot.name).join(', '),
      },
      {
        id: 'model',
        header: 'Model',
        render: (config) => (
          <Text inherit c={config.model_name ? undefined : 'dimmed'}>
            {config.model_name ?? 'Extractive'}
          </Text>
        ),
      },
      {
        id: 'when',
        header: 'When',
        render: (config) => config.triggers.map((trigger) => CASE_SUMMARY_TRIGGER_LABELS[trigger]).join(', '),
      },
      {
        id: 'updated',
        header: 'Updated',
        sortValue: (config) => config.updated_at,
        render: (config) => formatDateTime(config.updated_at),
        nowrap: true,
      },
    ];
    if (!canConfigure) return shown;
    return [
      ...shown,
      {
        id: 'actions',
        header: 'Actions',
        render: (config) => (
          <Tooltip label="Delete">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete ${config.name}`}
              onClick={() => void onDelete(config)}
            >
              <IconTrash size={16} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
        ),
      },
    ];
  }, [remove, canConfigure]);

  if (configs.isError && !configs.data) {
    return (
      <LoadError
        title="The configurations could not be loaded"
        error={configs.error}
        onRetry={() => void configs.refetch()}
      />
    );
  }

  return (
    <DataTable<CaseSummaryConfig>
      label="Case-summary configurations"
      columns={columns}
      data={configs.data?.items}
      rowKey={(config) => config.id}
      isLoading={configs.isPending}
      searchPlaceholder="Search by name or bot"
      initialSort={{ column: 'name', direction: 'asc' }}
      emptyState={<NoConfigs />}
    />
  );
}
