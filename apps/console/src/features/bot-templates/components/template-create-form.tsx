import { Paper, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  BOT_TEMPLATE_DESCRIPTION_MAX,
  BOT_TEMPLATE_NAME_MAX,
  type BotTemplate,
  templateConfigOf,
} from '@omnibot/contracts';
import { IconRobot } from '@tabler/icons-react';
import { FormActions } from '../../../components/forms/form-actions';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { useCreateBotTemplate, useTemplateBotOptions } from '../api/bot-templates-api';
import { type TemplateFormValues, validateTemplate } from '../utils/template-form';
import { TemplatePreview } from './template-preview';

interface CreateValues extends TemplateFormValues {
  bot_id: string | null;
}

/** Save the appearance and texts of one of the organisation's bots as a template, seeing what is kept first. */
export function TemplateCreateForm({ onCreated }: { onCreated: (template: BotTemplate) => void }) {
  const bots = useTemplateBotOptions();
  const create = useCreateBotTemplate();
  const form = useForm<CreateValues>({
    initialValues: { bot_id: null, name: '', description: '' },
    validate: (values) => ({
      ...validateTemplate(values),
      ...(values.bot_id ? {} : { bot_id: 'Choose the bot whose look and texts the template keeps' }),
    }),
    validateInputOnBlur: true,
  });

  if (bots.isPending) return <FormSkeleton label="Loading your bots" fields={3} />;
  if (bots.isError) {
    return (
      <LoadError
        title="Your bots could not be loaded"
        error={bots.error}
        onRetry={() => void bots.refetch()}
      />
    );
  }
  if (bots.data.items.length === 0) {
    return (
      <EmptyPanel
        icon={<IconRobot size={26} />}
        title="No bot to save yet"
        description="A template keeps the look and texts of one of your bots. Create a bot first (APPS > Bots > Create), then come back to save it as a template."
      />
    );
  }
  const chosen = bots.data.items.find((bot) => bot.id === form.values.bot_id);

  const onSubmit = async (values: CreateValues) => {
    if (!values.bot_id) return;
    try {
      const template = await create.mutateAsync({
        name: values.name.trim(),
        description: values.description.trim(),
        bot_id: values.bot_id,
      });
      notifySuccess(`Template "${template.name}" was saved.`, 'Template saved');
      onCreated(template);
    } catch (error) {
      notifyError(error, 'The template was not saved');
    }
  };

  return (
    <Stack gap="lg">
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
        <form noValidate onSubmit={form.onSubmit((values) => void onSubmit(values))}>
          <Stack gap="md">
            <Select
              label="Bot"
              description="The template keeps this bot's look and texts as they are now."
              placeholder="Choose a bot"
              data={bots.data.items.map((bot) => ({ value: bot.id, label: bot.name }))}
              searchable
              nothingFoundMessage="No bot has that name"
              withAsterisk
              {...form.getInputProps('bot_id')}
            />
            <TextInput
              label="Name"
              withAsterisk
              maxLength={BOT_TEMPLATE_NAME_MAX}
              {...form.getInputProps('name')}
            />
            <Textarea
              label="Description"
              description="What the template is for (optional)."
              rows={3}
              maxLength={BOT_TEMPLATE_DESCRIPTION_MAX}
              {...form.getInputProps('description')}
            />
            <FormActions submitLabel="Save template" isSaving={create.isPending} />
          </Stack>
        </form>
      </Paper>
      {chosen && <TemplatePreview config={templateConfigOf(chosen.config)} />}
    </Stack>
  );
}
