import {
  CreateScheduleBodySchema,
  ErrorBodySchema,
  NoQuerySchema,
  ScheduleCalendarQuerySchema,
  ScheduleCalendarSchema,
  ScheduleIdParamsSchema,
  ScheduleListQuerySchema,
  ScheduleListSchema,
  scheduleMonth,
  ScheduleSchema,
  UpdateScheduleBodySchema,
} from '@omnibot/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/audit';
import { type Identity, requirePrincipal } from '../auth/principal';
import { presentSchedule } from './schedules.presenter';
import {
  type BotsUsingSchedules,
  createSchedule,
  deleteSchedule,
  getSchedule,
  hoursOf,
  listSchedules,
  updateSchedule,
} from './schedules.service';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
};
const tags = ['schedules'];

/**
 * Business hours under /v1/schedules: a session or API credential of the tenant; agents read only (the principal
 * guard refuses their writes). `botsUsing` names the bots that follow a schedule.
 */
export async function scheduleRoutes(
  app: FastifyInstance,
  deps: { identity: Identity; botsUsing: BotsUsingSchedules },
) {
  const { db } = deps.identity;
  const { botsUsing } = deps;
  const signedIn = [requirePrincipal(deps.identity, { credentials: true })];

  const usersOf = async (tenantId: string, id: string) => (await botsUsing(tenantId, [id])).get(id) ?? [];

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/v1/schedules',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: "The organisation's schedules by name, each with whether it is open now",
          querystring: ScheduleListQuerySchema,
          response: { 200: ScheduleListSchema, ...errors },
        },
      },
      async (request) => {
        const { principal } = actorOf(request);
        const { rows, total } = await listSchedules(db, principal, request.query);
        const users = await botsUsing(
          principal.tenantId,
          rows.map((row) => row.id),
        );
        const now = new Date();
        return {
          items: rows.map((row) => presentSchedule(row, users.get(row.id) ?? [], now)),
          total,
          page: request.query.page,
          page_size: request.query.page_size,
        };
      },
    );

    r.post(
      '/v1/schedules',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary:
            'Create a schedule: a time zone, weekly hours (overnight and 24x7 allowed) and exception dates',
          querystring: NoQuerySchema,
          body: CreateScheduleBodySchema,
          response: { 201: ScheduleSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(presentSchedule(await createSchedule(db, actorOf(request), request.body), [])),
    );

    r.get(
      '/v1/schedules/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'One schedule, whether it is open now and the bots that follow it',
          params: ScheduleIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: ScheduleSchema, ...errors },
        },
      },
      async (request) => {
        const { principal } = actorOf(request);
        const row = await getSchedule(db, principal, request.params.id);
        return presentSchedule(row, await usersOf(principal.tenantId, row.id));
      },
    );

    r.patch(
      '/v1/schedules/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'Change a schedule; weekly hours and exception dates are replaced as a whole when given',
          params: ScheduleIdParamsSchema,
          querystring: NoQuerySchema,
          body: UpdateScheduleBodySchema,
          response: { 200: ScheduleSchema, ...errors },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        const row = await updateSchedule(db, actor, request.params.id, request.body);
        return presentSchedule(row, await usersOf(actor.principal.tenantId, row.id));
      },
    );

    r.delete(
      '/v1/schedules/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary:
            'Delete a schedule; refused with 409 schedule/in-use, naming the bots, while bots follow it',
          params: ScheduleIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await deleteSchedule(db, actorOf(request), request.params.id, botsUsing);
        return reply.status(204).send(null);
      },
    );

    r.get(
      '/v1/schedules/:id/calendar',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary:
            'What applies on each date of a month (YYYY-MM) in the schedule’s time zone, exceptions marked',
          params: ScheduleIdParamsSchema,
          querystring: ScheduleCalendarQuerySchema,
          response: { 200: ScheduleCalendarSchema, ...errors },
        },
      },
      async (request) => {
        const row = await getSchedule(db, actorOf(request).principal, request.params.id);
        return {
          schedule_id: row.id,
          month: request.query.month,
          time_zone: row.timeZone,
          days: scheduleMonth(hoursOf(row), request.query.month),
        };
      },
    );
  });
}
