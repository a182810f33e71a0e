import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { RagList } from '../../../features/rags/components/rag-list';
import { ragPaths } from '../../../features/rags/utils/rag-paths';
import { useCanConfigure } from '../../../lib/permissions';

/** /rag: the organisation's RAGs (menu: Omni RAG > RAGs). */
export function Component() {
  const canConfigure = useCanConfigure();
  return (
    <RequireMenuRoute route="/rag">
      <Stack gap={0} w="100%">
        <PageHeader
          title="RAGs"
          description="Each answers questions from an index, with a prompt and a chat model or with sentences from the sources."
          actions={
            canConfigure && (
              <Button component={Link} to={ragPaths.add} leftSection={<IconPlus size={16} />}>
                Add RAG
              </Button>
            )
          }
        />
        <RagList />
      </Stack>
    </RequireMenuRoute>
  );
}
