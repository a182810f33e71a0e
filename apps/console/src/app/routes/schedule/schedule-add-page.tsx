import { Stack } from '@mantine/core';
import { useNavigate } from 'react-router';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { ScheduleForm } from '../../../features/schedules/components/schedule-form';
import { schedulePaths } from '../../../features/schedules/utils/schedule-paths';
import { useCanConfigure } from '../../../lib/permissions';

/** /schedule/add: new business hours. */
export function Component() {
  const navigate = useNavigate();
  const canConfigure = useCanConfigure();
  return (
    <RequireMenuRoute route={schedulePaths.list}>
      <Stack gap={0} w="100%">
        <PageHeader
          title="Add schedule"
          description="Pick the time zone, the weekly hours and any holidays; a bot then offers a person only while it is open."
          back={{ to: schedulePaths.list, label: 'Schedules' }}
        />
        {canConfigure ? (
          <ScheduleForm onSaved={(saved) => void navigate(schedulePaths.view(saved.id))} />
        ) : (
          <ReadOnlyNotice back={{ to: schedulePaths.list, label: 'Back to the schedules' }} />
        )}
      </Stack>
    </RequireMenuRoute>
  );
}
