import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  isOvernight,
  type Schedule,
  SCHEDULE_DESCRIPTION_MAX,
  SCHEDULE_EXCEPTIONS_MAX,
  SCHEDULE_LABEL_MAX,
  SCHEDULE_NAME_MAX,
  SCHEDULE_RANGES_MAX,
  WEEKDAY_LABELS,
  WEEKDAYS,
} from '@omnibot/contracts';
import { IconCalendarPlus, IconPlus, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useMemo } from 'react';
import { FormActions } from '../../../components/forms/form-actions';
import { notifyError, notifySuccess } from '../../../components/ui/notify';
import { useCreateSchedule, useUpdateSchedule } from '../api/schedules-api';
import {
  emptyScheduleForm,
  type RangeValues,
  scheduleBodyOf,
  scheduleFormOf,
  type ScheduleFormValues,
  timeZoneOptions,
  updateBodyOf,
  validateScheduleForm,
} from '../utils/schedule-form';

function useScheduleForm(schedule: Schedule | undefined) {
  return useForm<ScheduleFormValues>({
    mode: 'controlled',
    initialValues: schedule ? scheduleFormOf(schedule) : emptyScheduleForm(),
    validate: validateScheduleForm,
  });
}
type ScheduleForm = ReturnType<typeof useScheduleForm>;

interface ScheduleFormProps {
  /** The schedule to change; a new one when left out. */
  schedule?: Schedule;
  onSaved: (schedule: Schedule) => void;
  /** Buttons before the submit button (delete...). */
  actions?: ReactNode;
}

/**
 * The opening ranges of one day (a weekday or an exception date), "HH:MM" to "HH:MM": an end not after the start
 * runs into the next day and is marked overnight.
 */
function RangesField({ form, path, label }: { form: ScheduleForm; path: string; label: string }) {
  const ranges = path
    .split('.')
    .reduce<unknown>(
      (value, key) => (value as Record<string, unknown>)[key],
      form.getValues(),
    ) as RangeValues[];
  const dayError = form.errors[path];
  return (
    <Stack gap={6}>
      {ranges.length === 0 && (
        <Text size="sm" c="dimmed">
          Closed
        </Text>
      )}
      {ranges.map((range, index) => (
        <Group key={form.key(`${path}.${String(index)}`)} gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            aria-label={`${label}: opens at`}
            placeholder="09:00"
            w={84}
            maxLength={5}
            {...form.getInputProps(`${path}.${String(index)}.from`)}
          />
          <Text size="sm" mt={6} aria-hidden="true">
            to
          </Text>
          <TextInput
            aria-label={`${label}: closes at`}
            placeholder="17:00"
            w={84}
            maxLength={5}
            {...form.getInputProps(`${path}.${String(index)}.to`)}
          />
          {/^\d\d:\d\d$/.test(range.from) && /^\d\d:\d\d$/.test(range.to) && isOvernight(range) && (
            <Badge variant="light" color="indigo" mt={6}>
              Overnight
            </Badge>
          )}
          <ActionIcon
            variant="subtle"
            color="red"
            mt={4}
            aria-label={`${label}: remove ${range.from || 'this'} range`}
            onClick={() => form.removeListItem(path, index)}
          >
            <IconTrash size={16} aria-hidden="true" />
          </ActionIcon>
        </Group>
      ))}
      {typeof dayError === 'string' && (
        <Text size="sm" c="red" role="alert">
          {dayError}
        </Text>
      )}
      {ranges.length < SCHEDULE_RANGES_MAX && (
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconPlus size={14} aria-hidden="true" />}
          onClick={() => form.insertListItem(path, { from: '09:00', to: '17:00' })}
          style={{ alignSelf: 'flex-start' }}
          aria-label={`Add range: ${label}`}
        >
          Add range
        </Button>
      )}
    </Stack>
  );
}

/** Holidays and exception dates: each closed, or open in its own ranges. */
function ExceptionsField({ form }: { form: ScheduleForm }) {
  const exceptions = form.getValues().exceptions;
  const listError = form.errors.exceptions;
  return (
    <Stack gap="sm">
      <Title order={3} size="h5">
        Holidays and exception dates
      </Title>
      <Text size="sm" c="dimmed">
        A date listed here replaces its weekday&apos;s hours: closed, or open only in its own ranges.
      </Text>
      {exceptions.length === 0 && (
        <Text size="sm" c="dimmed">
          No exception dates yet.
        </Text>
      )}
      {exceptions.map((exception, index) => {
        const at = `exceptions.${String(index)}`;
        const name = exception.label || exception.date || `Date ${String(index + 1)}`;
        return (
          <Paper key={form.key(at)} withBorder p="sm" radius="sm">
            <Stack gap="xs">
              <Group gap="sm" align="flex-start" wrap="wrap">
                <TextInput
                  label="Date"
                  type="date"
                  withAsterisk
                  w={170}
                  {...form.getInputProps(`${at}.date`)}
                />
                <TextInput
                  label="Label"
                  placeholder="Christmas Day"
                  withAsterisk
                  maxLength={SCHEDULE_LABEL_MAX}
                  style={{ flex: '1 1 160px' }}
                  {...form.getInputProps(`${at}.label`)}
                />
                <ActionIcon
                  variant="subtle"
                  color="red"
                  mt={28}
                  aria-label={`Remove ${name}`}
                  onClick={() => form.removeListItem('exceptions', index)}
                >
                  <IconTrash size={16} aria-hidden="true" />
                </ActionIcon>
              </Group>
              <Switch label="Closed all day" {...form.getInputProps(`${at}.closed`, { type: 'checkbox' })} />
              {!exception.closed && <RangesField form={form} path={`${at}.ranges`} label={name} />}
            </Stack>
          </Paper>
        );
      })}
      {typeof listError === 'string' && (
        <Text size="sm" c="red" role="alert">
          {listError}
        </Text>
      )}
      {exceptions.length < SCHEDULE_EXCEPTIONS_MAX && (
        <Button
          variant="default"
          leftSection={<IconCalendarPlus size={16} aria-hidden="true" />}
          onClick={() => form.insertListItem('exceptions', { date: '', label: '', closed: true, ranges: [] })}
          style={{ alignSelf: 'flex-start' }}
        >
          Add a date
        </Button>
      )}
    </Stack>
  );
}

/** Add or change a schedule: its time zone, weekly hours (overnight and 24x7 allowed) and exception dates. */
export function ScheduleForm({ schedule, onSaved, actions }: ScheduleFormProps) {
  const isNew = schedule === undefined;
  const create = useCreateSchedule();
  const update = useUpdateSchedule(schedule?.id ?? '');
  const form = useScheduleForm(schedule);
  const values = form.getValues();
  const zones = useMemo(() => timeZoneOptions(values.time_zone), [values.time_zone]);

  const onSubmit = async (submitted: ScheduleFormValues) => {
    let saved: Schedule;
    try {
      saved = isNew
        ? await create.mutateAsync(scheduleBodyOf(submitted))
        : await update.mutateAsync(updateBodyOf(submitted));
    } catch (error) {
      notifyError(error, isNew ? 'The schedule was not added' : 'The schedule was not saved');
      return;
    }
    notifySuccess(
      `${saved.name} was ${isNew ? 'added' : 'saved'}.`,
      isNew ? 'Schedule added' : 'Schedule saved',
    );
    onSaved(saved);
  };

  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
      <form noValidate onSubmit={form.onSubmit((submitted) => void onSubmit(submitted))}>
        <Stack gap="md">
          <TextInput
            label="Name"
            withAsterisk
            maxLength={SCHEDULE_NAME_MAX}
            {...form.getInputProps('name')}
          />
          <Textarea
            label="Description"
            rows={2}
            maxLength={SCHEDULE_DESCRIPTION_MAX}
            {...form.getInputProps('description')}
          />
          <Select
            label="Time zone"
            description="The hours are read on this zone's clock, daylight saving time included."
            data={zones}
            searchable
            allowDeselect={false}
            withAsterisk
            nothingFoundMessage="No time zone has that name"
            {...form.getInputProps('time_zone')}
          />
          <Switch
            label="Open 24 hours, 7 days a week"
            description="Exception dates still apply."
            {...form.getInputProps('always_open', { type: 'checkbox' })}
          />
          {!values.always_open && (
            <Stack gap="sm">
              <Title order={3} size="h5">
                Weekly hours
              </Title>
              <Text size="sm" c="dimmed">
                A range that ends before it starts, such as 22:00 to 06:00, runs into the next morning. Write
                00:00 to 24:00 for the whole day.
              </Text>
              {WEEKDAYS.map((day) => (
                <Group key={day} align="flex-start" gap="md" wrap="wrap">
                  <Text fw={500} size="sm" w={96} mt={6}>
                    {WEEKDAY_LABELS[day]}
                  </Text>
                  <RangesField form={form} path={`weekly.${day}`} label={WEEKDAY_LABELS[day]} />
                </Group>
              ))}
            </Stack>
          )}
          <ExceptionsField form={form} />
          <FormActions
            submitLabel={isNew ? 'Add schedule' : 'Save'}
            isSaving={create.isPending || update.isPending}
            actions={actions}
          />
        </Stack>
      </form>
    </Paper>
  );
}
