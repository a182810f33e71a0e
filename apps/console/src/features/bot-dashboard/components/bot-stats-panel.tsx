import { Button, Card, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import type { BotStats } from '@omnibot/contracts';
import { IconDownload, IconMessageChatbot } from '@tabler/icons-react';
import { Link } from 'react-router';
import { BarChart, type BarSeries } from '../../../components/charts/bar-chart';
import { LoadError } from '../../../components/forms/form-skeleton';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { useBotStats } from '../api/dashboard-api';
import { dashboardPaths } from '../utils/dashboard-paths';
import { formatDay } from '../utils/format-day';

const percent = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 100));

function TotalCard({ label, value, hint }: { label: string; value: number; hint?: string }) {
  return (
    <Card withBorder padding="md" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.2}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Card>
  );
}

function Totals({ stats }: { stats: BotStats }) {
  const { totals, feedback_labels: labels } = stats;
  const rated = totals.feedback.button1 + totals.feedback.button2 + totals.feedback.button3;
  const answeredShare = percent(totals.answered, totals.bot_messages);
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm" aria-label="Totals of the period">
      <TotalCard label="Conversations" value={totals.conversations} />
      <TotalCard label="Visitor messages" value={totals.visitor_messages} />
      <TotalCard
        label="Answered"
        value={totals.answered}
        hint={answeredShare === null ? 'No bot messages' : `${answeredShare}% of bot messages`}
      />
      <TotalCard label="Fallback" value={totals.fallback} hint="No answer found" />
      <TotalCard
        label="Feedback"
        value={rated}
        hint={`${labels.button1} ${totals.feedback.button1} · ${labels.button2} ${totals.feedback.button2} · ${labels.button3} ${totals.feedback.button3}`}
      />
    </SimpleGrid>
  );
}

function Charts({ stats }: { stats: BotStats }) {
  const { feedback_labels: labels } = stats;
  const messageSeries: BarSeries[] = [
    { key: 'answered', label: 'Answered', color: 'teal' },
    { key: 'fallback', label: 'Fallback', color: 'orange' },
  ];
  const feedbackSeries: BarSeries[] = [
    { key: 'button1', label: labels.button1, color: 'green' },
    { key: 'button2', label: labels.button2, color: 'yellow' },
    { key: 'button3', label: labels.button3, color: 'red' },
  ];
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
      <Card withBorder padding="md" radius="md">
        <BarChart
          title="Conversations"
          series={[{ key: 'conversations', label: 'Started', color: 'blue' }]}
          data={stats.items.map((day) => ({ label: day.day, values: { conversations: day.conversations } }))}
          formatLabel={formatDay}
        />
      </Card>
      <Card withBorder padding="md" radius="md">
        <BarChart
          title="Bot messages"
          series={messageSeries}
          data={stats.items.map((day) => ({
            label: day.day,
            values: { answered: day.answered, fallback: day.fallback },
          }))}
          formatLabel={formatDay}
        />
      </Card>
      <Card withBorder padding="md" radius="md">
        <BarChart
          title="Feedback"
          series={feedbackSeries}
          data={stats.items.map((day) => ({ label: day.day, values: { ...day.feedback } }))}
          formatLabel={formatDay}
        />
      </Card>
    </SimpleGrid>
  );
}

/** A bot's totals and daily charts over the period, or what to do when nobody talked to it yet. */
export function BotStatsPanel({ botId, days }: { botId: string; days: number }) {
  const stats = useBotStats(botId, days);
  if (stats.isError && !stats.data) {
    return (
      <LoadError
        title="The figures could not be loaded"
        error={stats.error}
        onRetry={() => void stats.refetch()}
      />
    );
  }
  if (!stats.data) {
    return (
      <Stack gap="sm" aria-busy="true" aria-label="Loading the figures">
        <Skeleton height={80} />
        <Skeleton height={200} />
      </Stack>
    );
  }
  const { totals } = stats.data;
  if (totals.conversations === 0 && totals.visitor_messages === 0 && totals.bot_messages === 0) {
    return (
      <Card withBorder radius="md">
        <EmptyPanel
          icon={<IconMessageChatbot size={26} />}
          title={`No conversations in the last ${days} days`}
          description="Visitors talk to this bot through the widget on your website. Install the widget, or try the bot yourself, and the figures appear here."
          action={
            <Group gap="sm" justify="center">
              <Button component={Link} to={dashboardPaths.install} leftSection={<IconDownload size={16} />}>
                Install the widget
              </Button>
              <Button component={Link} to={dashboardPaths.promptTest} variant="default">
                Try the bot
              </Button>
            </Group>
          }
        />
      </Card>
    );
  }
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {formatDay(stats.data.from)} – {formatDay(stats.data.to)} (UTC days)
      </Text>
      <Totals stats={stats.data} />
      <Charts stats={stats.data} />
    </Stack>
  );
}
