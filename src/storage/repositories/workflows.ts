// workflows of a team: reminders and notifications around its bookings.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { WorkflowsTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export type WorkflowRow = Selectable<WorkflowsTable>;

export async function insertWorkflow(db: Executor, row: Insertable<WorkflowsTable>): Promise<void> {
  await db.insertInto('workflows').values(row).execute();
}

export async function findWorkflow(db: Executor, teamId: string, id: string): Promise<WorkflowRow | undefined> {
  return db.selectFrom('workflows').selectAll().where('id', '=', id).where('team_id', '=', teamId).executeTakeFirst();
}

export async function listWorkflows(db: Executor, teamId: string, limit: number, offset: number): Promise<WorkflowRow[]> {
  return db.selectFrom('workflows').selectAll().where('team_id', '=', teamId).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();
}

export async function updateWorkflow(db: Executor, id: string, changes: Updateable<WorkflowsTable>): Promise<void> {
  await db.updateTable('workflows').set(changes).where('id', '=', id).execute();
}

export async function deleteWorkflow(db: Executor, teamId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('workflows').where('id', '=', id).where('team_id', '=', teamId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
