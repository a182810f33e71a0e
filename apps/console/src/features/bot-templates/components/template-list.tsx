import {
  ActionIcon,
  Button,
  ColorSwatch,
  Group,
  Modal,
  Stack,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { BOT_TEMPLATE_DESCRIPTION_MAX, BOT_TEMPLATE_NAME_MAX, type BotTemplate } from '@omnibot/contracts';
import { IconPencil, IconPlus, IconRobot, IconTemplate, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/forms/form-skeleton';
import { confirmAction } from '../../../components/ui/confirm-action';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { formatDateTime } from '../../../lib/dates';
import { useCanConfigure } from '../../../lib/permissions';
import {
  useBotTemplates,
  useCreateBotFromTemplate,
  useDeleteBotTemplate,
  useUpdateBotTemplate,
} from '../api/bot-templates-api';
import { templatePaths } from '../utils/template-paths';
import { type TemplateFormValues, validateBotName, validateTemplate } from '../utils/template-form';
import { TemplatePreview } from './template-preview';

function RenameModal({ template, onClose }: { template: BotTemplate; onClose: () => void }) {
  const update = useUpdateBotTemplate();
  const form = useForm<TemplateFormValues>({
    initialValues: { name: template.name, description: template.description },
    validate: validateTemplate,
    validateInputOnBlur: true,
  });
  const onSubmit = async (values: TemplateFormValues) => {
    try {
      const saved = await update.mutateAsync({
        id: template.id,
        body: { name: values.name.trim(), description: values.description.trim() },
      });
      notifySuccess(`Template "${saved.name}" was saved.`);
      onClose();
    } catch (error) {
      notifyError(error, 'The template was not saved');
    }
  };
  return (
    <Modal opened onClose={onClose} title={`Rename "${template.name}"`} centered>
      <form noValidate onSubmit={form.onSubmit((values) => void onSubmit(values))}>
        <Stack gap="md">
          <TextInput
            label="Name"
            withAsterisk
            maxLength={BOT_TEMPLATE_NAME_MAX}
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Textarea
            label="Description"
            rows={3}
            maxLength={BOT_TEMPLATE_DESCRIPTION_MAX}
            {...form.getInputProps('description')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function CreateBotModal({ template, onClose }: { template: BotTemplate; onClose: () => void }) {
  const create = useCreateBotFromTemplate();
  const form = useForm({
    initialValues: { name: '' },
    validate: validateBotName,
    validateInputOnBlur: true,
  });
  const onSubmit = async ({ name }: { name: string }) => {
    try {
      const bot = await create.mutateAsync({ template, name: name.trim() });
      notifySuccess(
        `Bot "${bot.name}" was created with the look and texts of "${template.name}". Choose its engine in APPS > Bots.`,
        'Bot created',
      );
      onClose();
    } catch (error) {
      notifyError(error, 'The bot was not created');
    }
  };
  return (
    <Modal opened onClose={onClose} title={`Create a bot from "${template.name}"`} centered size="lg">
      <form noValidate onSubmit={form.onSubmit((values) => void onSubmit(values))}>
        <Stack gap="md">
          <TextInput
            label="Bot name"
            description="The new bot gets the template's look and texts, and the default engine settings."
            withAsterisk
            maxLength={120}
            data-autofocus
            {...form.getInputProps('name')}
          />
          <TemplatePreview config={template.config} title="The new bot starts with" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending} leftSection={<IconRobot size={16} />}>
              Create bot
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

type Dialog = { kind: 'rename' | 'bot'; template: BotTemplate } | null;

/**
 * The organisation's templates: rename, delete after a confirmation, or create a bot from one. A role that may not
 * configure only reads them.
 */
export function TemplateList() {
  const templates = useBotTemplates();
  const canConfigure = useCanConfigure();
  const remove = useDeleteBotTemplate();
  const [dialog, setDialog] = useState<Dialog>(null);

  const columns = useMemo<DataTableColumn<BotTemplate>[]>(() => {
    const onDelete = async (template: BotTemplate) => {
      const confirmed = await confirmAction({
        title: 'Delete template',
        message: `"${template.name}" will be deleted. Bots made from it keep their look. This cannot be undone.`,
        confirmLabel: 'Delete',
        danger: true,
      });
      if (!confirmed) return;
      try {
        await remove.mutateAsync(template.id);
        notifySuccess(`Template "${template.name}" was deleted.`);
      } catch (error) {
        notifyError(error, 'The template was not deleted');
      }
    };
    const shown: DataTableColumn<BotTemplate>[] = [
      {
        id: 'name',
        header: 'Name',
        sortValue: (template) => template.name.toLowerCase(),
        searchValue: (template) => `${template.name} ${template.description}`,
        render: (template) => (
          <Stack gap={2}>
            <Text inherit fw={500}>
              {template.name}
            </Text>
            {template.description && (
              <Text size="xs" c="dimmed">
                {template.description}
              </Text>
            )}
          </Stack>
        ),
      },
      {
        id: 'look',
        header: 'Look',
        render: (template) => (
          <Group gap={6} wrap="nowrap">
            <ColorSwatch
              size={16}
              color={template.config.launcher.background}
              aria-label={`Launcher colour ${template.config.launcher.background}`}
            />
            <ColorSwatch
              size={16}
              color={template.config.appearance.userBubble.backgroundColor}
              aria-label={`Visitor bubble colour ${template.config.appearance.userBubble.backgroundColor}`}
            />
            <Text size="xs" c="dimmed">
              {template.config.identity.displayName}
            </Text>
          </Group>
        ),
      },
      {
        id: 'updated',
        header: 'Updated',
        sortValue: (template) => template.updated_at,
        render: (template) => formatDateTime(template.updated_at),
        nowrap: true,
      },
    ];
    if (!canConfigure) return shown;
    return [
      ...shown,
      {
        id: 'actions',
        header: 'Actions',
        render: (template) => (
          <Group gap={4} wrap="nowrap">
            <Button
              size="xs"
              variant="light"
              leftSection={<IconRobot size={14} />}
              onClick={() => setDialog({ kind: 'bot', template })}
            >
              Create bot from template
            </Button>
            <Tooltip label="Rename">
              <ActionIcon
                variant="subtle"
                aria-label={`Rename ${template.name}`}
                onClick={() => setDialog({ kind: 'rename', template })}
              >
                <IconPencil size={16} aria-hidden="true" />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Delete">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete ${template.name}`}
                onClick={() => void onDelete(template)}
              >
                <IconTrash size={16} aria-hidden="true" />
              </ActionIcon>
            </Tooltip>
          </Group>
        ),
      },
    ];
  }, [remove, canConfigure]);

  if (templates.isError && !templates.data) {
    return (
      <LoadError
        title="The templates could not be loaded"
        error={templates.error}
        onRetry={() => void templates.refetch()}
      />
    );
  }

  return (
    <>
      <DataTable<BotTemplate>
        label="Bot templates"
        columns={columns}
        data={templates.data?.items}
        rowKey={(template) => template.id}
        isLoading={templates.isPending}
        searchPlaceholder="Search by name or description"
        initialSort={{ column: 'name', direction: 'asc' }}
        emptyState={
          <EmptyPanel
            icon={<IconTemplate size={26} />}
            title="No templates yet"
            description={
              canConfigure
                ? 'A template keeps the look and texts of a bot, so new bots can start from it. Save one from a bot you like.'
                : 'A template keeps the look and texts of a bot, so new bots can start from it; a user or an administrator saves them.'
            }
            action={
              canConfigure && (
                <Button component={Link} to={templatePaths.create} leftSection={<IconPlus size={16} />}>
                  Create a template
                </Button>
              )
            }
          />
        }
      />
      {dialog?.kind === 'rename' && (
        <RenameModal template={dialog.template} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'bot' && (
        <CreateBotModal template={dialog.template} onClose={() => setDialog(null)} />
      )}
    </>
  );
}
