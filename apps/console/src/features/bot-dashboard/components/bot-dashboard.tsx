import { Button, Card, Group, SegmentedControl, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { BOT_STATS_PERIODS, type FeedbackLabels } from '@omnibot/contracts';
import { IconPlus, IconRobot } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/forms/form-skeleton';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { useDashboardBots } from '../api/dashboard-api';
import { dashboardPaths } from '../utils/dashboard-paths';
import { BotStatsPanel } from './bot-stats-panel';
import { ConversationLog } from './conversation-log';
import { TranscriptDrawer } from './transcript-drawer';

export type DashboardPeriod = (typeof BOT_STATS_PERIODS)[number];

interface BotDashboardProps {
  /** The chosen bot; the first bot (by name) when null or not one of the organisation's. */
  botId: string | null;
  days: DashboardPeriod;
  onBotChange: (botId: string) => void;
  onDaysChange: (days: DashboardPeriod) => void;
}

const isPeriod = (value: number): value is DashboardPeriod =>
  (BOT_STATS_PERIODS as readonly number[]).includes(value);

/** Per bot: totals and daily charts over 7, 30 or 90 days, and the conversation log with transcripts. */
export function BotDashboard({ botId, days, onBotChange, onDaysChange }: BotDashboardProps) {
  const bots = useDashboardBots();
  const [openConversation, setOpenConversation] = useState<string | null>(null);
  const onOpen = useCallback((id: string) => setOpenConversation(id), []);
  const items = bots.data?.items;
  const bot = items?.find((item) => item.id === botId) ?? items?.[0];
  const labels = useMemo<FeedbackLabels | null>(
    () =>
      bot
        ? {
            button1: bot.config.feedback.button1Text,
            button2: bot.config.feedback.button2Text,
            button3: bot.config.feedback.button3Text,
          }
        : null,
    [bot],
  );

  if (bots.isError && !bots.data) {
    return (
      <LoadError
        title="The bots could not be loaded"
        error={bots.error}
        onRetry={() => void bots.refetch()}
      />
    );
  }
  if (!items) return <Skeleton height={36} maw={360} aria-label="Loading the bots" />;
  if (!bot || !labels) {
    return (
      <Card withBorder radius="md">
        <EmptyPanel
          icon={<IconRobot size={26} />}
          title="No bots yet"
          description="The dashboard shows what visitors ask your bots and how they answer. Create a bot first, then put it on your website."
          action={
            <Button component={Link} to={dashboardPaths.manage} leftSection={<IconPlus size={16} />}>
              Create a bot
            </Button>
          }
        />
      </Card>
    );
  }

  return (
    <Stack gap="lg">
      <Group gap="md" align="flex-end" wrap="wrap">
        <Select
          label="Bot"
          data={items.map((item) => ({
            value: item.id,
            label: item.enabled ? item.name : `${item.name} (disabled)`,
          }))}
          value={bot.id}
          onChange={(value) => value && onBotChange(value)}
          allowDeselect={false}
          searchable
          style={{ flex: '1 1 14rem', maxWidth: '24rem' }}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="dashboard-period-label">
            Period
          </Text>
          <SegmentedControl
            aria-labelledby="dashboard-period-label"
            data={BOT_STATS_PERIODS.map((period) => ({ value: String(period), label: `${period} days` }))}
            value={String(days)}
            onChange={(value) => {
              const next = Number(value);
              if (isPeriod(next)) onDaysChange(next);
            }}
          />
        </Stack>
      </Group>

      <Stack gap="sm" component="section" aria-labelledby="dashboard-activity">
        <Title order={2} size="h3" id="dashboard-activity">
          Activity
        </Title>
        <BotStatsPanel key={bot.id} botId={bot.id} days={days} />
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="dashboard-log">
        <Title order={2} size="h3" id="dashboard-log">
          Conversation log
        </Title>
        <ConversationLog key={bot.id} botId={bot.id} labels={labels} onOpen={onOpen} />
      </Stack>

      <TranscriptDrawer conversationId={openConversation} onClose={() => setOpenConversation(null)} />
    </Stack>
  );
}
