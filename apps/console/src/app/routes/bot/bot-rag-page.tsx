import { Button, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { ErrorPage } from '../../../components/errors/error-page';
import { PageHeader } from '../../../components/ui/page-header';
import { paths } from '../../../config/paths';
import { BotScope } from '../../../features/bots/components/bot-scope';
import { LanguageRagForm } from '../../../features/bots/components/language-rag-form';
import { botPaths } from '../../../features/bots/utils/bot-paths';
import { useSession } from '../../../lib/session';

/** /bot/config/rag?bot_id=: a bot's languages and RAG (menu: Bots > Language RAG, only with Omni RAG). */
export function Component() {
  const session = useSession();
  if (session && !session.features.includes('omnirag')) {
    return (
      <ErrorPage
        code="403"
        title="Language RAG needs Omni RAG"
        actions={
          <Button component={Link} to={paths.home} variant="light">
            Back to home
          </Button>
        }
      >
        Your organisation has no Omni RAG subscription, so its bots cannot answer from a RAG. Ask your
        administrator to add Omni RAG; a bot&apos;s languages can still be set under Customize › Behaviour.
      </ErrorPage>
    );
  }
  return (
    <RequireMenuRoute route="/bot/config/rag">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Language and RAG"
          description="The languages the bot speaks and the knowledge it answers from."
          back={{ to: botPaths.manage, label: 'Bots' }}
        />
        <BotScope pathOf={botPaths.rag} purpose="then choose its languages and the RAG it answers from here.">
          {(bot) => <LanguageRagForm key={bot.id} bot={bot} />}
        </BotScope>
      </Stack>
    </RequireMenuRoute>
  );
}
