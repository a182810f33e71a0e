import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { CaseSummaryList } from '../../../features/case-summaries/components/case-summary-list';
import { caseSummaryPaths } from '../../../features/case-summaries/utils/case-summary-paths';
import { useCanConfigure } from '../../../lib/permissions';

/** /cs/config: the organisation's case-summary configurations (menu: Case Summarization > Configuration). */
export function Component() {
  const canConfigure = useCanConfigure();
  return (
    <RequireMenuRoute route="/cs/config">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Case summaries"
          description="Summaries of a conversation for the agent who takes it: written by a chat model, or taken from the transcript."
          actions={
            canConfigure && (
              <Button component={Link} to={caseSummaryPaths.add} leftSection={<IconPlus size={16} />}>
                Add configuration
              </Button>
            )
          }
        />
        <CaseSummaryList />
      </Stack>
    </RequireMenuRoute>
  );
}
