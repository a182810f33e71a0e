import { ActionIcon, Anchor, Button, Group, Text, Tooltip } from '@mantine/core';
import type { Rag } from '@omnibot/contracts';
import { IconBrain, IconListSearch, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/forms/form-skeleton';
import { confirmAction } from '../../../components/ui/confirm-action';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { formatDateTime } from '../../../lib/dates';
import { useDeleteRag, useIndexOptions, useRags } from '../api/rags-api';
import { ragPaths } from '../utils/rag-paths';
import { modelLabel, promptLabel } from '../utils/rag-values';
import { useCanConfigure } from '../../../lib/permissions';

/** Without any RAG: create an index first when there is none, otherwise the first RAG. */
function NoRags() {
  const indexes = useIndexOptions();
  const canConfigure = useCanConfigure();
  if (!canConfigure) {
    return (
      <EmptyPanel
        icon={<IconBrain size={26} />}
        title="No RAGs yet"
        description="A RAG answers questions from an index. Ask a user or an administrator of your organisation to add one; you can then try it here."
      />
    );
  }
  if (indexes.data?.items.length === 0) {
    return (
      <EmptyPanel
        icon={<IconListSearch size={26} />}
        title="Create an index first"
        description="A RAG answers questions from an index of your knowledge bases. Create an index, then add a RAG that answers from it."
        action={
          <Group gap="sm" justify="center">
            <Button component={Link} to={ragPaths.indexes} leftSection={<IconPlus size={16} />}>
              Create an index
            </Button>
            <Button component={Link} to={ragPaths.add} variant="default">
              Add a RAG
            </Button>
          </Group>
        }
      />
    );
  }
  return (
    <EmptyPanel
      icon={<IconBrain size={26} />}
      title="No RAGs yet"
      description="A RAG answers questions from an index, with a prompt and a chat model or with sentences taken from the sources. Add one and try it in its test box."
      action={
        <Button component={Link} to={ragPaths.add} leftSection={<IconPlus size={16} />}>
          Add a RAG
        </Button>
      }
    />
  );
}

/** The organisation's RAGs, searched by name in the browser; each can be deleted after a confirmation. */
export function RagList() {
  const rags = useRags();
  const remove = useDeleteRag();
  const canConfigure = useCanConfigure();

  const columns = useMemo<DataTableColumn<Rag>[]>(() => {
    const onDelete = async (rag: Rag) => {
      const confirmed = await confirmAction({
        title: 'Delete RAG',
        message: `"${rag.name}" will be deleted; bots using it stop answering from it. This cannot be undone.`,
        confirmLabel: 'Delete',
        danger: true,
      });
      if (!confirmed) return;
      try {
        await remove.mutateAsync(rag.id);
        notifySuccess(`RAG "${rag.name}" was deleted.`);
      } catch (error) {
        notifyError(error, 'The RAG was not deleted');
      }
    };
    const shown: DataTableColumn<Rag>[] = [
      {
        id: 'name',
        header: 'Name',
        sortValue: (rag) => rag.name.toLowerCase(),
        searchValue: (rag) => rag.name,
        render: (rag) => (
          <Anchor component={Link} to={ragPaths.view(rag.id)} fw={500}>
            {rag.name}
          </Anchor>
        ),
      },
      {
        id: 'index',
        header: 'Index',
        sortValue: (rag) => rag.index_name.toLowerCase(),
        searchValue: (rag) => rag.index_name,
        render: (rag) => rag.index_name,
      },
      {
        id: 'prompt',
        header: 'Prompt',
        render: (rag) => (
          <Text inherit c={rag.prompt_name ? undefined : 'dimmed'}>
            {promptLabel(rag)}
          </Text>
        ),
      },
      {
        id: 'model',
        header: 'Model',
        render: (rag) => (
          <Text inherit c={rag.model_name ? undefined : 'dimmed'}>
            {modelLabel(rag)}
          </Text>
        ),
      },
      {
        id: 'updated',
        header: 'Updated',
        sortValue: (rag) => rag.updated_at,
        render: (rag) => formatDateTime(rag.updated_at),
        nowrap: true,
      },
    ];
    if (!canConfigure) return shown;
    return [
      ...shown,
      {
        id: 'actions',
        header: 'Actions',
        render: (rag) => (
          <Tooltip label="Delete">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete ${rag.name}`}
              onClick={() => void onDelete(rag)}
            >
              <IconTrash size={16} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
        ),
      },
    ];
  }, [remove, canConfigure]);

  if (rags.isError && !rags.data) {
    return (
      <LoadError
        title="The RAGs could not be loaded"
        error={rags.error}
        onRetry={() => void rags.refetch()}
      />
    );
  }

  return (
    <DataTable<Rag>
      label="RAGs"
      columns={columns}
      data={rags.data?.items}
      rowKey={(rag) => rag.id}
      isLoading={rags.isPending}
      searchPlaceholder="Search by name or index"
      initialSort={{ column: 'updated', direction: 'desc' }}
      emptyState={<NoRags />}
    />
  );
}
