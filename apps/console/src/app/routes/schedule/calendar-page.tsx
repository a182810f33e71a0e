import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { IconCalendarTime } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { PageHeader } from '../../../components/ui/page-header';
import { useSchedules } from '../../../features/schedules/api/schedules-api';
import { ScheduleCalendar } from '../../../features/schedules/components/schedule-calendar';
import { currentMonth } from '../../../features/schedules/utils/schedule-form';
import { schedulePaths } from '../../../features/schedules/utils/schedule-paths';
import { useCanConfigure } from '../../../lib/permissions';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** /calendar?id=&month=: what applies on each date of a month of one schedule, exception dates highlighted. */
export function Component() {
  const [params, setParams] = useSearchParams();
  const schedules = useSchedules();
  const canConfigure = useCanConfigure();
  const asked = params.get('month') ?? '';
  const month = MONTH.test(asked) ? asked : currentMonth();
  const items = schedules.data?.items ?? [];
  const scheduleId = items.find((item) => item.id === params.get('id'))?.id ?? items[0]?.id ?? null;

  let body;
  if (schedules.isPending) body = <FormSkeleton label="Loading the schedules" fields={3} />;
  else if (schedules.isError)
    body = (
      <LoadError
        title="The schedules could not be loaded"
        error={schedules.error}
        onRetry={() => void schedules.refetch()}
      />
    );
  else if (scheduleId === null)
    body = (
      <EmptyPanel
        icon={<IconCalendarTime size={26} />}
        title="No schedules yet"
        description="The calendar shows what applies on each day of a schedule's month. Add business hours first."
        action={
          canConfigure && (
            <Button component={Link} to={schedulePaths.add} leftSection={<IconPlus size={16} />}>
              Add a schedule
            </Button>
          )
        }
      />
    );
  else
    body = (
      <ScheduleCalendar
        schedules={items}
        scheduleId={scheduleId}
        month={month}
        onChange={(next) => setParams({ id: next.scheduleId, month: next.month })}
      />
    );

  return (
    <RequireMenuRoute route={schedulePaths.list}>
      <Stack gap={0} w="100%">
        <PageHeader
          title="Calendar"
          description="What applies on each day, in the schedule's time zone: weekly hours, holidays and exception dates."
          back={{ to: schedulePaths.list, label: 'Schedules' }}
        />
        {body}
      </Stack>
    </RequireMenuRoute>
  );
}
