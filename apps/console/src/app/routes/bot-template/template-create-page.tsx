import { Stack } from '@mantine/core';
import { useNavigate } from 'react-router';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { TemplateCreateForm } from '../../../features/bot-templates/components/template-create-form';
import { templatePaths } from '../../../features/bot-templates/utils/template-paths';
import { useCanConfigure } from '../../../lib/permissions';

/** /bot/template/create: save a bot's look and texts as a template (menu: Bot Templates > Create). */
export function Component() {
  const navigate = useNavigate();
  const canConfigure = useCanConfigure();
  return (
    <RequireMenuRoute route={templatePaths.create}>
      <Stack gap={0} w="100%">
        <PageHeader
          title="Create template"
          description="Pick a bot: its identity, welcome, appearance, feedback, titles, masking, launcher and window are kept. Engines and keys never are."
        />
        {canConfigure ? (
          <TemplateCreateForm onCreated={() => void navigate(templatePaths.manage)} />
        ) : (
          <ReadOnlyNotice back={{ to: templatePaths.manage, label: 'Back to the bot templates' }} />
        )}
      </Stack>
    </RequireMenuRoute>
  );
}
