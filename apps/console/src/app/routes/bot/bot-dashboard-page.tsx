import { Stack } from '@mantine/core';
import { BOT_STATS_PERIODS } from '@omnibot/contracts';
import { useSearchParams } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { BotDashboard, type DashboardPeriod } from '../../../features/bot-dashboard/components/bot-dashboard';

const DEFAULT_PERIOD: DashboardPeriod = 30;

const periodOf = (value: string | null): DashboardPeriod =>
  BOT_STATS_PERIODS.find((period) => String(period) === value) ?? DEFAULT_PERIOD;

/** /bot/dashboard?bot=&days=: a bot's figures and conversation log (shown to whoever may manage bots). */
export function Component() {
  const [params, setParams] = useSearchParams();
  const botId = params.get('bot');
  const days = periodOf(params.get('days'));
  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) next.set(key, value);
    setParams(next, { replace: true });
  };
  return (
    <RequireMenuRoute route="/bot/manage">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Bot dashboard"
          description="Conversations, answers and feedback of each bot, day by day, and every conversation with its transcript."
        />
        <BotDashboard
          botId={botId}
          days={days}
          onBotChange={(bot) => update({ bot })}
          onDaysChange={(period) => update({ days: String(period) })}
        />
      </Stack>
    </RequireMenuRoute>
  );
}
