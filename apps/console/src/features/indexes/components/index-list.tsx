import { ActionIcon, Anchor, Button, Text, Tooltip } from '@mantine/core';
import type { Index } from '@omnibot/contracts';
import { IconListSearch, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/forms/form-skeleton';
import { confirmAction } from '../../../components/ui/confirm-action';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { useDeleteIndex, useIndexes } from '../api/indexes-api';
import { indexPaths } from '../utils/index-paths';
import { deleteIndexConfirm, deleteIndexFailure, MODE_LABEL } from '../utils/index-values';
import { EmbeddingBadge } from './embedding-badge';

interface IndexListProps {
  /** Whether the organisation has a knowledge base; undefined while that loads. */
  hasKnowledge: boolean | undefined;
}

/** The organisation's indexes, searched by name in the browser; each can be deleted after a confirmation. */
export function IndexList({ hasKnowledge }: IndexListProps) {
  const indexes = useIndexes();
  const remove = useDeleteIndex();

  const columns = useMemo<DataTableColumn<Index>[]>(() => {
    const onDelete = async (index: Index) => {
      if (!(await confirmAction(deleteIndexConfirm(index)))) return;
      try {
        await remove.mutateAsync(index.id);
        notifySuccess(`Index "${index.name}" was deleted.`);
      } catch (error) {
        notifyError(error, deleteIndexFailure(error));
      }
    };
    return [
      {
        id: 'name',
        header: 'Name',
        sortValue: (index) => index.name.toLowerCase(),
        searchValue: (index) => index.name,
        render: (index) => (
          <Anchor component={Link} to={indexPaths.view(index.id)} fw={500}>
            {index.name}
          </Anchor>
        ),
      },
      { id: 'mode', header: 'Mode', render: (index) => MODE_LABEL[index.mode], nowrap: true },
      {
        id: 'knowledge',
        header: 'Knowledge bases',
        searchValue: (index) => index.knowledge.map((base) => base.name).join(' '),
        render: (index) => (
          <Text size="sm" lineClamp={2}>
            {index.knowledge.map((base) => base.name).join(', ')}
          </Text>
        ),
      },
      { id: 'top_k', header: 'Top k', sortValue: (index) => index.top_k, render: (index) => index.top_k },
      {
        id: 'embedding',
        header: 'Embeddings',
        render: (index) => <EmbeddingBadge embedding={index.embedding} />,
        nowrap: true,
      },
      {
        id: 'actions',
        header: 'Actions',
        render: (index) => (
          <Tooltip label="Delete">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete ${index.name}`}
              onClick={() => void onDelete(index)}
            >
              <IconTrash size={16} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
        ),
      },
    ];
  }, [remove]);

  if (indexes.isError && !indexes.data) {
    return (
      <LoadError
        title="The indexes could not be loaded"
        error={indexes.error}
        onRetry={() => void indexes.refetch()}
      />
    );
  }

  return (
    <DataTable<Index>
      label="Indexes"
      columns={columns}
      data={indexes.data?.items}
      rowKey={(index) => index.id}
      isLoading={indexes.isPending}
      searchPlaceholder="Search by name or knowledge base"
      initialSort={{ column: 'name', direction: 'asc' }}
      emptyState={
        hasKnowledge === false ? (
          <EmptyPanel
            icon={<IconListSearch size={26} />}
            title="No indexes yet"
            description="An index searches one or more knowledge bases, and your organisation has none yet. Create a knowledge base and add sources to it first, then create an index over it."
            action={
              <Button component={Link} to="/knowledge/add" leftSection={<IconPlus size={16} />}>
                Create a knowledge base
              </Button>
            }
          />
        ) : (
          <EmptyPanel
            icon={<IconListSearch size={26} />}
            title="No indexes yet"
            description="An index decides how your knowledge bases are searched: by keywords, by meaning, or both. Create one, then try it with a retrieval test."
            action={
              <Button component={Link} to={indexPaths.add} leftSection={<IconPlus size={16} />}>
                Create an index
              </Button>
            }
          />
        )
      }
    />
  );
}
