// WorkflowStore (src/platform/workflows/store.ts) over the workflows repository.
import type { Updateable } from 'kysely';
import type { Workflow, WorkflowChanges, WorkflowStep, WorkflowStore } from '../../../platform/workflows/store.ts';
import type { Executor } from '../../repositories/executor.ts';
import * as repo from '../../repositories/workflows.ts';
import type { WorkflowsTable } from '../../schema.ts';

const toWorkflow = (w: repo.WorkflowRow): Workflow => ({
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
  return {
    insert: (w) =>
      repo.insertWorkflow(db, {
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
      }),
    find: async (teamId, id) => {
      const row = await repo.findWorkflow(db, teamId, id);
      return row && toWorkflow(row);
    },
    list: async (teamId, limit, offset) => (await repo.listWorkflows(db, teamId, limit, offset)).map(toWorkflow),
    update: (id, changes) => repo.updateWorkflow(db, id, changeColumns(changes)),
    delete: (teamId, id) => repo.deleteWorkflow(db, teamId, id),
  };
}
