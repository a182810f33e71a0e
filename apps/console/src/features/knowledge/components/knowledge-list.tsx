import { ActionIcon, Anchor, Button, Tooltip } from '@mantine/core';
import type { KnowledgeBase } from '@omnibot/contracts';
import { IconBooks, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/forms/form-skeleton';
import { confirmAction } from '../../../components/ui/confirm-action';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { formatDateTime } from '../../../lib/dates';
import { useDeleteKnowledgeBase, useKnowledgeBases } from '../api/knowledge-api';
import { knowledgePaths } from '../utils/knowledge-paths';
import { languageLabel } from '../utils/knowledge-values';

/** The organisation's knowledge bases, searched by name in the browser; each can be deleted after a confirmation. */
export function KnowledgeList() {
  const knowledge = useKnowledgeBases();
  const remove = useDeleteKnowledgeBase();

  const columns = useMemo<DataTableColumn<KnowledgeBase>[]>(() => {
    const onDelete = async (base: KnowledgeBase) => {
      const confirmed = await confirmAction({
        title: 'Delete knowledge base',
        message: `"${base.name}" and all its sources and chunks will be deleted. This cannot be undone.`,
        confirmLabel: 'Delete',
        danger: true,
      });
      if (!confirmed) return;
      try {
        await remove.mutateAsync(base.id);
        notifySuccess(`Knowledge base "${base.name}" was deleted.`);
      } catch (error) {
        notifyError(error, 'The knowledge base was not deleted');
      }
    };
    return [
      {
        id: 'name',
        header: 'Name',
        sortValue: (base) => base.name.toLowerCase(),
        searchValue: (base) => base.name,
        render: (base) => (
          <Anchor component={Link} to={knowledgePaths.view(base.id)} fw={500}>
            {base.name}
          </Anchor>
        ),
      },
      { id: 'language', header: 'Language', render: (base) => languageLabel(base.language), nowrap: true },
      {
        id: 'updated',
        header: 'Updated',
        sortValue: (base) => base.updated_at,
        render: (base) => formatDateTime(base.updated_at),
        nowrap: true,
      },
      {
        id: 'actions',
        header: 'Actions',
        render: (base) => (
          <Tooltip label="Delete">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete ${base.name}`}
              onClick={() => void onDelete(base)}
            >
              <IconTrash size={16} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
        ),
      },
    ];
  }, [remove]);

  if (knowledge.isError && !knowledge.data) {
    return (
      <LoadError
        title="The knowledge bases could not be loaded"
        error={knowledge.error}
        onRetry={() => void knowledge.refetch()}
      />
    );
  }

  return (
    <DataTable<KnowledgeBase>
      label="Knowledge bases"
      columns={columns}
      data={knowledge.data?.items}
      rowKey={(base) => base.id}
      isLoading={knowledge.isPending}
      searchPlaceholder="Search by name"
      initialSort={{ column: 'updated', direction: 'desc' }}
      emptyState={
        <EmptyPanel
          icon={<IconBooks size={26} />}
          title="No knowledge bases yet"
          description="A knowledge base holds the documents, pages and Q&A pairs your bots answer from. Create one to get started."
          action={
            <Button component={Link} to={knowledgePaths.add} leftSection={<IconPlus size={16} />}>
              Create a knowledge base
            </Button>
          }
        />
      }
    />
  );
}
