import {
  type CreateScheduleBodySchema,
  type ScheduleListQuery,
  type ScheduleState,
  scheduleStateAt,
  type UpdateScheduleBodySchema,
  WEEKDAYS,
} from '@omnibot/contracts';
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { type ScheduleRow, schedules } from '../../db/schema';
import { type Actor, writeAudit } from '../../lib/audit';
import { AppError, conflict, notFound } from '../../lib/errors';
import { actorId, type Principal } from '../../lib/principal';
import { refuseUniqueViolation } from '../../lib/unique-violation';

type CreateScheduleInput = z.output<typeof CreateScheduleBodySchema>;
type UpdateScheduleInput = z.output<typeof UpdateScheduleBodySchema>;

export const SCHEDULE_NOT_FOUND = 'Schedule not found';

/** A bot whose hand-over follows a schedule. */
export interface ScheduleUser {
  id: string;
  name: string;
}

/**
 * The bots of a tenant that follow each of the given schedules. The bots module answers it (it comes later in the
 * module order); app.ts hands it in.
 */
export type BotsUsingSchedules = (
  tenantId: string,
  scheduleIds: string[],
) => Promise<Map<string, ScheduleUser[]>>;

const nameTaken = () =>
  conflict('Another schedule of your organisation already has this name.', 'schedule/name-taken');
const guardName = <T>(work: () => Promise<T>) => refuseUniqueViolation(work, nameTaken);

/** The rows' hours in the shape the contracts evaluate. */
export const hoursOf = (row: ScheduleRow) => ({
  time_zone: row.timeZone,
  always_open: row.alwaysOpen,
  weekly: row.weekly,
  exceptions: row.exceptions,
});

export async function listSchedules(db: Db, principal: Principal, query: ScheduleListQuery) {
  const where = eq(schedules.tenantId, principal.tenantId);
  const [total] = await db.select({ n: count() }).from(schedules).where(where);
  const rows = await db
    .select()
    .from(schedules)
    .where(where)
    .orderBy(asc(schedules.name), asc(schedules.id))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  return { rows, total: total?.n ?? 0 };
}

async function ownedRow(db: Db, tenantId: string, id: string): Promise<ScheduleRow> {
  const [row] = await db
    .select()
    .from(schedules)
    .where(and(eq(schedules.tenantId, tenantId), eq(schedules.id, id)))
    .limit(1);
  if (!row) throw notFound(SCHEDULE_NOT_FOUND);
  return row;
}

export const getSchedule = (db: Db, principal: Principal, id: string) => ownedRow(db, principal.tenantId, id);

/** Whether `id` names a schedule of the tenant (a bot may follow only its own organisation's schedules). */
export async function scheduleExists(db: Db, tenantId: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: schedules.id })
    .from(schedules)
    .where(and(eq(schedules.tenantId, tenantId), eq(schedules.id, id)))
    .limit(1);
  return row !== undefined;
}

/**
 * Whether the tenant's schedule `id` is open at `at`, and when that changes; null when there is no such schedule
 * (deleted meanwhile), which a caller treats as closed.
 */
export async function scheduleStateOf(
  db: Db,
  tenantId: string,
  id: string,
  at: Date = new Date(),
): Promise<ScheduleState | null> {
  const [row] = await db
    .select()
    .from(schedules)
    .where(and(eq(schedules.tenantId, tenantId), eq(schedules.id, id)))
    .limit(1);
  return row ? scheduleStateAt(hoursOf(row), at) : null;
}

/** The weekly hours with every day listed, each in order of its start. */
function normalisedWeekly(weekly: CreateScheduleInput['weekly']): CreateScheduleInput['weekly'] {
  const sorted = Object.fromEntries(
    WEEKDAYS.map((day) => [day, [...weekly[day]].sort((a, b) => a.from.localeCompare(b.from))]),
  );
  return sorted as CreateScheduleInput['weekly'];
}

const sortedExceptions = (exceptions: CreateScheduleInput['exceptions']) =>
  [...exceptions]
    .map((exception) => ({
      ...exception,
      ranges: [...exception.ranges].sort((a, b) => a.from.localeCompare(b.from)),
    }))
    .sort((a, b) => a.date.localeCompare(b.date));

export async function createSchedule(db: Db, actor: Actor, input: CreateScheduleInput): Promise<ScheduleRow> {
  const { principal } = actor;
  const who = actorId(principal);
  return guardName(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(schedules)
        .values({
          tenantId: principal.tenantId,
          name: input.name,
          description: input.description ?? '',
          timeZone: input.time_zone,
          alwaysOpen: input.always_open,
          weekly: normalisedWeekly(input.weekly),
          exceptions: sortedExceptions(input.exceptions),
          createdBy: who,
          updatedBy: who,
        })
        .returning();
      if (!row) throw new AppError(500, 'internal', 'The schedule was not stored.');
      await writeAudit(tx, actor, {
        tenantId: principal.tenantId,
        action: 'schedule.create',
        target: row.id,
        details: { name: row.name },
      });
      return row;
    }),
  );
}

export async function updateSchedule(
  db: Db,
  actor: Actor,
  id: string,
  input: UpdateScheduleInput,
): Promise<ScheduleRow> {
  const { principal } = actor;
  const changes: Partial<typeof schedules.$inferInsert> = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description;
  if (input.time_zone !== undefined) changes.timeZone = input.time_zone;
  if (input.always_open !== undefined) changes.alwaysOpen = input.always_open;
  if (input.weekly !== undefined) changes.weekly = normalisedWeekly(input.weekly);
  if (input.exceptions !== undefined) changes.exceptions = sortedExceptions(input.exceptions);
  return guardName(() =>
    db.transaction(async (tx) => {
      const [row] = await tx
        .update(schedules)
        .set({ ...changes, updatedBy: actorId(principal), updatedAt: new Date() })
        .where(and(eq(schedules.tenantId, principal.tenantId), eq(schedules.id, id)))
        .returning();
      if (!row) throw notFound(SCHEDULE_NOT_FOUND);
      await writeAudit(tx, actor, {
        tenantId: principal.tenantId,
        action: 'schedule.update',
        target: id,
        details: { fields: Object.keys(input) },
      });
      return row;
    }),
  );
}

/** A schedule that bots follow is refused with 409 schedule/in-use, naming them. */
export async function deleteSchedule(
  db: Db,
  actor: Actor,
  id: string,
  botsUsing: BotsUsingSchedules,
): Promise<void> {
  const { principal } = actor;
  await ownedRow(db, principal.tenantId, id);
  const users = (await botsUsing(principal.tenantId, [id])).get(id) ?? [];
  if (users.length > 0) {
    const names = users.map((bot) => bot.name).join(', ');
    throw conflict(
      `Bots follow this schedule for hand-over: ${names}. Pick another schedule for them first.`,
      'schedule/in-use',
    );
  }
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(schedules)
      .where(and(eq(schedules.tenantId, principal.tenantId), eq(schedules.id, id)))
      .returning({ id: schedules.id, name: schedules.name });
    if (!row) throw notFound(SCHEDULE_NOT_FOUND);
    await writeAudit(tx, actor, {
      tenantId: principal.tenantId,
      action: 'schedule.delete',
      target: id,
      details: { name: row.name },
    });
  });
}

/** The tenant's schedules among `ids` (for a caller that names several). */
export async function schedulesAmong(db: Db, tenantId: string, ids: string[]): Promise<ScheduleRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(schedules)
    .where(and(eq(schedules.tenantId, tenantId), inArray(schedules.id, ids)));
}
