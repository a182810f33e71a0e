import { Stack } from '@mantine/core';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton } from '../../../components/forms/form-skeleton';
import { PageHeader } from '../../../components/ui/page-header';
import { useInboxSummary } from '../../../features/inbox/api/inbox-api';
import { Inbox } from '../../../features/inbox/components/inbox';
import { useAuth } from '../../../features/auth/components/auth-context';

/** /inbox: the conversations bots hand over to a person, answered here (menu: APPS > Inbox). */
export function Component() {
  const { state } = useAuth();
  // The menu offers the Inbox once the summary says the organisation has live agents; until it answers, wait.
  const summary = useInboxSummary();
  const userId = state.status === 'signed-in' ? state.user.user_id : null;
  return (
    <Stack gap={0} w="100%">
      <PageHeader
        title="Inbox"
        description="Visitors a bot handed over to a person: claim one, answer it, then hand it back to the bot or close it."
      />
      {summary.isPending ? (
        <FormSkeleton fields={2} label="Loading the inbox" />
      ) : (
        <RequireMenuRoute route="/inbox">
          <Inbox userId={userId} />
        </RequireMenuRoute>
      )}
    </Stack>
  );
}
