import { Stack } from '@mantine/core';
import { DEFAULT_PROMPT_TEMPLATE } from '@omnibot/contracts';
import { useNavigate } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { PageHeader } from '../../../components/ui/page-header';
import { useCreatePrompt } from '../../../features/prompts/api/prompts-api';
import { PromptForm, type PromptFormValues } from '../../../features/prompts/components/prompt-form';
import { promptPaths } from '../../../features/prompts/utils/prompt-paths';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { useCanConfigure } from '../../../lib/permissions';

const EMPTY: PromptFormValues = { name: '', description: '', template: DEFAULT_PROMPT_TEMPLATE };

/** /prompt/compose: a new prompt, starting from the default template (menu: Prompts > Create). */
export function Component() {
  const create = useCreatePrompt();
  const navigate = useNavigate();
  const canConfigure = useCanConfigure();

  const onSubmit = async (values: PromptFormValues) => {
    try {
      const prompt = await create.mutateAsync({
        name: values.name,
        template: values.template,
        ...(values.description.trim() ? { description: values.description } : {}),
      });
      notifySuccess(`Prompt "${prompt.name}" was saved as version 1.`);
      await navigate(promptPaths.detail(prompt.id));
      return true;
    } catch (error) {
      notifyError(error, 'The prompt was not saved');
      return false;
    }
  };

  return (
    <RequireMenuRoute route="/prompt/compose">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Create prompt"
          description="Start from the default template, which answers only from the context and cites its sources."
          back={{ to: promptPaths.list, label: 'Prompts' }}
        />
        {canConfigure ? (
          <PromptForm
            initialValues={EMPTY}
            submitLabel="Save prompt"
            isSaving={create.isPending}
            onSubmit={onSubmit}
          />
        ) : (
          <ReadOnlyNotice back={{ to: promptPaths.list, label: 'Back to the prompts' }} />
        )}
      </Stack>
    </RequireMenuRoute>
  );
}
