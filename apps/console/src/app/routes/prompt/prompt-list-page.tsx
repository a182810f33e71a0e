import { Button, Stack } from '@mantine/core';
import { PromptListQuerySchema, type PromptListQuery } from '@omnibot/contracts';
import { IconPlus } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { PromptList } from '../../../features/prompts/components/prompt-list';
import { promptPaths } from '../../../features/prompts/utils/prompt-paths';
import { useCanConfigure } from '../../../lib/permissions';

const DEFAULTS = PromptListQuerySchema.parse({});

/** The list's state from the address bar; anything invalid falls back to the defaults. */
function queryFrom(params: URLSearchParams): PromptListQuery {
  const parsed = PromptListQuerySchema.safeParse(Object.fromEntries(params));
  return parsed.success ? parsed.data : DEFAULTS;
}

function searchFor(query: PromptListQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.page !== DEFAULTS.page) params.set('page', String(query.page));
  if (query.page_size !== DEFAULTS.page_size) params.set('page_size', String(query.page_size));
  return params;
}

/** /prompt: the organisation's prompts (menu: Prompts > Manage). */
export function Component() {
  const [params, setParams] = useSearchParams();
  const canConfigure = useCanConfigure();
  return (
    <RequireMenuRoute route="/prompt">
      <Stack gap={0} w="100%">
        <PageHeader
          title="Prompts"
          description="Templates that tell the model how to answer from your documents. Every save keeps a version."
          actions={
            canConfigure && (
              <Button component={Link} to={promptPaths.compose} leftSection={<IconPlus size={16} />}>
                Create prompt
              </Button>
            )
          }
        />
        <PromptList query={queryFrom(params)} onQueryChange={(next) => setParams(searchFor(next))} />
      </Stack>
    </RequireMenuRoute>
  );
}
