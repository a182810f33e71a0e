import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Menu,
  Pagination,
  Skeleton,
  Stack,
  Switch,
  Text,
  Tooltip,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { AGENT_READ_ONLY_MESSAGE, type Bot, BOT_NAME_MAX, type BotListQuery } from '@omnibot/contracts';
import {
  IconCode,
  IconCopy,
  IconDots,
  IconMessageCircle,
  IconPalette,
  IconRobot,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { LoadError } from '../../../components/forms/form-skeleton';
import { confirmAction } from '../../../components/ui/confirm-action';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { formatDateTime } from '../../../lib/dates';
import { useCanConfigure } from '../../../lib/permissions';
import { useBots, useDeleteBot, useDuplicateBot, useUpdateBot } from '../api/bots-api';
import { botPaths } from '../utils/bot-paths';
import { BotNameModal } from './bot-name-modal';
import { CreateBotButton } from './create-bot-button';

function EnabledSwitch({ bot }: { bot: Bot }) {
  const update = useUpdateBot();
  const canConfigure = useCanConfigure();
  const toggle = async (enabled: boolean) => {
    try {
      await update.mutateAsync({ id: bot.id, body: { enabled } });
      notifySuccess(
        enabled
          ? `"${bot.name}" is enabled: its widget answers visitors.`
          : `"${bot.name}" is disabled: its widget no longer loads.`,
      );
    } catch (error) {
      notifyError(error, 'The bot was not changed');
    }
  };
  return (
    <Tooltip label={AGENT_READ_ONLY_MESSAGE} disabled={canConfigure} multiline w={260}>
      <Switch
        label="Enabled"
        aria-label={`${bot.name} enabled`}
        checked={bot.enabled}
        disabled={update.isPending || !canConfigure}
        onChange={(event) => void toggle(event.currentTarget.checked)}
      />
    </Tooltip>
  );
}

function BotCard({ bot, onDuplicate }: { bot: Bot; onDuplicate: (bot: Bot) => void }) {
  const remove = useDeleteBot();
  const canConfigure = useCanConfigure();
  const onDelete = async () => {
    const confirmed = await confirmAction({
      title: 'Delete bot',
      message: `"${bot.name}" will be deleted and its widget stops loading on every site that embeds it. This cannot be undone.`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await remove.mutateAsync(bot.id);
      notifySuccess(`Bot "${bot.name}" was deleted.`);
    } catch (error) {
      notifyError(error, 'The bot was not deleted');
    }
  };
  return (
    <Card withBorder radius="md" padding="md" role="listitem" aria-label={bot.name}>
      <Stack gap="sm">
        <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start">
          <Stack gap={2} miw={0}>
            <Group gap="xs" wrap="wrap">
              <Anchor component={Link} to={botPaths.customize(bot.id)} fw={600}>
                {bot.name}
              </Anchor>
              {!bot.enabled && (
                <Badge color="gray" variant="light">
                  Disabled
                </Badge>
              )}
            </Group>
            <Text size="sm" c="dimmed" lineClamp={2}>
              {bot.config.identity.description}
            </Text>
            <Text size="xs" c="dimmed">
              Engine: {bot.config.engines.botEngine} · Updated {formatDateTime(bot.updated_at)}
            </Text>
          </Stack>
          {canConfigure && (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="subtle" aria-label={`More actions for ${bot.name}`}>
                  <IconDots size={18} aria-hidden="true" />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconCopy size={16} />} onClick={() => onDuplicate(bot)}>
                  Duplicate
                </Menu.Item>
                <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => void onDelete()}>
                  Delete
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
        <Group justify="space-between" gap="sm" wrap="wrap">
          <EnabledSwitch bot={bot} />
          <Group gap="xs" wrap="wrap">
            <Button
              component={Link}
              to={botPaths.customize(bot.id)}
              size="xs"
              variant="light"
              leftSection={<IconPalette size={14} aria-hidden="true" />}
            >
              Customize
            </Button>
            <Button
              component={Link}
              to={botPaths.message(bot.id)}
              size="xs"
              variant="default"
              leftSection={<IconMessageCircle size={14} aria-hidden="true" />}
            >
              Welcome
            </Button>
            <Button
              component={Link}
              to={botPaths.install(bot.id)}
              size="xs"
              variant="default"
              leftSection={<IconCode size={14} aria-hidden="true" />}
            >
              Install
            </Button>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}

interface BotListProps {
  query: BotListQuery;
  onQueryChange: (query: BotListQuery) => void;
}

/** The organisation's bots by name, one page at a time: switch each on or off, copy, delete, or open its screens. */
export function BotList({ query, onQueryChange }: BotListProps) {
  const bots = useBots(query);
  const canConfigure = useCanConfigure();
  const duplicate = useDuplicateBot();
  const navigate = useNavigate();
  const [source, setSource] = useState<Bot | null>(null);
  const [isCopying, copying] = useDisclosure(false);

  if (bots.isError && !bots.data) {
    return (
      <LoadError
        title="The bots could not be loaded"
        error={bots.error}
        onRetry={() => void bots.refetch()}
      />
    );
  }
  if (bots.isPending) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading the bots">
        {Array.from({ length: 3 }, (_, index) => (
          <Skeleton key={index} height={110} radius="md" />
        ))}
      </Stack>
    );
  }
  const { items, total } = bots.data;
  if (total === 0) {
    return (
      <EmptyPanel
        icon={<IconRobot size={26} />}
        title="No bots yet"
        description={
          canConfigure
            ? 'A bot is the assistant you put on your website. Create one, customise its look and answers, then copy its snippet into your pages.'
            : 'A bot is the assistant your organisation puts on its website; a user or an administrator creates them.'
        }
        action={<CreateBotButton onCreated={(bot) => void navigate(botPaths.customize(bot.id))} />}
      />
    );
  }
  const pages = Math.max(1, Math.ceil(total / query.page_size));
  return (
    <Stack gap="md">
      <Stack gap="sm" role="list" aria-label="Bots">
        {items.map((bot) => (
          <BotCard
            key={bot.id}
            bot={bot}
            onDuplicate={(chosen) => {
              setSource(chosen);
              copying.open();
            }}
          />
        ))}
      </Stack>
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" c="dimmed">
          {total === 1 ? '1 bot' : `${total} bots`}
        </Text>
        {pages > 1 && (
          <Pagination
            total={pages}
            value={Math.min(query.page, pages)}
            onChange={(page) => onQueryChange({ ...query, page })}
            getControlProps={(control) =>
              control === 'previous'
                ? { 'aria-label': 'Previous page' }
                : control === 'next'
                  ? { 'aria-label': 'Next page' }
                  : {}
            }
          />
        )}
      </Group>
      {source && (
        <BotNameModal
          key={source.id}
          opened={isCopying}
          onClose={copying.close}
          title={`Duplicate "${source.name}"`}
          submitLabel="Duplicate"
          failureTitle="The bot was not duplicated"
          initialName={`Copy of ${source.name}`.slice(0, BOT_NAME_MAX)}
          isSaving={duplicate.isPending}
          onSubmit={(name) => duplicate.mutateAsync({ id: source.id, name })}
          onDone={(bot) =>
            notifySuccess(`"${bot.name}" was created as a copy. It stays disabled until you switch it on.`)
          }
        />
      )}
    </Stack>
  );
}
