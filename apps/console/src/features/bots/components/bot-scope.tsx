import { Alert, Anchor, Group, Select, Stack } from '@mantine/core';
import type { Bot } from '@omnibot/contracts';
import { IconAlertCircle, IconRobot } from '@tabler/icons-react';
import { type ReactNode, useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { ApiError } from '../../../lib/api-client';
import { useCanConfigure } from '../../../lib/permissions';
import { useBot, useBotChoices } from '../api/bots-api';
import { botPaths } from '../utils/bot-paths';
import { CreateBotButton } from './create-bot-button';

interface BotScopeProps {
  /** The address of this screen for another bot (keeps the user on the same screen). */
  pathOf: (botId: string) => string;
  /** What the empty state says a bot is needed for. */
  purpose: string;
  children: (bot: Bot) => ReactNode;
}

function ChosenBot({ id, children }: { id: string; children: (bot: Bot) => ReactNode }) {
  const bot = useBot(id);
  if (bot.isPending) return <FormSkeleton label="Loading the bot" fields={6} />;
  if (bot.isError && bot.error instanceof ApiError && [400, 404].includes(bot.error.status)) {
    return (
      <Alert color="red" icon={<IconAlertCircle />} role="alert" title="Bot not found">
        It may have been deleted. Choose another bot above, or{' '}
        <Anchor component={Link} to={botPaths.manage} inherit>
          manage your bots
        </Anchor>
        .
      </Alert>
    );
  }
  if (bot.isError) {
    return (
      <LoadError title="The bot could not be loaded" error={bot.error} onRetry={() => void bot.refetch()} />
    );
  }
  return children(bot.data);
}

/**
 * The bot a screen works on, from `?bot_id=` (the first bot when none is given), with a picker to switch bots and
 * an empty state that creates the first bot when there is none.
 */
export function BotScope({ pathOf, purpose, children }: BotScopeProps) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const bots = useBotChoices();
  const canConfigure = useCanConfigure();
  const requested = params.get('bot_id') ?? '';
  const first = bots.data?.items[0]?.id;

  useEffect(() => {
    if (requested === '' && first !== undefined) void navigate(pathOf(first), { replace: true });
  }, [requested, first, navigate, pathOf]);

  if (bots.isError && !bots.data) {
    return (
      <LoadError
        title="The bots could not be loaded"
        error={bots.error}
        onRetry={() => void bots.refetch()}
      />
    );
  }
  if (bots.isPending) return <FormSkeleton label="Loading the bots" fields={4} />;
  if (bots.data.total === 0) {
    return (
      <EmptyPanel
        icon={<IconRobot size={26} />}
        title="No bots yet"
        description={
          canConfigure
            ? `Create a bot first: ${purpose}`
            : 'Your organisation has no bot yet; a user or an administrator creates them.'
        }
        action={<CreateBotButton onCreated={(bot) => void navigate(pathOf(bot.id))} />}
      />
    );
  }
  const options = bots.data.items.map((bot) => ({
    value: bot.id,
    label: bot.enabled ? bot.name : `${bot.name} (disabled)`,
  }));
  if (requested !== '' && !options.some((option) => option.value === requested)) {
    options.push({ value: requested, label: 'Another bot' });
  }
  return (
    <Stack gap="md" w="100%">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Bot"
          data={options}
          value={requested === '' ? null : requested}
          onChange={(value) => value && void navigate(pathOf(value))}
          allowDeselect={false}
          searchable
          nothingFoundMessage="No bot with that name"
          style={{ flex: '1 1 16rem', maxWidth: '24rem' }}
        />
        <CreateBotButton variant="default" onCreated={(bot) => void navigate(pathOf(bot.id))} />
      </Group>
      {requested !== '' && (
        <ChosenBot key={requested} id={requested}>
          {children}
        </ChosenBot>
      )}
    </Stack>
  );
}
