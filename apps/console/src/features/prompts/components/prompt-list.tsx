import { Anchor, Button, Stack, Text } from '@mantine/core';
import type { PromptListQuery, PromptSummary } from '@omnibot/contracts';
import { IconPlus, IconTemplate } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/forms/form-skeleton';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { formatDateTime } from '../../../lib/dates';
import { useCanConfigure } from '../../../lib/permissions';
import { usePrompts } from '../api/prompts-api';
import { promptPaths } from '../utils/prompt-paths';

interface PromptListProps {
  query: PromptListQuery;
  onQueryChange: (query: PromptListQuery) => void;
}

/** The organisation's prompts, searched and paged by the server. */
export function PromptList({ query, onQueryChange }: PromptListProps) {
  const prompts = usePrompts(query);
  const canConfigure = useCanConfigure();
  const columns = useMemo<DataTableColumn<PromptSummary>[]>(
    () => [
      {
        id: 'name',
        header: 'Name',
        render: (prompt) => (
          <Stack gap={2} miw={0}>
            <Anchor component={Link} to={promptPaths.detail(prompt.id)} fw={500}>
              {prompt.name}
            </Anchor>
            {prompt.description && (
              <Text size="sm" c="dimmed" lineClamp={2}>
                {prompt.description}
              </Text>
            )}
          </Stack>
        ),
      },
      { id: 'version', header: 'Version', render: (prompt) => `v${prompt.current_version}`, nowrap: true },
      {
        id: 'updated',
        header: 'Last saved',
        render: (prompt) => formatDateTime(prompt.updated_at),
        nowrap: true,
      },
    ],
    [],
  );

  if (prompts.isError && !prompts.data) {
    return (
      <LoadError
        title="The prompts could not be loaded"
        error={prompts.error}
        onRetry={() => void prompts.refetch()}
      />
    );
  }

  return (
    <DataTable<PromptSummary>
      label="Prompts"
      columns={columns}
      data={prompts.data?.items}
      rowKey={(prompt) => prompt.id}
      isLoading={prompts.isPending}
      searchPlaceholder="Search by name or description"
      emptyState={
        <EmptyPanel
          icon={<IconTemplate size={26} />}
          title="No prompts yet"
          description={
            canConfigure
              ? 'A prompt tells the model how to answer from your documents. Create one to get started.'
              : 'A prompt tells the model how to answer from your documents. A user or an administrator of your organisation creates them.'
          }
          action={
            canConfigure && (
              <Button component={Link} to={promptPaths.compose} leftSection={<IconPlus size={16} />}>
                Create a prompt
              </Button>
            )
          }
        />
      }
      server={{
        total: prompts.data?.total ?? 0,
        page: query.page,
        pageSize: query.page_size,
        search: query.q ?? '',
        sort: null,
        onPageChange: (page) => onQueryChange({ ...query, page }),
        onPageSizeChange: (pageSize) => onQueryChange({ ...query, page_size: pageSize, page: 1 }),
        onSearchChange: (q) => onQueryChange({ ...query, q: q || undefined, page: 1 }),
        onSortChange: () => undefined,
      }}
    />
  );
}
