import { Stack } from '@mantine/core';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { BotInstallPanel } from '../../../features/bots/components/bot-install-panel';
import { BotScope } from '../../../features/bots/components/bot-scope';
import { botPaths } from '../../../features/bots/utils/bot-paths';

/** /bot/install?bot_id=: the embed snippet, the allowed origins and where the bot was loaded (menu: Bots > Install). */
export function Component() {
  return (
    <RequireMenuRoute route="/bot/install">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Install bot"
          description="Put the assistant on your website with one line, and choose which sites may show it."
          back={{ to: botPaths.manage, label: 'Bots' }}
        />
        <BotScope pathOf={botPaths.install} purpose="then copy its snippet into your website here.">
          {(bot) => <BotInstallPanel key={bot.id} bot={bot} />}
        </BotScope>
      </Stack>
    </RequireMenuRoute>
  );
}
