import { Alert, Anchor, Stack } from '@mantine/core';
import type { CreateIndexBody } from '@omnibot/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { PageHeader } from '../../../components/ui/page-header';
import { useCanConfigure } from '../../../lib/permissions';
import {
  useDeleteIndex,
  useIndex,
  useUpdateIndex,
  useVectorSearch,
} from '../../../features/indexes/api/indexes-api';
import { EmbeddingProgress } from '../../../features/indexes/components/embedding-progress';
import { IndexForm } from '../../../features/indexes/components/index-form';
import { RetrievalTest } from '../../../features/indexes/components/retrieval-test';
import { indexPaths } from '../../../features/indexes/utils/index-paths';
import {
  deleteIndexConfirm,
  deleteIndexFailure,
  indexChangesOf,
  indexValuesOf,
} from '../../../features/indexes/utils/index-values';
import { useIndexFormOptions } from './use-index-form-options';

function IndexView({ id }: { id: string }) {
  const index = useIndex(id);
  const update = useUpdateIndex(id);
  const remove = useDeleteIndex();
  const vectorSearch = useVectorSearch();
  const options = useIndexFormOptions(index.data);
  const navigate = useNavigate();
  const canConfigure = useCanConfigure();
  // The form starts again from the stored index after each save, but not when polling brings new progress.
  const [savedCount, setSavedCount] = useState(0);

  if (index.isPending) return <FormSkeleton label="Loading the index" fields={5} />;
  if (index.isError) {
    return (
      <LoadError
        title="The index could not be loaded"
        error={index.error}
        onRetry={() => void index.refetch()}
      />
    );
  }
  const stored = index.data;

  const onSubmit = async (body: CreateIndexBody) => {
    const saved = await update.mutateAsync(indexChangesOf(stored, body));
    setSavedCount((count) => count + 1);
    notifySuccess(
      saved.embedding.state === 'pending' || saved.embedding.state === 'embedding'
        ? 'The index was saved. Its chunks are being embedded; keyword retrieval answers until that is done.'
        : 'The index was saved.',
    );
  };

  const onDelete = async () => {
    try {
      await remove.mutateAsync(stored.id);
    } catch (error) {
      notifyError(error, deleteIndexFailure(error));
      return;
    }
    notifySuccess(`Index "${stored.name}" was deleted.`);
    await navigate(indexPaths.list);
  };

  return (
    <Stack gap={0} w="100%">
      <PageHeader
        title={stored.name}
        description="Its settings and embeddings, and a retrieval test to see what it finds."
        back={{ to: indexPaths.list, label: 'Indexes' }}
      />
      <Stack gap="lg">
        {options.loadError && (
          <LoadError
            title="Some choices could not be loaded"
            error={options.loadError}
            onRetry={options.retry}
          />
        )}
        <EmbeddingProgress index={stored} vectorSearch={vectorSearch.data} />
        {!canConfigure && <ReadOnlyNotice />}
        <IndexForm
          key={savedCount}
          initialValues={indexValuesOf(stored)}
          knowledgeOptions={options.knowledgeOptions}
          embeddingModels={options.embeddingModels}
          submitLabel="Save"
          isSaving={update.isPending}
          failureTitle="The index was not saved"
          onSubmit={onSubmit}
          actions={
            <ConfirmButton
              variant="default"
              color="red"
              confirm={deleteIndexConfirm(stored)}
              onConfirm={onDelete}
            >
              Delete
            </ConfirmButton>
          }
        />
        <RetrievalTest index={stored} />
      </Stack>
    </Stack>
  );
}

/** /index/view?id=: one index, its embedding progress and a retrieval test. */
export function Component() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  return (
    <RequireMenuRoute route="/index">
      {id ? (
        <IndexView key={id} id={id} />
      ) : (
        <Alert color="red" icon={<IconAlertCircle />} role="alert" title="Index not found">
          No index was chosen.{' '}
          <Anchor component={Link} to={indexPaths.list} inherit>
            Back to the indexes
          </Anchor>
        </Alert>
      )}
    </RequireMenuRoute>
  );
}
