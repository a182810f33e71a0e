import { Alert, Anchor, Button, Group, Stack, Title } from '@mantine/core';
import type { CreateKnowledgeBody, KnowledgeSource } from '@omnibot/contracts';
import { IconAlertCircle, IconStack2 } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { PageHeader } from '../../../components/ui/page-header';
import {
  useDeleteKnowledgeBase,
  useKnowledgeBase,
  useUpdateKnowledgeBase,
} from '../../../features/knowledge/api/knowledge-api';
import { AddSource } from '../../../features/knowledge/components/add-source';
import { ChunkViewer } from '../../../features/knowledge/components/chunk-viewer';
import { KnowledgeForm } from '../../../features/knowledge/components/knowledge-form';
import { SourcesTable } from '../../../features/knowledge/components/sources-table';
import { knowledgePaths } from '../../../features/knowledge/utils/knowledge-paths';
import { languageOption } from '../../../features/knowledge/utils/knowledge-values';
import { useCanConfigure } from '../../../lib/permissions';

function KnowledgeView({ id }: { id: string }) {
  const knowledge = useKnowledgeBase(id);
  const update = useUpdateKnowledgeBase(id);
  const remove = useDeleteKnowledgeBase();
  const navigate = useNavigate();
  const canConfigure = useCanConfigure();
  const [chunksOf, setChunksOf] = useState<KnowledgeSource | null>(null);
  const showChunks = useCallback((source: KnowledgeSource) => setChunksOf(source), []);

  if (knowledge.isPending) return <FormSkeleton label="Loading the knowledge base" fields={4} />;
  if (knowledge.isError) {
    return (
      <LoadError
        title="The knowledge base could not be loaded"
        error={knowledge.error}
        onRetry={() => void knowledge.refetch()}
      />
    );
  }
  const base = knowledge.data;

  const onSubmit = async (body: CreateKnowledgeBody) => {
    try {
      await update.mutateAsync(body);
      notifySuccess(
        'The knowledge base was saved. New chunking applies to sources added or re-synced from now on.',
      );
      return true;
    } catch (error) {
      notifyError(error, 'The knowledge base was not saved');
      return false;
    }
  };

  return (
    <Stack gap={0} w="100%">
      <PageHeader
        title={base.name}
        description="Its settings, its sources and their state, updated live while they are indexed."
        back={{ to: knowledgePaths.list, label: 'Knowledge bases' }}
      />
      <Stack gap="lg">
        {!canConfigure && <ReadOnlyNotice />}
        <KnowledgeForm
          key={base.updated_at}
          initialValues={{
            name: base.name,
            language: languageOption(base),
            target_words: base.chunking.target_words,
            overlap_percent: Math.round(base.chunking.overlap * 100),
          }}
          submitLabel="Save"
          isSaving={update.isPending}
          onSubmit={onSubmit}
          actions={
            <ConfirmButton
              variant="default"
              color="red"
              confirm={{
                title: 'Delete knowledge base',
                message: `"${base.name}" and all its sources and chunks will be deleted. This cannot be undone.`,
                confirmLabel: 'Delete',
                danger: true,
              }}
              onConfirm={async () => {
                await remove.mutateAsync(base.id);
                notifySuccess(`Knowledge base "${base.name}" was deleted.`);
                await navigate(knowledgePaths.list);
              }}
            >
              Delete
            </ConfirmButton>
          }
        />
        <Stack gap="sm">
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Title order={2} size="h4">
              Sources
            </Title>
            {canConfigure && (
              <Button
                component={Link}
                to={knowledgePaths.bulk(base.id)}
                variant="default"
                leftSection={<IconStack2 size={16} aria-hidden="true" />}
              >
                Bulk add
              </Button>
            )}
          </Group>
          <SourcesTable knowledgeId={base.id} onShowChunks={showChunks} />
        </Stack>
        {canConfigure && <AddSource knowledgeId={base.id} />}
      </Stack>
      <ChunkViewer knowledgeId={base.id} source={chunksOf} onClose={() => setChunksOf(null)} />
    </Stack>
  );
}

/** /knowledge/view?id=: one knowledge base, its sources and chunks. */
export function Component() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  return (
    <RequireMenuRoute route="/knowledge">
      {id ? (
        <KnowledgeView key={id} id={id} />
      ) : (
        <Alert color="red" icon={<IconAlertCircle />} role="alert" title="Knowledge base not found">
          No knowledge base was chosen.{' '}
          <Anchor component={Link} to={knowledgePaths.list} inherit>
            Back to the knowledge bases
          </Anchor>
        </Alert>
      )}
    </RequireMenuRoute>
  );
}
