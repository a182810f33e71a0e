import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconCalendarMonth } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ReadOnlyNotice } from '../../../components/access/read-only-notice';
import { RequireMenuRoute } from '../../../components/access/require-menu-route';
import { FormSkeleton, LoadError } from '../../../components/forms/form-skeleton';
import { ConfirmButton } from '../../../components/ui/confirm-button';
import { notifySuccess } from '../../../components/ui/notify';
import { PageHeader } from '../../../components/ui/page-header';
import { useDeleteSchedule, useSchedule } from '../../../features/schedules/api/schedules-api';
import { ScheduleForm } from '../../../features/schedules/components/schedule-form';
import { ScheduleStateBadge } from '../../../features/schedules/components/schedule-state';
import { schedulePaths } from '../../../features/schedules/utils/schedule-paths';
import { ApiError } from '../../../lib/api-client';
import { useCanConfigure } from '../../../lib/permissions';

function NotFound({ children }: { children: ReactNode }) {
  return (
    <Alert color="red" icon={<IconAlertCircle />} role="alert" title="Schedule not found">
      {children}{' '}
      <Anchor component={Link} to={schedulePaths.list} inherit>
        Back to the schedules
      </Anchor>
    </Alert>
  );
}

function ScheduleView({ id }: { id: string }) {
  const schedule = useSchedule(id);
  const remove = useDeleteSchedule();
  const navigate = useNavigate();
  const canConfigure = useCanConfigure();

  if (schedule.isPending) return <FormSkeleton label="Loading the schedule" fields={6} />;
  if (schedule.isError && schedule.error instanceof ApiError && [400, 404].includes(schedule.error.status)) {
    return <NotFound>It may have been deleted.</NotFound>;
  }
  if (schedule.isError) {
    return (
      <LoadError
        title="The schedule could not be loaded"
        error={schedule.error}
        onRetry={() => void schedule.refetch()}
      />
    );
  }
  const data = schedule.data;
  const inUse = data.bots.length > 0;

  return (
    <Stack gap={0} w="100%">
      <PageHeader
        title={data.name}
        description={`Business hours in ${data.time_zone}`}
        back={{ to: schedulePaths.list, label: 'Schedules' }}
        actions={
          <Button
            component={Link}
            to={schedulePaths.calendar(data.id)}
            variant="default"
            leftSection={<IconCalendarMonth size={16} />}
          >
            Calendar
          </Button>
        }
      />
      <Stack gap="lg">
        <Paper withBorder p="md" radius="md">
          <Stack gap="xs">
            <ScheduleStateBadge state={data.state} />
            <Title order={2} size="h5">
              Bots that follow it
            </Title>
            {inUse ? (
              <Text size="sm">{data.bots.map((bot) => bot.name).join(', ')}</Text>
            ) : (
              <Text size="sm" c="dimmed">
                No bot yet. Choose this schedule under a bot&apos;s engines (Offer a live agent, Business
                hours).
              </Text>
            )}
          </Stack>
        </Paper>
        {canConfigure ? (
          <ScheduleForm
            key={data.updated_at}
            schedule={data}
            onSaved={() => undefined}
            actions={
              <Group gap="sm">
                <ConfirmButton
                  variant="default"
                  color="red"
                  disabled={inUse}
                  confirm={{
                    title: 'Delete schedule',
                    message: `"${data.name}" will be deleted. This cannot be undone.`,
                    confirmLabel: 'Delete',
                    danger: true,
                  }}
                  onConfirm={async () => {
                    await remove.mutateAsync(data.id);
                    notifySuccess(`Schedule "${data.name}" was deleted.`);
                    await navigate(schedulePaths.list);
                  }}
                >
                  Delete
                </ConfirmButton>
              </Group>
            }
          />
        ) : (
          <ReadOnlyNotice />
        )}
      </Stack>
    </Stack>
  );
}

/** /schedule/view?id=: one schedule, whether it is open now, the bots that follow it, and its hours to change. */
export function Component() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  return (
    <RequireMenuRoute route={schedulePaths.list}>
      {id ? <ScheduleView key={id} id={id} /> : <NotFound>No schedule was chosen.</NotFound>}
    </RequireMenuRoute>
  );
}
