import { Button, type ButtonProps } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { type Bot, WIDGET_NAME_MAX } from '@omnibot/contracts';
import { IconPlus } from '@tabler/icons-react';
import { notifySuccess } from '../../../components/ui/notify';
import { useCanConfigure } from '../../../lib/permissions';
import { useCreateBot } from '../api/bots-api';
import { BotNameModal } from './bot-name-modal';

interface CreateBotButtonProps extends Omit<ButtonProps, 'onClick'> {
  /** Called with the new bot once it is stored. */
  onCreated?: (bot: Bot) => void;
  label?: string;
}

/**
 * "Create bot": asks for a name and creates the bot with the default configuration, its widget named alike.
 * Nothing for an agent, who may not create bots.
 */
export function CreateBotButton({ onCreated, label = 'Create bot', ...buttonProps }: CreateBotButtonProps) {
  const [opened, { open, close }] = useDisclosure(false);
  const create = useCreateBot();
  const canConfigure = useCanConfigure();
  const onSubmit = (name: string) =>
    create.mutateAsync({
      name,
      // The widget's header shows the same name until the bot is customised.
      config: name.length <= WIDGET_NAME_MAX ? { identity: { name, botName: name } } : undefined,
    });
  if (!canConfigure) return null;
  return (
    <>
      <Button leftSection={<IconPlus size={16} aria-hidden="true" />} {...buttonProps} onClick={open}>
        {label}
      </Button>
      <BotNameModal
        opened={opened}
        onClose={close}
        title="Create a bot"
        submitLabel="Create bot"
        failureTitle="The bot was not created"
        isSaving={create.isPending}
        onSubmit={onSubmit}
        onDone={(bot) => {
          notifySuccess(`Bot "${bot.name}" was created.`);
          onCreated?.(bot);
        }}
      />
    </>
  );
}
