import { Stack } from '@mantine/core';
import type { CreateRagBody } from '@omnibot/contracts';
import { useNavigate } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { notifySuccess } from '../../../components/ui/notify';
import { PageHeader } from '../../../components/ui/page-header';
import { useCreateRag } from '../../../features/rags/api/rags-api';
import { RagForm } from '../../../features/rags/components/rag-form';
import { ragPaths } from '../../../features/rags/utils/rag-paths';
import { DEFAULT_RAG_VALUES } from '../../../features/rags/utils/rag-values';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { useCanConfigure } from '../../../lib/permissions';

/** /rag/add: a new RAG on an index, with the default answer settings. */
export function Component() {
  const create = useCreateRag();
  const navigate = useNavigate();
  const canConfigure = useCanConfigure();

  const onSubmit = async (body: CreateRagBody) => {
    const rag = await create.mutateAsync(body);
    notifySuccess(`RAG "${rag.name}" was created. Try it in its test box.`);
    await navigate(ragPaths.view(rag.id));
  };

  return (
    <RequireMenuRoute route="/rag">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Add RAG"
          description="Pick the index it answers from; a prompt and a chat model are optional."
          back={{ to: ragPaths.list, label: 'RAGs' }}
        />
        {canConfigure ? (
          <RagForm
            initialValues={DEFAULT_RAG_VALUES}
            submitLabel="Create RAG"
            failureTitle="The RAG was not created"
            isSaving={create.isPending}
            onSubmit={onSubmit}
          />
        ) : (
          <ReadOnlyNotice back={{ to: ragPaths.list, label: 'Back to the RAGs' }} />
        )}
      </Stack>
    </RequireMenuRoute>
  );
}
