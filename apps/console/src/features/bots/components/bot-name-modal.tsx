import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { BOT_NAME_MAX, BotNameSchema, type Bot } from '@omnibot/contracts';
import { notifyError } from '../../../components/ui/notify';
import { errorCode } from '../../../lib/error-message';

interface BotNameModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  submitLabel: string;
  /** The toast title when the server refuses. */
  failureTitle: string;
  initialName?: string;
  isSaving: boolean;
  /** Receives a name the contracts schema accepted; a refusal it throws is shown on the field or as a toast. */
  onSubmit: (name: string) => Promise<Bot>;
  onDone: (bot: Bot) => void;
}

const validateName = (name: string) => {
  const result = BotNameSchema.safeParse(name);
  return result.success ? null : (result.error.issues[0]?.message ?? 'The name is not valid');
};

function BotNameForm({
  onClose,
  submitLabel,
  failureTitle,
  initialName = '',
  isSaving,
  onSubmit,
  onDone,
}: Omit<BotNameModalProps, 'opened' | 'title'>) {
  const form = useForm({ initialValues: { name: initialName }, validate: { name: validateName } });
  const submit = async ({ name }: { name: string }) => {
    try {
      const bot = await onSubmit(name.trim());
      onDone(bot);
      onClose();
    } catch (error) {
      if (errorCode(error) === 'bot/name-taken' && error instanceof Error) {
        form.setFieldError('name', error.message);
      }
      notifyError(error, failureTitle);
    }
  };
  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          description="How the bot is listed in the console; unique in your organisation."
          required
          data-autofocus
          maxLength={BOT_NAME_MAX}
          key={form.key('name')}
          {...form.getInputProps('name')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={isSaving}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A modal asking for a bot's name, for a new bot or a copy of one. */
export function BotNameModal({ opened, title, onClose, ...rest }: BotNameModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <BotNameForm onClose={onClose} {...rest} />
    </Modal>
  );
}
