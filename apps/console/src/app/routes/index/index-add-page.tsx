import { Stack } from '@mantine/core';
import type { CreateIndexBody } from '@omnibot/contracts';
import { useNavigate } from 'react-router';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { notifySuccess } from '../../../components/ui/notify';
import { LoadError } from '../../../components/forms/form-skeleton';
import { PageHeader } from '../../../components/ui/page-header';
import { useCanConfigure } from '../../../lib/permissions';
import { useCreateIndex } from '../../../features/indexes/api/indexes-api';
import { IndexForm } from '../../../features/indexes/components/index-form';
import { indexPaths } from '../../../features/indexes/utils/index-paths';
import { DEFAULT_INDEX_VALUES } from '../../../features/indexes/utils/index-values';
import { useIndexFormOptions } from './use-index-form-options';

function IndexCreate() {
  const create = useCreateIndex();
  const navigate = useNavigate();
  const options = useIndexFormOptions();

  const onSubmit = async (body: CreateIndexBody) => {
    const index = await create.mutateAsync(body);
    notifySuccess(`Index "${index.name}" was created.`);
    await navigate(indexPaths.view(index.id));
  };

  return (
    <Stack gap="md">
      {options.loadError && (
        <LoadError
          title="Some choices could not be loaded"
          error={options.loadError}
          onRetry={options.retry}
        />
      )}
      <IndexForm
        initialValues={DEFAULT_INDEX_VALUES}
        knowledgeOptions={options.knowledgeOptions}
        embeddingModels={options.embeddingModels}
        submitLabel="Create index"
        isSaving={create.isPending}
        failureTitle="The index was not created"
        onSubmit={onSubmit}
      />
    </Stack>
  );
}

/** /index/add: a new index over some of the organisation's knowledge bases. */
export function Component() {
  const canConfigure = useCanConfigure();
  return (
    <RequireMenuRoute route="/index">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Create index"
          description="Pick the knowledge bases to search and how to search them."
          back={{ to: indexPaths.list, label: 'Indexes' }}
        />
        {canConfigure ? (
          <IndexCreate />
        ) : (
          <ReadOnlyNotice back={{ to: indexPaths.list, label: 'Back to the indexes' }} />
        )}
      </Stack>
    </RequireMenuRoute>
  );
}
