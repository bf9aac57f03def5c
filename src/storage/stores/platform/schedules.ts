// ScheduleStore (src/platform/schedules/store.ts) on Kysely.
import type { Selectable, Updateable } from 'kysely';
import type { AvailabilityOverride, AvailabilityRange, Schedule, ScheduleChanges, ScheduleScope, ScheduleStore } from '../../../platform/schedules/store.ts';
import type { Executor } from '../../repositories/executor.ts';
import type { SchedulesTable } from '../../schema.ts';

/** A schedule row with its user's default (users.default_schedule_id) and its team's first owner. */
type ScheduleRow = Selectable<SchedulesTable> & { default_schedule_id: string | null; team_owner_id: string | null };

const toSchedule = (r: ScheduleRow): Schedule => ({
  id: r.id,
  ownerId: r.user_id,
  teamId: r.team_id,
  teamOwnerId: r.team_owner_id,
  name: r.name,
  timeZone: r.time_zone,
  availability: JSON.parse(r.availability) as AvailabilityRange[],
  overrides: JSON.parse(r.overrides) as AvailabilityOverride[],
  isDefault: r.default_schedule_id === r.id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const changeColumns = (c: ScheduleChanges): Updateable<SchedulesTable> => ({
  ...(c.name !== undefined ? { name: c.name } : {}),
  ...(c.timeZone !== undefined ? { time_zone: c.timeZone } : {}),
  ...(c.availability !== undefined ? { availability: JSON.stringify(c.availability) } : {}),
  ...(c.overrides !== undefined ? { overrides: JSON.stringify(c.overrides) } : {}),
  updated_at: c.updatedAt,
});

function scoped(db: Executor, scope: ScheduleScope) {
  const q = db
    .selectFrom('schedules as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .selectAll('s')
    .select('u.default_schedule_id')
    // A team's first owner, in the same read: null for a personal schedule (no team_id).
    .select((eb) =>
      eb
        .selectFrom('memberships as m')
        .select('m.user_id')
        .whereRef('m.team_id', '=', 's.team_id')
        .where('m.role', '=', 'owner')
        .orderBy('m.created_at')
        .orderBy('m.id')
        .limit(1)
        .as('team_owner_id'),
    );
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

export function createScheduleStore(db: Executor): ScheduleStore {
  return {
    insert: async (s) => {
      await db
        .insertInto('schedules')
        .values({
          id: s.id,
          user_id: s.ownerId,
          team_id: s.teamId,
          name: s.name,
          time_zone: s.timeZone,
          availability: JSON.stringify(s.availability),
          overrides: JSON.stringify(s.overrides),
          created_at: s.createdAt,
          updated_at: s.updatedAt,
        })
        .execute();
    },
    find: async (scope, id) => {
      const row = await scoped(db, scope).where('s.id', '=', id).executeTakeFirst();
      return row && toSchedule(row);
    },
    list: async (scope, limit, offset) => {
      const rows = await scoped(db, scope).orderBy('s.created_at').orderBy('s.id').limit(limit).offset(offset).execute();
      return rows.map(toSchedule);
    },
    update: async (id, changes) => {
      await db.updateTable('schedules').set(changeColumns(changes)).where('id', '=', id).execute();
    },
    delete: async (id) => {
      await db.updateTable('users').set({ default_schedule_id: null }).where('default_schedule_id', '=', id).execute();
      await db.deleteFrom('schedules').where('id', '=', id).execute();
    },
    setDefault: async (userId, scheduleId, onlyIfUnset) => {
      let q = db.updateTable('users').set({ default_schedule_id: scheduleId }).where('id', '=', userId);
      if (onlyIfUnset) q = q.where('default_schedule_id', 'is', null);
      await q.execute();
    },
    clearDefault: async (userId) => {
      await db.updateTable('users').set({ default_schedule_id: null }).where('id', '=', userId).execute();
    },
  };
}
