import { Alert, Anchor, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { PageHeader } from '../../../components/ui/page-header';
import { useKnowledgeBase } from '../../../features/knowledge/api/knowledge-api';
import { BulkAddSources } from '../../../features/knowledge/components/bulk-add-sources';
import { knowledgePaths } from '../../../features/knowledge/utils/knowledge-paths';
import { useCanConfigure } from '../../../lib/permissions';

function KnowledgeBulk({ id }: { id: string }) {
  const knowledge = useKnowledgeBase(id);
  const navigate = useNavigate();
  const canConfigure = useCanConfigure();
  if (knowledge.isPending) return <FormSkeleton label="Loading the knowledge base" fields={3} />;
  if (knowledge.isError) {
    return (
      <LoadError
        title="The knowledge base could not be loaded"
        error={knowledge.error}
        onRetry={() => void knowledge.refetch()}
      />
    );
  }
  return (
    <Stack gap={0} w="100%">
      <PageHeader
        title={`Bulk add to ${knowledge.data.name}`}
        description="Many files, Q&A pairs or web pages at once: all are added, or none if one is refused."
        back={{ to: knowledgePaths.view(id), label: knowledge.data.name }}
      />
      {canConfigure ? (
        <BulkAddSources knowledgeId={id} onAdded={() => void navigate(knowledgePaths.view(id))} />
      ) : (
        <ReadOnlyNotice back={{ to: knowledgePaths.view(id), label: `Back to ${knowledge.data.name}` }} />
      )}
    </Stack>
  );
}

/** /knowledge/bulk?id=: many sources for one knowledge base in one go. */
export function Component() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  return (
    <RequireMenuRoute route="/knowledge">
      {id ? (
        <KnowledgeBulk key={id} id={id} />
      ) : (
        <Alert color="red" icon={<IconAlertCircle />} role="alert" title="Knowledge base not found">
          No knowledge base was chosen.{' '}
          <Anchor component={Link} to={knowledgePaths.list} inherit>
            Back to the knowledge bases
          </Anchor>
        </Alert>
      )}
    </RequireMenuRoute>
  );
}
