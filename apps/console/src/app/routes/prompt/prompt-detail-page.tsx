import { Alert, Anchor, Button, Code, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconTrash } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { confirmAction } from '../../../components/ui/confirm';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { PageHeader } from '../../../components/ui/page-header';
import { useDeletePrompt, usePrompt, useUpdatePrompt } from '../../../features/prompts/api/prompts-api';
import { PromptForm, type PromptFormValues } from '../../../features/prompts/components/prompt-form';
import { PromptVersions } from '../../../features/prompts/components/prompt-versions';
import { promptPaths } from '../../../features/prompts/utils/prompt-paths';
import { RagsUsingPrompt } from '../../../features/rags/components/rags-using-prompt';
import { ApiError } from '../../../lib/api-client';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { useCanConfigure } from '../../../lib/permissions';

/** /prompt/detail/:id: edit a prompt (a changed template is a new version), compare and restore versions. */
export function Component() {
  const id = useParams().id ?? '';
  const prompt = usePrompt(id);
  const update = useUpdatePrompt(id);
  const remove = useDeletePrompt();
  const navigate = useNavigate();
  const canConfigure = useCanConfigure();

  const onSubmit = async (values: PromptFormValues) => {
    const before = prompt.data?.current_version;
    try {
      const saved = await update.mutateAsync(values);
      notifySuccess(
        saved.current_version === before
          ? 'The prompt was saved; the template did not change, so no new version was made.'
          : `Saved as version ${saved.current_version}.`,
      );
      return true;
    } catch (error) {
      notifyError(error, 'The prompt was not saved');
      return false;
    }
  };

  const onDelete = async () => {
    const name = prompt.data?.name ?? '';
    const confirmed = await confirmAction({
      title: `Delete "${name}"?`,
      message: 'The prompt and all its versions are deleted. This cannot be undone.',
      confirmLabel: 'Delete prompt',
      danger: true,
    });
    if (!confirmed) return;
    remove.mutate(id, {
      onSuccess: () => {
        notifySuccess(`Prompt "${name}" was deleted.`);
        void navigate(promptPaths.list);
      },
      onError: (error) => notifyError(error, 'The prompt was not deleted'),
    });
  };

  let content;
  if (prompt.isPending) content = <FormSkeleton label="Loading the prompt" fields={4} />;
  else if (prompt.isError && prompt.error instanceof ApiError && [400, 404].includes(prompt.error.status)) {
    content = (
      <Alert color="red" icon={<IconAlertCircle />} role="alert" title="Prompt not found">
        It may have been deleted.{' '}
        <Anchor component={Link} to={promptPaths.list} inherit>
          Back to the prompts
        </Anchor>
      </Alert>
    );
  } else if (prompt.isError) {
    content = (
      <LoadError
        title="The prompt could not be loaded"
        error={prompt.error}
        onRetry={() => void prompt.refetch()}
      />
    );
  } else {
    const data = prompt.data;
    content = (
      <Stack gap="lg">
        {canConfigure ? (
          <PromptForm
            // A restore or a save elsewhere makes a new version: the form starts again from it.
            key={`${data.id}:${data.current_version}`}
            initialValues={{ name: data.name, description: data.description, template: data.template }}
            submitLabel="Save as new version"
            isSaving={update.isPending}
            onSubmit={onSubmit}
          />
        ) : (
          <>
            <ReadOnlyNotice />
            {data.description && <Text size="sm">{data.description}</Text>}
            <Code block aria-label="Template">
              {data.template}
            </Code>
          </>
        )}
        {canConfigure && <PromptVersions promptId={data.id} />}
        <RagsUsingPrompt promptId={data.id} />
      </Stack>
    );
  }

  return (
    <RequireMenuRoute route="/prompt">
      <Stack gap={0} w="100%">
        <PageHeader
          title={prompt.data?.name ?? 'Prompt'}
          description={prompt.data ? `Version ${prompt.data.current_version} is in use.` : undefined}
          back={{ to: promptPaths.list, label: 'Prompts' }}
          actions={
            canConfigure &&
            prompt.data && (
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} aria-hidden="true" />}
                loading={remove.isPending}
                onClick={() => void onDelete()}
              >
                Delete
              </Button>
            )
          }
        />
        {content}
      </Stack>
    </RequireMenuRoute>
  );
}
