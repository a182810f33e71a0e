import { Stack } from '@mantine/core';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { BotScope } from '../../../features/bots/components/bot-scope';
import { WelcomeMessageForm } from '../../../features/bots/components/welcome-message-form';
import { botPaths } from '../../../features/bots/utils/bot-paths';

/** /bot/config/message?bot_id=: how the bot greets visitors (menu: Bots > Welcome Message). */
export function Component() {
  return (
    <RequireMenuRoute route="/bot/config/message">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Welcome message"
          description="What visitors see first: the greeting, menus of ready-made questions and suggestions."
          back={{ to: botPaths.manage, label: 'Bots' }}
        />
        <BotScope pathOf={botPaths.message} purpose="then write how it greets your visitors here.">
          {(bot) => <WelcomeMessageForm key={bot.id} bot={bot} />}
        </BotScope>
      </Stack>
    </RequireMenuRoute>
  );
}
