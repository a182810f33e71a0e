import { Anchor, Select, Skeleton } from '@mantine/core';
import type { Bot } from '@omnibot/contracts';
import { IconRobot } from '@tabler/icons-react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/forms/form-skeleton';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { useBots } from '../api/bot-testing-api';
import { botTestingPaths } from '../utils/bot-testing-paths';

interface BotPickerProps {
  value: string | null;
  onChange: (bot: Bot | null) => void;
  /** What the page does with the chosen bot, for the empty state. */
  purpose: string;
}

/** Picks one of the organisation's bots, disabled ones too (they are marked). */
export function BotPicker({ value, onChange, purpose }: BotPickerProps) {
  const bots = useBots();
  if (bots.isPending) return <Skeleton h={60} maw={420} aria-label="Loading the bots" />;
  if (bots.isError) {
    return (
      <LoadError
        title="The bots could not be loaded"
        error={bots.error}
        onRetry={() => void bots.refetch()}
      />
    );
  }
  const items = bots.data.items;
  if (items.length === 0) {
    return (
      <EmptyPanel
        icon={<IconRobot aria-hidden="true" />}
        title="No bots yet"
        description={
          <>
            Create a bot first, then come back here to {purpose}.{' '}
            <Anchor component={Link} to={botTestingPaths.create} inherit>
              Create a bot
            </Anchor>
          </>
        }
      />
    );
  }
  return (
    <Select
      label="Bot"
      placeholder="Choose a bot"
      maw={420}
      searchable
      allowDeselect={false}
      nothingFoundMessage="No bot has that name"
      data={items.map((bot) => ({ value: bot.id, label: bot.enabled ? bot.name : `${bot.name} (disabled)` }))}
      value={value !== null && items.some((bot) => bot.id === value) ? value : null}
      onChange={(id) => onChange(items.find((bot) => bot.id === id) ?? null)}
    />
  );
}
