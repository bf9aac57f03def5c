// WorkflowStore (src/platform/workflows/store.ts) on Kysely.
import type { Selectable, Updateable } from 'kysely';
import type { Workflow, WorkflowChanges, WorkflowStep, WorkflowStore } from '../../../platform/workflows/store.ts';
import type { Executor } from '../../repositories/executor.ts';
import type { WorkflowsTable } from '../../schema.ts';

const toWorkflow = (w: Selectable<WorkflowsTable>): Workflow => ({
  id: w.id,
  teamId: w.team_id,
  name: w.name,
  trigger: w.trigger,
  timeOffsetMinutes: w.time_offset_minutes,
  steps: JSON.parse(w.steps) as WorkflowStep[],
  activeOnEventTypeIds: JSON.parse(w.active_on) as string[],
  active: w.active === 1,
  createdAt: w.created_at,
  updatedAt: w.updated_at,
});

const changeColumns = (c: WorkflowChanges): Updateable<WorkflowsTable> => ({
  ...(c.name !== undefined ? { name: c.name } : {}),
  ...(c.trigger !== undefined ? { trigger: c.trigger } : {}),
  ...(c.timeOffsetMinutes !== undefined ? { time_offset_minutes: c.timeOffsetMinutes } : {}),
  ...(c.steps !== undefined ? { steps: JSON.stringify(c.steps) } : {}),
  ...(c.activeOnEventTypeIds !== undefined ? { active_on: JSON.stringify(c.activeOnEventTypeIds) } : {}),
  ...(c.active !== undefined ? { active: c.active ? 1 : 0 } : {}),
  updated_at: c.updatedAt,
});

export function createWorkflowStore(db: Executor): WorkflowStore {
  const ofTeam = (teamId: string) => db.selectFrom('workflows').selectAll().where('team_id', '=', teamId);
  return {
    insert: async (w) => {
      await db
        .insertInto('workflows')
        .values({
          id: w.id,
          team_id: w.teamId,
          name: w.name,
          trigger: w.trigger,
          time_offset_minutes: w.timeOffsetMinutes,
          steps: JSON.stringify(w.steps),
          active_on: JSON.stringify(w.activeOnEventTypeIds),
          active: w.active ? 1 : 0,
          created_at: w.createdAt,
          updated_at: w.updatedAt,
        })
        .execute();
    },
    find: async (teamId, id) => {
      const row = await ofTeam(teamId).where('id', '=', id).executeTakeFirst();
      return row && toWorkflow(row);
    },
    list: async (teamId, limit, offset) => (await ofTeam(teamId).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute()).map(toWorkflow),
    update: async (id, changes) => {
      await db.updateTable('workflows').set(changeColumns(changes)).where('id', '=', id).execute();
    },
    delete: async (teamId, id) => {
      const result = await db.deleteFrom('workflows').where('id', '=', id).where('team_id', '=', teamId).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
