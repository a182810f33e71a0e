import {
  type CreateScheduleBody,
  type Schedule,
  ScheduleCalendarSchema,
  ScheduleListSchema,
  ScheduleSchema,
  type UpdateScheduleBody,
} from '@omnibot/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const scheduleKeys = {
  all: ['schedules'] as const,
  lists: () => [...scheduleKeys.all, 'list'] as const,
  detail: (id: string) => [...scheduleKeys.all, 'detail', id] as const,
  calendar: (id: string, month: string) => [...scheduleKeys.detail(id), 'calendar', month] as const,
};

const base = '/v1/schedules';
const of = (id: string) => `${base}/${encodeURIComponent(id)}`;
/** The most rows one page of the API holds; an organisation keeps far fewer schedules. */
const ALL = { page: 1, page_size: 100 };

const schedulesApi = {
  list: (signal?: AbortSignal) => api.get(base, { query: ALL, schema: ScheduleListSchema, signal }),
  get: (id: string, signal?: AbortSignal) => api.get(of(id), { schema: ScheduleSchema, signal }),
  calendar: (id: string, month: string, signal?: AbortSignal) =>
    api.get(`${of(id)}/calendar`, { query: { month }, schema: ScheduleCalendarSchema, signal }),
  create: (body: CreateScheduleBody) => api.post(base, body, { schema: ScheduleSchema }),
  update: (id: string, body: UpdateScheduleBody) => api.patch(of(id), body, { schema: ScheduleSchema }),
  remove: (id: string) => api.delete<undefined>(of(id)),
};

/** The organisation's schedules, by name, each with whether it is open now. */
export const useSchedules = () =>
  useQuery({ queryKey: scheduleKeys.lists(), queryFn: ({ signal }) => schedulesApi.list(signal) });

export const useSchedule = (id: string) =>
  useQuery({ queryKey: scheduleKeys.detail(id), queryFn: ({ signal }) => schedulesApi.get(id, signal) });

/** What applies on each date of `month` (YYYY-MM); the previous month stays shown while the next loads. */
export const useScheduleCalendar = (id: string | null, month: string) =>
  useQuery({
    queryKey: scheduleKeys.calendar(id ?? '', month),
    queryFn: ({ signal }) => schedulesApi.calendar(id ?? '', month, signal),
    enabled: id !== null,
    placeholderData: keepPreviousData,
  });

function useSaved() {
  const queryClient = useQueryClient();
  return async (schedule: Schedule) => {
    queryClient.setQueryData(scheduleKeys.detail(schedule.id), schedule);
    // Its calendars changed with it.
    await queryClient.invalidateQueries({ queryKey: [...scheduleKeys.detail(schedule.id), 'calendar'] });
    await queryClient.invalidateQueries({ queryKey: scheduleKeys.lists() });
  };
}

export function useCreateSchedule() {
  const saved = useSaved();
  return useMutation({ mutationFn: schedulesApi.create, onSuccess: saved });
}

export function useUpdateSchedule(id: string) {
  const saved = useSaved();
  return useMutation({
    mutationFn: (body: UpdateScheduleBody) => schedulesApi.update(id, body),
    onSuccess: saved,
  });
}

export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: schedulesApi.remove,
    onSuccess: async (_nothing, id) => {
      queryClient.removeQueries({ queryKey: scheduleKeys.detail(id) });
      await queryClient.invalidateQueries({ queryKey: scheduleKeys.lists() });
    },
  });
}
