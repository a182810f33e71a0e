import { Stack } from '@mantine/core';
import type { CreateKnowledgeBody } from '@omnibot/contracts';
import { useNavigate } from 'react-router';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { PageHeader } from '../../../components/ui/page-header';
import { useCreateKnowledgeBase } from '../../../features/knowledge/api/knowledge-api';
import { KnowledgeForm } from '../../../features/knowledge/components/knowledge-form';
import { DEFAULT_KNOWLEDGE_VALUES } from '../../../features/knowledge/utils/knowledge-values';
import { knowledgePaths } from '../../../features/knowledge/utils/knowledge-paths';
import { useCanConfigure } from '../../../lib/permissions';

/** /knowledge/add: a new knowledge base with the default chunking. */
export function Component() {
  const create = useCreateKnowledgeBase();
  const navigate = useNavigate();
  const canConfigure = useCanConfigure();

  const onSubmit = async (body: CreateKnowledgeBody) => {
    try {
      const knowledge = await create.mutateAsync(body);
      notifySuccess(`Knowledge base "${knowledge.name}" was created.`);
      await navigate(knowledgePaths.view(knowledge.id));
      return true;
    } catch (error) {
      notifyError(error, 'The knowledge base was not created');
      return false;
    }
  };

  return (
    <RequireMenuRoute route="/knowledge">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Create knowledge base"
          description="Name it, pick the language of its documents, then add sources."
          back={{ to: knowledgePaths.list, label: 'Knowledge bases' }}
        />
        {canConfigure ? (
          <KnowledgeForm
            initialValues={DEFAULT_KNOWLEDGE_VALUES}
            submitLabel="Create knowledge base"
            isSaving={create.isPending}
            onSubmit={onSubmit}
          />
        ) : (
          <ReadOnlyNotice back={{ to: knowledgePaths.list, label: 'Back to the knowledge bases' }} />
        )}
      </Stack>
    </RequireMenuRoute>
  );
}
