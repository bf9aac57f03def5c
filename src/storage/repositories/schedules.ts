// schedules: weekly availability and dated overrides of a user or a team.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { SchedulesTable } from '../schema.ts';
import type { Executor } from './executor.ts';

/** A schedule with whether it is its user's default (users.default_schedule_id). */
export type ScheduleRow = Selectable<SchedulesTable> & { is_default: boolean };
export type ScheduleScope = { userId: string } | { teamId: string } | { organizationId: string };

function scoped(db: Executor, scope: ScheduleScope) {
  const q = db.selectFrom('schedules as s').leftJoin('users as u', 'u.id', 's.user_id').selectAll('s').select('u.default_schedule_id');
  if ('userId' in scope) return q.where('s.user_id', '=', scope.userId);
  if ('teamId' in scope) return q.where('s.team_id', '=', scope.teamId);
  const orgId = scope.organizationId;
  return q.where((eb) =>
    eb.or([
      eb('s.team_id', 'in', eb.selectFrom('teams').select('id').where('organization_id', '=', orgId)),
      eb('s.user_id', 'in', eb.selectFrom('memberships').select('user_id').where('organization_id', '=', orgId)),
    ]),
  );
}

function withDefault<T extends Selectable<SchedulesTable> & { default_schedule_id: string | null }>(row: T): ScheduleRow {
  const { default_schedule_id, ...rest } = row;
  return { ...rest, is_default: default_schedule_id === row.id };
}

export async function insertSchedule(db: Executor, row: Insertable<SchedulesTable>): Promise<void> {
  await db.insertInto('schedules').values(row).execute();
}

export async function findSchedule(db: Executor, scope: ScheduleScope, id: string): Promise<ScheduleRow | undefined> {
  const row = await scoped(db, scope).where('s.id', '=', id).executeTakeFirst();
  return row && withDefault(row);
}

export async function listSchedules(db: Executor, scope: ScheduleScope, limit: number, offset: number): Promise<ScheduleRow[]> {
  const rows = await scoped(db, scope).orderBy('s.created_at').orderBy('s.id').limit(limit).offset(offset).execute();
  return rows.map(withDefault);
}

export async function updateSchedule(db: Executor, id: string, changes: Updateable<SchedulesTable>): Promise<void> {
  await db.updateTable('schedules').set(changes).where('id', '=', id).execute();
}

export async function deleteSchedule(db: Executor, id: string): Promise<void> {
  await db.updateTable('users').set({ default_schedule_id: null }).where('default_schedule_id', '=', id).execute();
  await db.deleteFrom('schedules').where('id', '=', id).execute();
}

export async function setDefaultSchedule(db: Executor, userId: string, scheduleId: string, onlyIfUnset: boolean): Promise<void> {
  let q = db.updateTable('users').set({ default_schedule_id: scheduleId }).where('id', '=', userId);
  if (onlyIfUnset) q = q.where('default_schedule_id', 'is', null);
  await q.execute();
}

export async function clearDefaultSchedule(db: Executor, userId: string): Promise<void> {
  await db.updateTable('users').set({ default_schedule_id: null }).where('id', '=', userId).execute();
}
