import { Stack } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { useBots } from '../../../features/bot-testing/api/bot-testing-api';
import { BotChat } from '../../../features/bot-testing/components/bot-chat';
import { BotPicker } from '../../../features/bot-testing/components/bot-picker';

/** /bot/prompt/test: a messenger to talk to any of the organisation's bots, with each answer's trace. */
export function Component() {
  const [params, setParams] = useSearchParams();
  const botId = params.get('bot');
  const bots = useBots();
  const bot = bots.data?.items.find((item) => item.id === botId) ?? null;
  return (
    <RequireMenuRoute route="/bot/manage">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Test a bot"
          description="Talk to any of your bots, enabled or not, and see under each answer the chunks it found, their scores and how long each step took. Nothing is kept in the bot's conversations."
        />
        <Stack gap="md">
          <BotPicker
            value={botId}
            purpose="talk to it"
            onChange={(chosen) => setParams(chosen ? { bot: chosen.id } : {}, { replace: true })}
          />
          {bot && <BotChat key={bot.id} botId={bot.id} botName={bot.name} />}
        </Stack>
      </Stack>
    </RequireMenuRoute>
  );
}
