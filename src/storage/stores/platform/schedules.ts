// ScheduleStore (src/platform/schedules/store.ts) over the schedules repository.
import type { Updateable } from 'kysely';
import type { AvailabilityOverride, AvailabilityRange, Schedule, ScheduleChanges, ScheduleStore } from '../../../platform/schedules/store.ts';
import type { Executor } from '../../repositories/executor.ts';
import * as repo from '../../repositories/schedules.ts';
import type { SchedulesTable } from '../../schema.ts';

const toSchedule = (r: repo.ScheduleRow): Schedule => ({
  id: r.id,
  ownerId: r.user_id,
  teamId: r.team_id,
  name: r.name,
  timeZone: r.time_zone,
  availability: JSON.parse(r.availability) as AvailabilityRange[],
  overrides: JSON.parse(r.overrides) as AvailabilityOverride[],
  isDefault: r.is_default,
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

export function createScheduleStore(db: Executor): ScheduleStore {
  return {
    insert: (s) =>
      repo.insertSchedule(db, {
        id: s.id,
        user_id: s.ownerId,
        team_id: s.teamId,
        name: s.name,
        time_zone: s.timeZone,
        availability: JSON.stringify(s.availability),
        overrides: JSON.stringify(s.overrides),
        created_at: s.createdAt,
        updated_at: s.updatedAt,
      }),
    find: async (scope, id) => {
      const row = await repo.findSchedule(db, scope, id);
      return row && toSchedule(row);
    },
    list: async (scope, limit, offset) => (await repo.listSchedules(db, scope, limit, offset)).map(toSchedule),
    update: (id, changes) => repo.updateSchedule(db, id, changeColumns(changes)),
    delete: (id) => repo.deleteSchedule(db, id),
    setDefault: (userId, scheduleId, onlyIfUnset) => repo.setDefaultSchedule(db, userId, scheduleId, onlyIfUnset),
    clearDefault: (userId) => repo.clearDefaultSchedule(db, userId),
  };
}
