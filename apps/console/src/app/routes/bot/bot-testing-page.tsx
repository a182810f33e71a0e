import { Stack } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { useBots } from '../../../features/bot-testing/api/bot-testing-api';
import { BotPicker } from '../../../features/bot-testing/components/bot-picker';
import { TestSuite } from '../../../features/bot-testing/components/test-suite';

/** /bot/testing: a bot's test suite, its runs and the pass rate over them. */
export function Component() {
  const [params, setParams] = useSearchParams();
  const botId = params.get('bot');
  const bots = useBots();
  const bot = bots.data?.items.find((item) => item.id === botId) ?? null;
  return (
    <RequireMenuRoute route="/bot/manage">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Bot testing"
          description="Keep questions with the answer text or source you expect, run them against the bot and follow the pass rate over time."
        />
        <Stack gap="md">
          <BotPicker
            value={botId}
            purpose="test it"
            onChange={(chosen) => setParams(chosen ? { bot: chosen.id } : {}, { replace: true })}
          />
          {bot && <TestSuite key={bot.id} botId={bot.id} />}
        </Stack>
      </Stack>
    </RequireMenuRoute>
  );
}
