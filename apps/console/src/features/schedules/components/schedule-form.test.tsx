import { scheduleMonth } from '@omnibot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { renderRoute } from '../../../test/render';
import { SCHEDULE, SCHEDULE_ID } from '../../../test/schedule-fixture';
import { ScheduleCalendar } from './schedule-calendar';
import { ScheduleForm } from './schedule-form';

function stub() {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (method === 'POST' && path === '/v1/schedules') {
        return json(201, { ...SCHEDULE, ...(body as object), id: 'new-id' });
      }
      if (method === 'PATCH' && path === `/v1/schedules/${SCHEDULE_ID}`) {
        return json(200, { ...SCHEDULE, ...(body as object) });
      }
      return undefined;
    },
  });
}

describe('ScheduleForm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('checks the name, the times and the dates before anything is sent', async () => {
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<ScheduleForm onSaved={vi.fn()} />);
    const opens = screen.getByRole('textbox', { name: 'Monday: opens at' });
    await user.clear(opens);
    await fill(user, opens, '25:00');
    await user.click(screen.getByRole('button', { name: 'Add a date' }));
    await user.click(screen.getByRole('button', { name: 'Add schedule' }));
    expect(await screen.findByText('The name is required.')).toBeInTheDocument();
    expect(screen.getByText('The start is a time written HH:MM, 00:00 to 23:59.')).toBeInTheDocument();
    expect(screen.getByText('The date is a real calendar date written YYYY-MM-DD.')).toBeInTheDocument();
    expect(
      screen.getByText('Give the date a label, for example the name of the holiday.'),
    ).toBeInTheDocument();
    expect(api.calls().some((call) => call.startsWith('POST /v1/schedules'))).toBe(false);
  });

  it('refuses overlapping ranges on one day', async () => {
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<ScheduleForm onSaved={vi.fn()} />);
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Overlap');
    await user.click(screen.getByRole('button', { name: 'Add range: Tuesday' }));
    await user.click(screen.getByRole('button', { name: 'Add schedule' }));
    expect(await screen.findByText('The ranges of a day overlap; join them into one.')).toBeInTheDocument();
    expect(api.calls().some((call) => call.startsWith('POST /v1/schedules'))).toBe(false);
  });

  it('adds a schedule with an overnight range and a holiday, and says so', async () => {
    const onSaved = vi.fn();
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<ScheduleForm onSaved={onSaved} />);
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Night desk');
    const fridayOpens = screen.getByRole('textbox', { name: 'Friday: opens at' });
    const fridayCloses = screen.getByRole('textbox', { name: 'Friday: closes at' });
    await user.clear(fridayOpens);
    await fill(user, fridayOpens, '22:00');
    await user.clear(fridayCloses);
    await fill(user, fridayCloses, '06:00');
    expect(await screen.findByText('Overnight')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add a date' }));
    await fill(user, screen.getByLabelText(/^date/i), '2026-12-25');
    await fill(user, screen.getByRole('textbox', { name: /^label/i }), 'Christmas Day');
    await user.click(screen.getByRole('button', { name: 'Add schedule' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(await screen.findByText('Night desk was added.')).toBeInTheDocument();
    const body = api.bodyOf('/v1/schedules') as { weekly: Record<string, unknown>; exceptions: unknown[] };
    expect(body).toMatchObject({ name: 'Night desk', always_open: false });
    expect(body.weekly.fri).toEqual([{ from: '22:00', to: '06:00' }]);
    expect(body.exceptions).toEqual([
      { date: '2026-12-25', label: 'Christmas Day', closed: true, ranges: [] },
    ]);
  });

  it('changes a stored schedule to 24x7 and sends only a patch of it', async () => {
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<ScheduleForm schedule={SCHEDULE} onSaved={vi.fn()} />);
    expect(screen.getByRole('textbox', { name: /^name/i })).toHaveValue('Support hours');
    await user.click(screen.getByRole('switch', { name: /open 24 hours/i }));
    expect(screen.queryByRole('textbox', { name: 'Monday: opens at' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Support hours was saved.')).toBeInTheDocument();
    expect(api.calls()).toContain(`PATCH /v1/schedules/${SCHEDULE_ID}`);
    expect(api.bodyOf(`/v1/schedules/${SCHEDULE_ID}`)).toMatchObject({ always_open: true });
  });
});

describe('ScheduleCalendar', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows what applies on each date, marks the exceptions and moves a month at a time', async () => {
    const months: string[] = [];
    stubAuthApi({
      signedIn: true,
      handle: (method, path) => {
        if (method === 'GET' && path === `/v1/schedules/${SCHEDULE_ID}/calendar`) {
          const month = months.at(-1) ?? '2026-12';
          return json(200, {
            schedule_id: SCHEDULE_ID,
            month,
            time_zone: SCHEDULE.time_zone,
            days: scheduleMonth(SCHEDULE, month),
          });
        }
        return undefined;
      },
    });
    const user = userEvent.setup();
    const onChange = vi.fn((next: { month: string }) => months.push(next.month));
    renderRoute(
      <ScheduleCalendar
        schedules={[SCHEDULE]}
        scheduleId={SCHEDULE_ID}
        month="2026-12"
        onChange={onChange}
      />,
    );
    expect(await screen.findByText('Christmas Day')).toBeInTheDocument();
    const christmas = document.querySelector('[data-date="2026-12-25"]');
    expect(christmas?.getAttribute('data-exception')).toBe('true');
    expect(within(christmas as HTMLElement).getByText('Closed')).toBeInTheDocument();
    const friday = document.querySelector('[data-date="2026-12-04"]') as HTMLElement;
    expect(within(friday).getByText('22:00–06:00 (overnight)')).toBeInTheDocument();
    expect(screen.getByText(/1 exception date this month/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next month' }));
    expect(onChange).toHaveBeenLastCalledWith({ scheduleId: SCHEDULE_ID, month: '2027-01' });
    await user.click(screen.getByRole('button', { name: 'Previous month' }));
    expect(onChange).toHaveBeenLastCalledWith({ scheduleId: SCHEDULE_ID, month: '2026-11' });
  });
});
