import { Stack } from '@mantine/core';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { BotConfigEditor } from '../../../features/bots/components/bot-config-editor';
import { BotScope } from '../../../features/bots/components/bot-scope';
import { botPaths } from '../../../features/bots/utils/bot-paths';

/** /bot/customize?bot_id=: the bot's whole widget configuration with a live preview (menu: Bots > Create). */
export function Component() {
  return (
    <RequireMenuRoute route="/bot/customize">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Customize bot"
          description="Everything your visitors see and how the bot answers; the preview follows as you type."
          back={{ to: botPaths.manage, label: 'Bots' }}
        />
        <BotScope pathOf={botPaths.customize} purpose="then customise its look, texts and answers here.">
          {(bot) => <BotConfigEditor key={bot.id} bot={bot} />}
        </BotScope>
      </Stack>
    </RequireMenuRoute>
  );
}
