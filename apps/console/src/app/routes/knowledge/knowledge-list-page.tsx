import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { KnowledgeList } from '../../../features/knowledge/components/knowledge-list';
import { knowledgePaths } from '../../../features/knowledge/utils/knowledge-paths';
import { useCanConfigure } from '../../../lib/permissions';

/** /knowledge: the organisation's knowledge bases (menu: Omni RAG > Knowledge Base). */
export function Component() {
  const canConfigure = useCanConfigure();
  return (
    <RequireMenuRoute route="/knowledge">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Knowledge bases"
          description="Sets of documents, web pages and Q&A pairs your bots answer from."
          actions={
            canConfigure && (
              <Button component={Link} to={knowledgePaths.add} leftSection={<IconPlus size={16} />}>
                Create knowledge base
              </Button>
            )
          }
        />
        <KnowledgeList />
      </Stack>
    </RequireMenuRoute>
  );
}
