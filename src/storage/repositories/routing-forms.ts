// routing_forms of a team or an organization, and their responses.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { RoutingFormResponsesTable, RoutingFormsTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export type RoutingFormRow = Selectable<RoutingFormsTable>;
export type RoutingFormResponseRow = Selectable<RoutingFormResponsesTable>;
/** A team's forms; or an organization's: its own and its teams'. */
export type FormScope = { teamId: string } | { organizationId: string };

function scoped(db: Executor, scope: FormScope) {
  const q = db.selectFrom('routing_forms').selectAll();
  if ('teamId' in scope) return q.where('team_id', '=', scope.teamId);
  const orgId = scope.organizationId;
  return q.where((eb) => eb.or([eb('organization_id', '=', orgId), eb('team_id', 'in', eb.selectFrom('teams').select('id').where('organization_id', '=', orgId))]));
}

export async function insertForm(db: Executor, row: Insertable<RoutingFormsTable>): Promise<void> {
  await db.insertInto('routing_forms').values(row).execute();
}

export async function findForm(db: Executor, scope: FormScope, id: string): Promise<RoutingFormRow | undefined> {
  return scoped(db, scope).where('id', '=', id).executeTakeFirst();
}

export async function listForms(db: Executor, scope: FormScope, limit: number, offset: number): Promise<RoutingFormRow[]> {
  return scoped(db, scope).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();
}

export async function insertResponse(db: Executor, row: Insertable<RoutingFormResponsesTable>): Promise<void> {
  await db.insertInto('routing_form_responses').values(row).execute();
}

export async function listResponses(db: Executor, formId: string, limit: number, offset: number): Promise<RoutingFormResponseRow[]> {
  return db.selectFrom('routing_form_responses').selectAll().where('form_id', '=', formId).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();
}

export async function findResponse(db: Executor, formId: string, id: string): Promise<RoutingFormResponseRow | undefined> {
  return db.selectFrom('routing_form_responses').selectAll().where('id', '=', id).where('form_id', '=', formId).executeTakeFirst();
}

export async function updateResponse(db: Executor, id: string, changes: Updateable<RoutingFormResponsesTable>): Promise<void> {
  await db.updateTable('routing_form_responses').set(changes).where('id', '=', id).execute();
}

export async function deleteResponse(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('routing_form_responses').where('id', '=', id).execute();
}
