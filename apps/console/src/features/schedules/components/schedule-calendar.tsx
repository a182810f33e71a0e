import {
  ActionIcon,
  Box,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type CalendarDay, type Schedule, WEEKDAY_LABELS, WEEKDAYS } from '@omnibot/contracts';
import { IconChevronLeft, IconChevronRight, IconClockHour4, IconFlag } from '@tabler/icons-react';
import { LoadError } from '../../../components/forms/form-skeleton';
import { useScheduleCalendar } from '../api/schedules-api';
import { monthTitle, rangeText, shiftMonth } from '../utils/schedule-form';

interface ScheduleCalendarProps {
  schedules: Schedule[];
  scheduleId: string;
  month: string;
  onChange: (next: { scheduleId: string; month: string }) => void;
}

/** What one date shows: its hours or "Closed", an exception's label, and a clock change. */
function DayContent({ day }: { day: CalendarDay }) {
  return (
    <Stack gap={2}>
      {day.label !== null && (
        <Group gap={4} wrap="nowrap" align="flex-start">
          <IconFlag
            size={12}
            color="var(--mantine-color-orange-6)"
            aria-hidden="true"
            style={{ flexShrink: 0, marginTop: 2 }}
          />
          <Text size="xs" fw={700} style={{ overflowWrap: 'anywhere' }}>
            {day.label}
          </Text>
        </Group>
      )}
      {day.ranges.length === 0 ? (
        <Text size="xs" c="dimmed">
          Closed
        </Text>
      ) : day.all_day ? (
        <Text size="xs">Open all day</Text>
      ) : (
        day.ranges.map((range) => (
          <Text key={`${range.from}-${range.to}`} size="xs">
            {rangeText(range)}
          </Text>
        ))
      )}
      {day.clock_change && (
        <Group gap={4} wrap="nowrap">
          <IconClockHour4 size={12} aria-hidden="true" />
          <Text size="xs" c="dimmed">
            Clocks change
          </Text>
        </Group>
      )}
    </Stack>
  );
}

const dayNumber = (day: CalendarDay) => Number(day.date.slice(8, 10));
const exceptionStyle = (day: CalendarDay) =>
  day.source === 'exception' ? { borderColor: 'var(--mantine-color-orange-6)', borderWidth: 2 } : undefined;

/** The month as a week grid (Monday first) on wide screens. */
function MonthGrid({ days }: { days: CalendarDay[] }) {
  const first = days[0];
  const lead = first ? WEEKDAYS.indexOf(first.weekday) : 0;
  return (
    <Stack gap={4}>
      <SimpleGrid cols={7} spacing={4} aria-hidden="true">
        {WEEKDAYS.map((weekday) => (
          <Text key={weekday} size="xs" fw={600} ta="center">
            {WEEKDAY_LABELS[weekday].slice(0, 3)}
          </Text>
        ))}
      </SimpleGrid>
      <SimpleGrid
        cols={7}
        spacing={4}
        verticalSpacing={4}
        component="ul"
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
        aria-label="Dates of the month"
      >
        {Array.from({ length: lead }, (_, index) => (
          <Box component="li" key={`lead-${String(index)}`} aria-hidden="true" />
        ))}
        {days.map((day) => (
          <Paper
            key={day.date}
            component="li"
            withBorder
            p={6}
            radius="sm"
            mih={84}
            data-date={day.date}
            data-exception={day.source === 'exception' || undefined}
            style={exceptionStyle(day)}
          >
            <Text size="sm" fw={600}>
              <VisuallyHidden>{WEEKDAY_LABELS[day.weekday]} </VisuallyHidden>
              {dayNumber(day)}
            </Text>
            <DayContent day={day} />
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** The month as a list of dates on narrow screens. */
function MonthList({ days }: { days: CalendarDay[] }) {
  return (
    <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Dates of the month">
      {days.map((day) => (
        <Paper
          key={day.date}
          component="li"
          withBorder
          p="xs"
          radius="sm"
          data-date={day.date}
          data-exception={day.source === 'exception' || undefined}
          style={exceptionStyle(day)}
        >
          <Group gap="sm" align="flex-start" wrap="nowrap">
            <Text size="sm" fw={600} w={64}>
              {WEEKDAY_LABELS[day.weekday].slice(0, 3)} {dayNumber(day)}
            </Text>
            <DayContent day={day} />
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

/** A month of one schedule: what applies on each date, exception dates highlighted, previous and next month. */
export function ScheduleCalendar({ schedules, scheduleId, month, onChange }: ScheduleCalendarProps) {
  const calendar = useScheduleCalendar(scheduleId, month);
  const wide = useMediaQuery('(min-width: 48em)') ?? false;
  const schedule = schedules.find((item) => item.id === scheduleId);
  const days = calendar.data?.days ?? [];
  const exceptions = days.filter((day) => day.source === 'exception');
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Select
          label="Schedule"
          data={schedules.map((item) => ({ value: item.id, label: item.name }))}
          value={scheduleId}
          onChange={(value) => {
            if (value !== null) onChange({ scheduleId: value, month });
          }}
          allowDeselect={false}
          searchable
          w={{ base: '100%', sm: 280 }}
        />
        <Group gap="xs" wrap="nowrap">
          <Tooltip label="Previous month">
            <ActionIcon
              variant="default"
              size="lg"
              aria-label="Previous month"
              onClick={() => onChange({ scheduleId, month: shiftMonth(month, -1) })}
            >
              <IconChevronLeft size={18} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
          <Title order={2} size="h4" miw={150} ta="center" aria-live="polite">
            {monthTitle(month)}
          </Title>
          <Tooltip label="Next month">
            <ActionIcon
              variant="default"
              size="lg"
              aria-label="Next month"
              onClick={() => onChange({ scheduleId, month: shiftMonth(month, 1) })}
            >
              <IconChevronRight size={18} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      {schedule && (
        <Text size="sm" c="dimmed">
          Times are in {schedule.time_zone}.{' '}
          {exceptions.length === 0
            ? 'No exception dates this month.'
            : `${String(exceptions.length)} exception date${exceptions.length === 1 ? '' : 's'} this month, marked in orange.`}
        </Text>
      )}
      {calendar.isError && !calendar.data ? (
        <LoadError
          title="The calendar could not be loaded"
          error={calendar.error}
          onRetry={() => void calendar.refetch()}
        />
      ) : calendar.isPending ? (
        <Text size="sm" c="dimmed">
          Loading the month…
        </Text>
      ) : wide ? (
        <MonthGrid days={days} />
      ) : (
        <MonthList days={days} />
      )}
    </Stack>
  );
}
