import { Stack } from '@mantine/core';
import type { BotListQuery } from '@omnibot/contracts';
import { useNavigate, useSearchParams } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { BotList } from '../../../features/bots/components/bot-list';
import { CreateBotButton } from '../../../features/bots/components/create-bot-button';
import { botPaths } from '../../../features/bots/utils/bot-paths';

const PAGE_SIZE = 20;

/** /bot/manage: the organisation's bots, page by page (menu: Bots > Manage). */
export function Component() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const page = Math.max(1, Math.floor(Number(params.get('page') ?? '1')) || 1);
  const query: BotListQuery = { page, page_size: PAGE_SIZE };
  return (
    <RequireMenuRoute route="/bot/manage">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Bots"
          description="Switch bots on or off, copy them, or open their settings and install snippet."
          actions={<CreateBotButton onCreated={(bot) => void navigate(botPaths.customize(bot.id))} />}
        />
        <BotList
          query={query}
          onQueryChange={(next) => setParams(next.page > 1 ? { page: String(next.page) } : {})}
        />
      </Stack>
    </RequireMenuRoute>
  );
}
