import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { IndexList } from '../../../features/indexes/components/index-list';
import { indexPaths } from '../../../features/indexes/utils/index-paths';
import { useKnowledgeBases } from '../../../features/knowledge/api/knowledge-api';
import { useCanConfigure } from '../../../lib/permissions';

/** /index: the organisation's retrieval indexes (menu: Omni RAG > Index). */
export function Component() {
  const knowledge = useKnowledgeBases();
  const canConfigure = useCanConfigure();
  return (
    <RequireMenuRoute route="/index">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Indexes"
          description="How your knowledge bases are searched when a bot answers: by keywords, by meaning, or both."
          actions={
            canConfigure && (
              <Button component={Link} to={indexPaths.add} leftSection={<IconPlus size={16} />}>
                Create index
              </Button>
            )
          }
        />
        <IndexList hasKnowledge={knowledge.data ? knowledge.data.items.length > 0 : undefined} />
      </Stack>
    </RequireMenuRoute>
  );
}
