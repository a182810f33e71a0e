import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { TemplateList } from '../../../features/bot-templates/components/template-list';
import { templatePaths } from '../../../features/bot-templates/utils/template-paths';
import { useCanConfigure } from '../../../lib/permissions';

/** /bot/template/manage: the organisation's bot templates (menu: Bot Templates > Manage). */
export function Component() {
  const canConfigure = useCanConfigure();
  return (
    <RequireMenuRoute route={templatePaths.manage}>
      <Stack gap={0} w="100%">
        <PageHeader
          title="Bot templates"
          description="Start new bots from a saved look and texts, rename a template or delete it."
          actions={
            canConfigure && (
              <Button component={Link} to={templatePaths.create} leftSection={<IconPlus size={16} />}>
                Create template
              </Button>
            )
          }
        />
        <TemplateList />
      </Stack>
    </RequireMenuRoute>
  );
}
