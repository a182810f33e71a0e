import { ActionIcon, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import type { KnowledgeSource } from '@omnibot/contracts';
import {
  IconCalendarRepeat,
  IconCheck,
  IconCopy,
  IconFileText,
  IconListDetails,
  IconRefresh,
  IconTrash,
} from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { LoadError } from '../../../components/forms/form-skeleton';
import { confirmAction } from '../../../components/ui/confirm-action';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { useCanConfigure } from '../../../lib/permissions';
import { useDeleteSource, useKnowledgeSources, useResyncSource } from '../api/knowledge-api';
import { SOURCE_TYPE_LABEL, sourceName } from '../utils/source-values';
import { canSchedule } from '../utils/sync-values';
import { SourceStateBadge } from './source-state-badge';
import { SourceSyncDialog } from './source-sync-dialog';
import { SourceSyncStatus } from './source-sync-status';

function ContentHash({ hash }: { hash: string | null }) {
  if (!hash) return <Text c="dimmed">—</Text>;
  return (
    <Group gap={4} wrap="nowrap">
      <Code>{hash.slice(0, 12)}</Code>
      <CopyButton value={hash}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy the full hash'}>
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              aria-label="Copy content hash"
              onClick={copy}
            >
              {copied ? (
                <IconCheck size={14} aria-hidden="true" />
              ) : (
                <IconCopy size={14} aria-hidden="true" />
              )}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

interface SourcesTableProps {
  knowledgeId: string;
  onShowChunks: (source: KnowledgeSource) => void;
}

/**
 * The sources of a knowledge base with their ingestion state, kept up to date while any is in progress. A role that
 * may not configure can show a source's chunks but not re-sync or delete it.
 */
export function SourcesTable({ knowledgeId, onShowChunks }: SourcesTableProps) {
  const canConfigure = useCanConfigure();
  const sources = useKnowledgeSources(knowledgeId);
  const resync = useResyncSource(knowledgeId);
  const remove = useDeleteSource(knowledgeId);
  const [scheduling, setScheduling] = useState<KnowledgeSource | null>(null);

  const columns = useMemo<DataTableColumn<KnowledgeSource>[]>(() => {
    const onResync = async (source: KnowledgeSource) => {
      try {
        await resync.mutateAsync(source.id);
        notifySuccess(`"${sourceName(source)}" is being synced now.`);
      } catch (error) {
        notifyError(error, 'The source was not synced');
      }
    };
    const onDelete = async (source: KnowledgeSource) => {
      const confirmed = await confirmAction({
        title: 'Delete source',
        message: `"${sourceName(source)}" and its chunks will be deleted. This cannot be undone.`,
        confirmLabel: 'Delete',
        danger: true,
      });
      if (!confirmed) return;
      try {
        await remove.mutateAsync(source.id);
        notifySuccess(`"${sourceName(source)}" was deleted.`);
      } catch (error) {
        notifyError(error, 'The source was not deleted');
      }
    };
    return [
      {
        id: 'name',
        header: 'Source',
        sortValue: (source) => sourceName(source).toLowerCase(),
        searchValue: sourceName,
        render: (source) => (
          <Stack gap={2} miw={0}>
            <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
              {sourceName(source)}
            </Text>
            <Text size="xs" c="dimmed">
              {SOURCE_TYPE_LABEL[source.type]}
            </Text>
          </Stack>
        ),
      },
      {
        id: 'state',
        header: 'State',
        sortValue: (source) => source.state,
        render: (source) => (
          <Stack gap={4} miw={0}>
            <SourceStateBadge state={source.state} />
            {source.state === 'failed' && source.error && (
              <Text size="sm" c="red" style={{ overflowWrap: 'anywhere' }}>
                {source.error.reason}
              </Text>
            )}
          </Stack>
        ),
      },
      {
        id: 'chunks',
        header: 'Chunks',
        sortValue: (source) => source.chunk_count,
        render: (s) => s.chunk_count,
      },
      {
        id: 'hash',
        header: 'Content hash',
        searchable: false,
        render: (source) => <ContentHash hash={source.content_hash} />,
      },
      {
        id: 'synced',
        header: 'Sync',
        sortValue: (source) => source.last_synced_at,
        render: (source) => <SourceSyncStatus source={source} />,
      },
      {
        id: 'actions',
        header: 'Actions',
        searchable: false,
        render: (source) => (
          <Group gap={4} wrap="nowrap">
            <Tooltip label="Chunks">
              <ActionIcon
                variant="subtle"
                aria-label={`Show the chunks of ${sourceName(source)}`}
                onClick={() => onShowChunks(source)}
              >
                <IconListDetails size={16} aria-hidden="true" />
              </ActionIcon>
            </Tooltip>
            {canConfigure && (
              <>
                <Tooltip label="Sync now">
                  <ActionIcon
                    variant="subtle"
                    aria-label={`Sync ${sourceName(source)} now`}
                    onClick={() => void onResync(source)}
                  >
                    <IconRefresh size={16} aria-hidden="true" />
                  </ActionIcon>
                </Tooltip>
                {canSchedule(source) && (
                  <Tooltip label="Re-sync schedule">
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Re-sync schedule of ${sourceName(source)}`}
                      onClick={() => setScheduling(source)}
                    >
                      <IconCalendarRepeat size={16} aria-hidden="true" />
                    </ActionIcon>
                  </Tooltip>
                )}
                <Tooltip label="Delete">
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Delete ${sourceName(source)}`}
                    onClick={() => void onDelete(source)}
                  >
                    <IconTrash size={16} aria-hidden="true" />
                  </ActionIcon>
                </Tooltip>
              </>
            )}
          </Group>
        ),
      },
    ];
  }, [resync, remove, onShowChunks, canConfigure]);

  if (sources.isError && !sources.data) {
    return (
      <LoadError
        title="The sources could not be loaded"
        error={sources.error}
        onRetry={() => void sources.refetch()}
      />
    );
  }

  return (
    <>
      <SourceSyncDialog knowledgeId={knowledgeId} source={scheduling} onClose={() => setScheduling(null)} />
      <DataTable<KnowledgeSource>
        label="Sources"
        columns={columns}
        data={sources.data?.items}
        rowKey={(source) => source.id}
        isLoading={sources.isPending}
        searchPlaceholder="Search sources"
        emptyState={
          <EmptyPanel
            icon={<IconFileText size={26} />}
            title="No sources yet"
            description="Add text, Q&A pairs, web pages or files below; they become searchable once ready."
          />
        }
      />
    </>
  );
}
