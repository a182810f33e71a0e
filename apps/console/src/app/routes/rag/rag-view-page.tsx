import { Alert, Anchor, Stack } from '@mantine/core';
import type { CreateRagBody } from '@omnibot/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { notifySuccess } from '../../../components/ui/notify';
import { PageHeader } from '../../../components/ui/page-header';
import { useDeleteRag, useRag, useUpdateRag } from '../../../features/rags/api/rags-api';
import { RagForm } from '../../../features/rags/components/rag-form';
import { RagTestBox } from '../../../features/rags/components/rag-test-box';
import { ragPaths } from '../../../features/rags/utils/rag-paths';
import { modelLabel, promptLabel, ragValuesOf } from '../../../features/rags/utils/rag-values';
import { ApiError } from '../../../lib/api-client';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { useCanConfigure } from '../../../lib/permissions';

function NotFound({ children }: { children: ReactNode }) {
  return (
    <Alert color="red" icon={<IconAlertCircle />} role="alert" title="RAG not found">
      {children}{' '}
      <Anchor component={Link} to={ragPaths.list} inherit>
        Back to the RAGs
      </Anchor>
    </Alert>
  );
}

function RagView({ id }: { id: string }) {
  const rag = useRag(id);
  const update = useUpdateRag(id);
  const remove = useDeleteRag();
  const navigate = useNavigate();
  const canConfigure = useCanConfigure();

  if (rag.isPending) return <FormSkeleton label="Loading the RAG" fields={6} />;
  if (rag.isError && rag.error instanceof ApiError && [400, 404].includes(rag.error.status)) {
    return <NotFound>It may have been deleted.</NotFound>;
  }
  if (rag.isError) {
    return (
      <LoadError title="The RAG could not be loaded" error={rag.error} onRetry={() => void rag.refetch()} />
    );
  }
  const data = rag.data;

  const onSubmit = async (body: CreateRagBody) => {
    await update.mutateAsync(body);
    notifySuccess('The RAG was saved.');
  };

  return (
    <Stack gap={0} w="100%">
      <PageHeader
        title={data.name}
        description={`Index: ${data.index_name} · Prompt: ${promptLabel(data)} · Model: ${modelLabel(data)}`}
        back={{ to: ragPaths.list, label: 'RAGs' }}
      />
      <Stack gap="lg">
        <RagTestBox ragId={data.id} />
        {canConfigure ? (
          <RagForm
            key={data.updated_at}
            initialValues={ragValuesOf(data)}
            current={data}
            submitLabel="Save"
            failureTitle="The RAG was not saved"
            isSaving={update.isPending}
            onSubmit={onSubmit}
            actions={
              <ConfirmButton
                variant="default"
                color="red"
                confirm={{
                  title: 'Delete RAG',
                  message: `"${data.name}" will be deleted; bots using it stop answering from it. This cannot be undone.`,
                  confirmLabel: 'Delete',
                  danger: true,
                }}
                onConfirm={async () => {
                  await remove.mutateAsync(data.id);
                  notifySuccess(`RAG "${data.name}" was deleted.`);
                  await navigate(ragPaths.list);
                }}
              >
                Delete
              </ConfirmButton>
            }
          />
        ) : (
          <ReadOnlyNotice />
        )}
      </Stack>
    </Stack>
  );
}

/** /rag/view?id=: one RAG, its settings and a box to test its answers. */
export function Component() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  return (
    <RequireMenuRoute route="/rag">
      {id ? <RagView key={id} id={id} /> : <NotFound>No RAG was chosen.</NotFound>}
    </RequireMenuRoute>
  );
}
