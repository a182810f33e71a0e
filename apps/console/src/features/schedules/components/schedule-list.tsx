import { ActionIcon, Anchor, Button, Text, Tooltip } from '@mantine/core';
import type { Schedule } from '@omnibot/contracts';
import { IconCalendarTime, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../../components/forms/form-skeleton';
import { confirmAction } from '../../../components/ui/confirm-action';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table';
import { EmptyPanel } from '../../../components/ui/empty-panel';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { useCanConfigure } from '../../../lib/permissions';
import { useDeleteSchedule, useSchedules } from '../api/schedules-api';
import { schedulePaths } from '../utils/schedule-paths';
import { ScheduleStateBadge } from './schedule-state';

/** What a schedule's weekly hours are, in a few words. */
function hoursSummary(schedule: Schedule): string {
  if (schedule.always_open) return '24x7';
  const days = Object.values(schedule.weekly).filter((ranges) => ranges.length > 0).length;
  return days === 0 ? 'No weekly hours' : `${String(days)} day${days === 1 ? '' : 's'} a week`;
}

/** The organisation's schedules with whether each is open now; one can be deleted when no bot follows it. */
export function ScheduleList() {
  const schedules = useSchedules();
  const remove = useDeleteSchedule();
  const canConfigure = useCanConfigure();

  const columns = useMemo<DataTableColumn<Schedule>[]>(() => {
    const onDelete = async (schedule: Schedule) => {
      const confirmed = await confirmAction({
        title: 'Delete schedule',
        message: `"${schedule.name}" will be deleted. This cannot be undone.`,
        confirmLabel: 'Delete',
        danger: true,
      });
      if (!confirmed) return;
      try {
        await remove.mutateAsync(schedule.id);
        notifySuccess(`Schedule "${schedule.name}" was deleted.`);
      } catch (error) {
        notifyError(error, 'The schedule was not deleted');
      }
    };
    const shown: DataTableColumn<Schedule>[] = [
      {
        id: 'name',
        header: 'Name',
        sortValue: (schedule) => schedule.name.toLowerCase(),
        searchValue: (schedule) => `${schedule.name} ${schedule.time_zone}`,
        render: (schedule) => (
          <Anchor component={Link} to={schedulePaths.view(schedule.id)} fw={500}>
            {schedule.name}
          </Anchor>
        ),
      },
      { id: 'zone', header: 'Time zone', render: (schedule) => schedule.time_zone },
      { id: 'hours', header: 'Hours', render: hoursSummary },
      {
        id: 'exceptions',
        header: 'Exception dates',
        sortValue: (schedule) => schedule.exceptions.length,
        render: (schedule) => String(schedule.exceptions.length),
      },
      { id: 'now', header: 'Now', render: (schedule) => <ScheduleStateBadge state={schedule.state} /> },
      {
        id: 'bots',
        header: 'Bots',
        render: (schedule) =>
          schedule.bots.length === 0 ? (
            <Text inherit c="dimmed">
              None
            </Text>
          ) : (
            schedule.bots.map((bot) => bot.name).join(', ')
          ),
      },
      {
        id: 'calendar',
        header: 'Calendar',
        render: (schedule) => (
          <Anchor
            component={Link}
            to={schedulePaths.calendar(schedule.id)}
            aria-label={`Calendar of ${schedule.name}`}
          >
            Calendar
          </Anchor>
        ),
      },
    ];
    if (!canConfigure) return shown;
    return [
      ...shown,
      {
        id: 'actions',
        header: 'Actions',
        render: (schedule) => (
          <Tooltip
            label={
              schedule.bots.length > 0 ? 'Bots follow it: pick another schedule for them first' : 'Delete'
            }
          >
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete ${schedule.name}`}
              disabled={schedule.bots.length > 0}
              onClick={() => void onDelete(schedule)}
            >
              <IconTrash size={16} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
        ),
      },
    ];
  }, [remove, canConfigure]);

  if (schedules.isError && !schedules.data) {
    return (
      <LoadError
        title="The schedules could not be loaded"
        error={schedules.error}
        onRetry={() => void schedules.refetch()}
      />
    );
  }

  return (
    <DataTable<Schedule>
      label="Schedules"
      columns={columns}
      data={schedules.data?.items}
      rowKey={(schedule) => schedule.id}
      isLoading={schedules.isPending}
      searchPlaceholder="Search by name or time zone"
      initialSort={{ column: 'name', direction: 'asc' }}
      emptyState={
        <EmptyPanel
          icon={<IconCalendarTime size={26} />}
          title="No schedules yet"
          description="A schedule holds your team's business hours: a time zone, weekly hours and holidays. Add one, then choose it for a bot so visitors are offered a person only while someone is there."
          action={
            canConfigure && (
              <Button component={Link} to={schedulePaths.add} leftSection={<IconPlus size={16} />}>
                Add a schedule
              </Button>
            )
          }
        />
      }
    />
  );
}
