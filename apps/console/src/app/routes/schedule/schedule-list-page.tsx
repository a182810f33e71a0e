import { Button, Group, Stack } from '@mantine/core';
import { IconCalendarMonth, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { PageHeader } from '../../../components/ui/page-header';
import { ScheduleList } from '../../../features/schedules/components/schedule-list';
import { schedulePaths } from '../../../features/schedules/utils/schedule-paths';
import { useCanConfigure } from '../../../lib/permissions';

/** /schedule: the organisation's business hours (menu: Settings > Account > Scheduler). */
export function Component() {
  const canConfigure = useCanConfigure();
  return (
    <RequireMenuRoute route={schedulePaths.list}>
      <Stack gap={0} w="100%">
        <PageHeader
          title="Schedules"
          description="Business hours for hand-over to a person: outside them the widget shows the bot's offline text instead."
          actions={
            <Group gap="sm">
              <Button
                component={Link}
                to={schedulePaths.calendar()}
                variant="default"
                leftSection={<IconCalendarMonth size={16} />}
              >
                Calendar
              </Button>
              {canConfigure && (
                <Button component={Link} to={schedulePaths.add} leftSection={<IconPlus size={16} />}>
                  Add schedule
                </Button>
              )}
            </Group>
          }
        />
        <ScheduleList />
      </Stack>
    </RequireMenuRoute>
  );
}
